package notes

import (
	"cdxtheme/core/damaged"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "sessions.json")
	s := Open(path)
	if n, err := s.Get(); err != nil || len(n.Titles)+len(n.Hidden) != 0 {
		t.Fatalf("missing file: %+v %v", n, err)
	}
	const id = "01a2360f-02d3-7551-b339-f4d167fb91c8"
	tests := []struct {
		name, title, want string
	}{
		{"plain", "Harbour night", "Harbour night"},
		{"multi-line and control characters become one line", "Harbour\n\tnight\x1b[31m", "Harbour night [31m"},
		{"long is cut", strings.Repeat("é", 200), strings.Repeat("é", 119) + "…"},
	}
	for _, tt := range tests {
		if err := s.SetTitle(id, tt.title); err != nil {
			t.Fatal(err)
		}
		n, err := Open(path).Get() // a fresh store reads the file
		if err != nil || n.Titles[id] != tt.want {
			t.Errorf("%s: title %q (%v), want %q", tt.name, n.Titles[id], err, tt.want)
		}
	}
	if err := s.SetTitle(id, "  "); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Get(); n.Titles[id] != "" {
		t.Errorf("an empty title must drop the name, got %q", n.Titles[id])
	}
	if err := s.SetHidden(id, true); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Get(); !n.Hidden[id] {
		t.Error("not hidden")
	}
	if err := s.SetHidden(id, false); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Get(); n.Hidden[id] {
		t.Error("still hidden")
	}
	for _, bad := range []string{"", "a\x00b", strings.Repeat("x", 5000)} {
		if s.SetTitle(bad, "x") == nil || s.SetHidden(bad, true) == nil {
			t.Errorf("id %q accepted", bad)
		}
	}
}

func TestCorruptNotesAreKeptAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Open(path)
	if _, err := s.Get(); err == nil {
		t.Error("a corrupt file must be reported")
	}
	if err := s.SetTitle("id-1", "Name"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Get(); err != nil || n.Titles["id-1"] != "Name" {
		t.Errorf("after rename: %+v %v", n, err)
	}
	copies, _ := filepath.Glob(path + damaged.Suffix + "*")
	if len(copies) != 1 {
		t.Fatalf("copies set aside: %v", copies)
	}
	if b, err := os.ReadFile(copies[0]); err != nil || string(b) != "{not json" {
		t.Errorf("the corrupt file was not kept aside: %q %v", b, err)
	}
}
