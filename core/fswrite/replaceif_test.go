package fswrite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ReplaceIfUnchanged writes only over what the caller read: a write that
// lands after the read, even after the new content is already on disk
// just before the rename, is kept and the caller is told (ErrChanged).
func TestReplaceIfUnchangedKeepsALaterWrite(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, "theme.json")
	read, agent, restore := []byte(`{"keyword":"#ff0000"}`), []byte(`{"keyword":"#ff0000","comment":"#00ff00"}`), []byte(`{"keyword":"#123456"}`)
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	check := func(want []byte) {
		t.Helper()
		if b, err := os.ReadFile(p); err != nil || string(b) != string(want) {
			t.Errorf("theme.json is %q (%v), want %q", b, err, want)
		}
		if entries, _ := os.ReadDir(ws); len(entries) != 1 {
			t.Errorf("left in the folder: %v", entries)
		}
	}

	// Unchanged: written.
	os.WriteFile(p, read, 0o644)
	if _, err := d.ReplaceIfUnchanged("theme.json", read, restore, 0o644); err != nil {
		t.Fatal(err)
	}
	check(restore)

	// Changed before the call, and removed.
	os.WriteFile(p, agent, 0o644)
	if _, err := d.ReplaceIfUnchanged("theme.json", read, restore, 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a changed file: %v, want ErrChanged", err)
	}
	check(agent)
	os.WriteFile(p, read[:len(read)-1], 0o644) // shorter: a prefix of what was read
	if _, err := d.ReplaceIfUnchanged("theme.json", read, restore, 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a shorter file: %v, want ErrChanged", err)
	}

	// Changed after the new content is written, right before the rename.
	os.WriteFile(p, read, 0o644)
	beforeCheck = func() {
		beforeCheck = nil
		if err := os.WriteFile(p+".agent", agent, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".agent", p); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { beforeCheck = nil }()
	if _, err := d.ReplaceIfUnchanged("theme.json", read, restore, 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a write landing before the rename: %v, want ErrChanged", err)
	}
	check(agent)

	os.Remove(p)
	if _, err := d.ReplaceIfUnchanged("theme.json", read, restore, 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a removed file: %v, want ErrChanged", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a removed file was written again: %v", err)
	}
}

// WriteIfAbsent creates a file only while none is there: one that appears
// after the caller found the name free, even right before the rename, is
// kept and the caller is told (ErrChanged).
func TestWriteIfAbsentKeepsAFileMadeMeanwhile(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, "config")
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteIfAbsent("config", []byte("theme = x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "theme = x\n" {
		t.Fatalf("config is %q", b)
	}
	if _, err := d.WriteIfAbsent("config", []byte("theme = y\n"), 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a file there before the call: %v, want ErrChanged", err)
	}
	os.Remove(p)
	beforeCheck = func() {
		beforeCheck = nil
		if err := os.WriteFile(p, []byte("the user's own\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { beforeCheck = nil }()
	if _, err := d.WriteIfAbsent("config", []byte("theme = y\n"), 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("over a file made right before the rename: %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "the user's own\n" {
		t.Errorf("config is %q, want the user's own", b)
	}
}
