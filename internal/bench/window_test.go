package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"not built", filepath.Join(dir, "nope"), `{"runs":5,"firstPaintMs":300,"idleMemoryKB":102400}`, StatusSkipped, StatusSkipped, 0, 0, "not built"},
		{"not run", app, "", StatusSkipped, StatusSkipped, 0, 0, "not run"},
		{"both within", app, `{"runs": 5, "firstPaintMs": 420, "idleMemoryKB": 102400}`, StatusOK, StatusOK, 420, 100, ""},
		{"both over", app, `{"runs": 5, "firstPaintMs": 1500, "idleMemoryKB": 204800}`, StatusMiss, StatusMiss, 1500, 200, ""},
		{"no paint report", app, `{"runs": 5, "firstPaintMs": null, "idleMemoryKB": 153600}`, StatusNA, StatusOK, 0, 150, "no paint report"},
		{"nothing measured", app, `{"runs": 5, "firstPaintMs": null, "idleMemoryKB": null}`, StatusNA, StatusNA, 0, 0, ""},
		{"corrupt", app, `{"runs": 5, "firstPaintMs": `, StatusError, StatusError, 0, 0, "bench-window.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bench-window.json")
			if tt.json != "" {
				if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rows := windowRows(path, tt.app)
			if len(rows) != 2 || rows[0].What != whatPaint || rows[1].What != whatMemory {
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

// A miss exits 0 (benchmarks never fail the build) unless -strict; skipped
// rows are no miss; the table and the JSON are written either way.
func TestRunExitsZeroOnMissUnlessStrict(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "cdxtheme")
	if err := os.WriteFile(app, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	over := filepath.Join(dir, "over.json")
	if err := os.WriteFile(over, []byte(`{"runs": 3, "firstPaintMs": 2400, "idleMemoryKB": 240000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		output string
	}{
		{"miss", []string{"-window", over, "-app", app}, 0, "miss"},
		{"miss, strict", []string{"-window", over, "-app", app, "-strict"}, 1, "missed: window"},
		{"not built, strict", []string{"-window", over, "-app", filepath.Join(dir, "none"), "-strict"}, 0, "skipped (not built"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "results.json")
			var stdout, stderr strings.Builder
			code := run(append([]string{"-only", "window", "-n", "1", "-out", out}, tt.args...), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.output) || !strings.Contains(stdout.String(), "adapter not run") {
				t.Errorf("table lacks %q:\n%s", tt.output, stdout.String())
			}
			if _, err := os.Stat(out); err != nil {
				t.Errorf("no JSON written: %v", err)
			}
		})
	}
}
