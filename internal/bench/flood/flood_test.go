//go:build unix

package flood

import (
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/bench/table"
)

// readEvents must find the done line after text lines far longer than its
// buffer, and never keep them.
func TestReadEventsSeesTheDoneLineAfterHugeText(t *testing.T) {
	huge := `{"type":"text","text":"` + strings.Repeat("flood ", 1<<20) + `"}` + "\n" // 6 MiB, one line
	done := `{"type":"done","sessionId":"s-1","stopReason":"cancelled"}` + "\n"
	in := `{"type":"session","sessionId":"s-1"}` + "\n" + huge + huge + done
	var seen []int64
	n, last, err := readEvents(strings.NewReader(in), func(n int64) { seen = append(seen, n) })
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(in)) {
		t.Errorf("read %d bytes, want %d", n, len(in))
	}
	if last.Type != "done" || last.SessionID != "s-1" || last.StopReason != "cancelled" {
		t.Errorf("last event = %+v", last)
	}
	// The count grows as the stream is read, so a Stop can land mid-line.
	if len(seen) < 4 || seen[0] >= int64(len(huge)) {
		t.Errorf("byte counts seen: %v", seen)
	}
	// A line that merely holds a done object is no done line.
	_, last, _ = readEvents(strings.NewReader(`{"type":"plan","plan":{"type":"done","stopReason":"end_turn"}}`+"\n"), nil)
	if last.Type != "" {
		t.Errorf("a line holding a done object was taken for the done line: %+v", last)
	}
	_, last, _ = readEvents(strings.NewReader(`{"type":"error","message":"agent gone"}`+"\n"), nil)
	if last.Type != "error" || last.Message != "agent gone" {
		t.Errorf("error line = %+v", last)
	}
}

func TestFloodRows(t *testing.T) {
	ms := time.Millisecond
	f := floodFigures{
		cliFull:   []floodRun{{ownMB: 20, bytes: 400 << 20, wall: 4 * time.Second}, {ownMB: 31}},
		cliStop:   []floodRun{{ownMB: 18, stop: 5 * ms}, {ownMB: 52, stop: 40 * ms}, {ownMB: 19, stop: 7 * ms}},
		serveFull: []floodRun{{ownMB: 12, bytes: 400 << 20, wall: 8 * time.Second}},
		serveStop: []floodRun{{ownMB: 13, stop: 1500 * ms}, {ownMB: 14, stop: 1200 * ms}, {ownMB: 11, stop: 30 * ms}},
		serveMB:   []float64{27, 99},
	}
	rows := floodRows(f)
	want := []struct {
		what   string
		median float64
		status string
	}{
		{whatFloodCLIRSS, 52, table.StatusMiss}, // the worst run, a Stop run's, decides
		{whatFloodCLIStop, 7, table.StatusOK},
		{whatFloodServeRSS, 99, table.StatusOK},
		{whatFloodServeClient, 14, table.StatusOK},
		{whatFloodServeStop, 1200, table.StatusMiss},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		if r.What != w.what || r.A.Median != w.median || r.Status != w.status {
			t.Errorf("row %d = %q %v %s, want %q %v %s", i, r.What, r.A.Median, r.Status, w.what, w.median, w.status)
		}
	}
	if !strings.Contains(rows[0].Note, "100 MB/s through chat --json") || !strings.Contains(rows[4].Note, "worst 1500 ms") {
		t.Errorf("notes: %q / %q", rows[0].Note, rows[4].Note)
	}
	// Nothing measured is an error row, never a pass.
	for _, r := range floodRows(floodFigures{}) {
		if r.Status != table.StatusError {
			t.Errorf("%s with no runs: %s", r.What, r.Status)
		}
	}
}

func TestLongChatRow(t *testing.T) {
	ms := func(v ...float64) []time.Duration { return durations(v...) }
	drive := make([]time.Duration, longChatTurns-2) // turns 3..400
	for i := range drive {
		drive[i] = time.Duration(i+3) * time.Millisecond // turn N takes N ms
	}
	l := longChat{drive: drive, long: ms(13, 12, 14), fresh: ms(10, 10, 10)}
	r := l.row()
	if r.Kind != table.KindRatio || r.Status != table.StatusMiss || r.Ratio < 1.29 || r.Ratio > 1.31 {
		t.Errorf("row = %s ratio %v", r.Status, r.Ratio)
	}
	if !strings.Contains(r.Note, "turns 3–27 15.0 ms") || !strings.Contains(r.Note, "turns 376–400 388.0 ms") {
		t.Errorf("note: %s", r.Note)
	}
	l.long = ms(11, 12, 11)
	if r := l.row(); r.Status != table.StatusOK {
		t.Errorf("1.1× = %s", r.Status)
	}
	if f := l.floorRow(); f.Status != table.StatusInfo {
		t.Errorf("the agent's own row has no target: %s", f.Status)
	}
}

func durations(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, v := range ms {
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out
}
