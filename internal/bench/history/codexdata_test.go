//go:build unix

package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/internal/bench/table"
)

// The generated home must be one core/codexhome reads in full: every
// session listed with its own id, titles from the index where it names one.
func TestWriteSessionsIsAReadableHome(t *testing.T) {
	home := t.TempDir()
	if err := writeSessions(home, 35); err != nil {
		t.Fatal(err)
	}
	got, err := codexhome.NewLister(codexhome.Home{Dir: home}).List(context.Background(), codexhome.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sessions) != 35 || len(got.Warnings) != 0 {
		t.Fatalf("listed %d sessions, warnings %v", len(got.Sessions), got.Warnings)
	}
	ids := map[string]bool{}
	titled := 0
	for _, s := range got.Sessions {
		ids[s.ID] = true
		if strings.HasPrefix(s.Title, "Theme ") && s.Title != "Theme please" { // the sample's own first message
			titled++
		}
	}
	if len(ids) != 35 {
		t.Errorf("%d distinct ids, want 35", len(ids))
	}
	if titled != 4 { // 0, 10, 20, 30 are in the index
		t.Errorf("%d sessions titled from the index, want 4", titled)
	}
}

func TestWriteBigRolloutParsesCleanly(t *testing.T) {
	dir := t.TempDir()
	path, err := writeBigRollout(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() < 1<<20 {
		t.Fatalf("size %v, %v", fi, err)
	}
	tr, err := codexhome.ReadRollout(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 0 || tr.ID != id166 || len(tr.Messages) < 100 {
		t.Errorf("id %s, %d messages, %d skipped", tr.ID, len(tr.Messages), tr.Skipped)
	}
	pg, err := codexhome.ReadRolloutPage(context.Background(), path, 0, firstPage)
	if err != nil || len(pg.Messages) != firstPage || pg.Done {
		t.Errorf("first page: %d messages, done %v, %v", len(pg.Messages), pg.Done, err)
	}
	if _, err := writeBigRollout(filepath.Join(dir, "missing"), 10); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestTimeRuns(t *testing.T) {
	calls := 0
	runs, err := timeRuns(3, func() error { calls++; return nil })
	if err != nil || len(runs) != 3 || calls != 3 {
		t.Errorf("runs %v, calls %d, %v", runs, calls, err)
	}
	boom := errors.New("boom")
	calls = 0
	runs, err = timeRuns(5, func() error {
		calls++
		if calls == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || runs != nil || calls != 2 {
		t.Errorf("after an error: runs %v, calls %d, %v", runs, calls, err)
	}
}

func TestRowOrFail(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		runs   []time.Duration
		err    error
		limit  float64
		status string
	}{
		{"under the ceiling", []time.Duration{40 * ms, 60 * ms, 50 * ms}, nil, 100, table.StatusOK},
		{"over the ceiling", []time.Duration{140 * ms, 160 * ms, 150 * ms}, nil, 100, table.StatusMiss},
		{"no target", []time.Duration{time.Second}, nil, 0, table.StatusInfo},
		{"failed", nil, errors.New("listed 3 sessions"), 100, table.StatusError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rowOrFail("x", "≤ 100 ms", tt.runs, tt.err, tt.limit, "how")
			if r.Status != tt.status {
				t.Errorf("status = %s, want %s (%+v)", r.Status, tt.status, r)
			}
			if tt.err != nil && r.Error != tt.err.Error() {
				t.Errorf("error = %q", r.Error)
			}
		})
	}
}
