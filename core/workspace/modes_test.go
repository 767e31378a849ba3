//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// A workspace made by an older version (0755 folders, 0644 files) is made
// private the first time it is opened; a symlink the agent left is not
// followed (what it points at keeps its mode).
func TestOpenTightensAnOlderWorkspace(t *testing.T) {
	root := filepath.Join(t.TempDir(), "theme_builder")
	m, err := Create(root, "old", "")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "shared.txt")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(outside, nil, 0o644))
	must(os.MkdirAll(filepath.Join(m.Dir, ".cdxtheme", "checkpoints", "objects"), 0o755))
	must(os.WriteFile(filepath.Join(m.Dir, ".cdxtheme", "checkpoints", "objects", "abc"), nil, 0o644))
	must(os.Symlink(outside, filepath.Join(m.Dir, "link")))
	for _, p := range []string{root, m.Dir, filepath.Join(m.Dir, ".cdxtheme"), filepath.Join(m.Dir, ".cdxtheme", "checkpoints"), filepath.Join(m.Dir, ".cdxtheme", "checkpoints", "objects")} {
		must(os.Chmod(p, 0o755))
	}
	for _, f := range []string{MetaFile, "AGENTS.md"} {
		must(os.Chmod(filepath.Join(m.Dir, f), 0o644))
	}
	tightened.Clear() // as a new process finds it

	if _, err := Open(root, m.ID); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{
		root: 0o700, m.Dir: 0o700,
		filepath.Join(m.Dir, MetaFile):                                     0o600,
		filepath.Join(m.Dir, "AGENTS.md"):                                  0o600,
		filepath.Join(m.Dir, ".cdxtheme", "checkpoints", "objects"):        0o700,
		filepath.Join(m.Dir, ".cdxtheme", "checkpoints", "objects", "abc"): 0o600,
		outside: 0o644,
	}
	for p, mode := range want {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, mode)
		}
	}
}
