//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The agent can replace its workspace's .cdxtheme.json with anything; the
// Home list skips that workspace with a reason and lists the others.
func TestListSkipsHostileMeta(t *testing.T) {
	root := t.TempDir()
	good, err := Create(root, "Good", "m")
	if err != nil {
		t.Fatal(err)
	}
	plants := map[string]func(string) error{
		"named pipe":       func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"symbolic link":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"too large":        func(p string) error { return os.WriteFile(p, make([]byte, maxMeta+1), 0o644) },
		"a symbolic link,": func(p string) error { return os.Symlink(filepath.Join(good.Dir, MetaFile), p) },
	}
	for want, plant := range plants {
		m, err := Create(root, want, "m")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(m.Dir, MetaFile)
		os.Remove(p)
		if err := plant(p); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(root, m.ID); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("open with a %s meta: %v", want, err)
		}
	}
	list, problems := List(root)
	if len(list) != 1 || list[0].ID != good.ID || len(problems) != len(plants) {
		t.Errorf("listed %d (%v), %d problems: %v", len(list), list, len(problems), problems)
	}
}

// A link the agent plants at the metadata's name between the app's read
// and its write is refused; what it points at is never written.
func TestWriteMetaRefusesAPlantedLink(t *testing.T) {
	root := t.TempDir()
	m, err := Create(root, "Target", "m")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(m.Dir, MetaFile)
	os.Remove(meta)
	if err := os.Symlink(outside, meta); err != nil {
		t.Fatal(err)
	}
	m.Title = "Renamed"
	if err := write(m); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("write through a planted link: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep me\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
}
