//go:build unix

package window

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/internal/bench/table"
)

func TestWindowRows(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "cdxtheme")
	if err := os.WriteFile(app, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		app          string
		json         string // "" = no file
		paint, mem   string // statuses
		paintV, memV float64
		why          string
	}{
		{"not built", filepath.Join(dir, "nope"), `{"runs":5,"firstPaintMs":300,"idleMemoryKB":102400}`, table.StatusSkipped, table.StatusSkipped, 0, 0, "not built"},
		{"not run", app, "", table.StatusSkipped, table.StatusSkipped, 0, 0, "not run"},
		{"both within", app, `{"runs": 5, "firstPaintMs": 420, "idleMemoryKB": 102400}`, table.StatusOK, table.StatusOK, 420, 100, ""},
		{"both over", app, `{"runs": 5, "firstPaintMs": 1500, "idleMemoryKB": 204800}`, table.StatusMiss, table.StatusMiss, 1500, 200, ""},
		{"no paint report", app, `{"runs": 5, "firstPaintMs": null, "idleMemoryKB": 153600}`, table.StatusNA, table.StatusOK, 0, 150, "no paint report"},
		{"nothing measured", app, `{"runs": 5, "firstPaintMs": null, "idleMemoryKB": null}`, table.StatusNA, table.StatusNA, 0, 0, ""},
		{"corrupt", app, `{"runs": 5, "firstPaintMs": `, table.StatusError, table.StatusError, 0, 0, "bench-window.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bench-window.json")
			if tt.json != "" {
				if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rows := Rows(path, tt.app)
			if len(rows) != 4 || rows[0].What != whatPaint || rows[1].What != whatMemory || rows[2].What != whatMemoryBare || rows[3].What != whatPaintBare {
				t.Fatalf("rows = %+v", rows)
			}
			if rows[0].Status != tt.paint || rows[1].Status != tt.mem {
				t.Errorf("statuses = %s, %s; want %s, %s", rows[0].Status, rows[1].Status, tt.paint, tt.mem)
			}
			if tt.paintV != 0 && (rows[0].A.Median != tt.paintV || rows[0].A.Unit != "ms") {
				t.Errorf("paint = %+v", rows[0].A)
			}
			if tt.memV != 0 && (rows[1].A.Median != tt.memV || rows[1].A.Unit != "MB") {
				t.Errorf("memory = %+v", rows[1].A)
			}
			if tt.why != "" && !strings.Contains(rows[0].Error, tt.why) {
				t.Errorf("paint row says %q, want %q in it", rows[0].Error, tt.why)
			}
		})
	}
}

// The bare Wails window beside the app: a ratio of the two medians, the
// app at most as big as the floor; without a bare measurement the rows
// say why.
func TestWindowRowsAgainstBareWails(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "cdxtheme")
	if err := os.WriteFile(app, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		json        string
		mem, paint  string // statuses
		ratio       float64
		why, inNote string
	}{
		{"no bare built", `{"runs": 5, "firstPaintMs": 420, "idleMemoryKB": 153600, "idleAnonKB": 81920, "bare": null}`, table.StatusSkipped, table.StatusSkipped, 0, "barewails not built", ""},
		{"old result without bare", `{"runs": 5, "firstPaintMs": 420, "idleMemoryKB": 153600}`, table.StatusSkipped, table.StatusSkipped, 0, "not built", ""},
		{"app smaller", `{"runs": 5, "firstPaintMs": 600, "idleMemoryKB": 143360, "idleAnonKB": 71680, "bare": {"firstPaintMs": 400, "idleMemoryKB": 153600, "idleAnonKB": 76800}}`, table.StatusOK, table.StatusInfo, 140.0 / 150, "", "app anonymous (heaps, not shared) 70.0 MB; bare anonymous (heaps, not shared) 75.0 MB"},
		{"app bigger", `{"runs": 5, "firstPaintMs": 600, "idleMemoryKB": 163840, "bare": {"firstPaintMs": 400, "idleMemoryKB": 153600}}`, table.StatusMiss, table.StatusInfo, 160.0 / 150, "", "alternating"},
		{"ratio per pair", `{"runs": 3, "firstPaintMs": 600, "idleMemoryKB": 160000, "bare": {"firstPaintMs": 400, "idleMemoryKB": 150000, "pairsKB": [[100, 110], [160, 150], [150, 160]]}}`, table.StatusOK, table.StatusInfo, 150.0 / 160, "", "median of 3 back-to-back pairs"},
		{"bare never painted", `{"runs": 5, "firstPaintMs": 600, "idleMemoryKB": 163840, "bare": {"firstPaintMs": null, "idleMemoryKB": null}}`, table.StatusNA, table.StatusNA, 0, "one of the two", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bench-window.json")
			if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
				t.Fatal(err)
			}
			rows := Rows(path, app)
			mem, paint := rows[2], rows[3]
			if mem.Status != tt.mem || paint.Status != tt.paint {
				t.Fatalf("statuses = %s, %s; want %s, %s (%+v)", mem.Status, paint.Status, tt.mem, tt.paint, rows)
			}
			if tt.ratio != 0 && (mem.Kind != table.KindRatio || mem.Limit != 1 || math.Abs(mem.Ratio-tt.ratio) > 1e-9 || mem.A.Unit != "MB") {
				t.Errorf("memory vs bare = %+v, want ratio %.4f", mem, tt.ratio)
			}
			if tt.ratio != 0 && (paint.Ratio != 1.5 || paint.A.Unit != "ms") {
				t.Errorf("paint vs bare = %+v", paint)
			}
			if tt.why != "" && !strings.Contains(mem.Error, tt.why) {
				t.Errorf("memory row says %q, want %q in it", mem.Error, tt.why)
			}
			if !strings.Contains(mem.Note, tt.inNote) {
				t.Errorf("memory note %q lacks %q", mem.Note, tt.inNote)
			}
		})
	}
}

func TestOverIdle(t *testing.T) {
	tests := []struct {
		idle, peak float64
		status     string
	}{
		{178, 360, table.StatusOK},   // under 1.5 × 178 + 100 = 367
		{178, 367, table.StatusOK},   // at the bound
		{178, 376, table.StatusMiss}, // over it
		{0, 50, table.StatusError},   // no idle figure is no pass
	}
	for _, tt := range tests {
		r := overIdle("x", tt.idle, tt.peak)
		if r.Status != tt.status {
			t.Errorf("idle %v, peak %v: %s, want %s", tt.idle, tt.peak, r.Status, tt.status)
		}
	}
	if r := overIdle("x", 100, 125); r.Limit != 250 || r.A.Median != 125 || r.Ratio != 0.5 {
		t.Errorf("row = limit %v, peak %v, ratio %v", r.Limit, r.A.Median, r.Ratio)
	}
}
