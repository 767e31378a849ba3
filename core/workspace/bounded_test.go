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
