//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunFlags(t *testing.T) {
	tests := []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"-n", "0"}, 2, "must be at least 1"},
		{[]string{"-stream-rate", "0"}, 2, "must be at least 1"},
		{[]string{"-only", "adapter,gpu"}, 2, `unknown section "gpu"`},
		{[]string{"-adapter", "python"}, 2, `unknown -adapter "python"`},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if got := run(tt.args, &out, &errOut); got != tt.want || !strings.Contains(errOut.String(), tt.msg) {
			t.Errorf("run(%q) = %d, stderr %q", tt.args, got, errOut.String())
		}
	}
}

func TestParseSections(t *testing.T) {
	all, err := parseSections("")
	if err != nil || len(all) != len(allSections) {
		t.Errorf("default = %v, %v", all, err)
	}
	some, err := parseSections("stream, codexhome")
	if err != nil || len(some) != 2 || !some[secStream] || !some[secCodexHome] || some[secAdapter] {
		t.Errorf("subset = %v, %v", some, err)
	}
	if _, err := parseSections("stream,gpu"); err == nil || !strings.Contains(err.Error(), "gpu") {
		t.Errorf("unknown section: %v", err)
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
