//go:build unix

package paths

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "made", "here")
	p := filepath.Join(dir, "settings.toml")
	old := syscall.Umask(0o077) // the new file's mode must not depend on it
	defer syscall.Umask(old)
	if err := WriteFileAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("content %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("made folder mode %v, want 0700", fi.Mode())
	}

	// The user narrowed the mode: a save keeps it.
	os.Chmod(p, 0o600)
	if err := WriteFileAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("after a save the user's 0600 became %v", fi.Mode())
	}
	// A secret is never widened by what was there.
	os.Chmod(p, 0o666)
	if err := WriteFileAtomic(p, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("a 0600 write over a 0666 file left %v", fi.Mode())
	}

	// A link at the path is replaced; its target is untouched.
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "window.json")
	os.Symlink(target, link)
	if err := WriteFileAtomic(link, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("written through the link: target now %q", b)
	}
	if fi, _ := os.Lstat(link); !fi.Mode().IsRegular() {
		t.Errorf("link not replaced: %v", fi.Mode())
	}
	assertNoTemp(t, dir)
}

func TestWriteFileAtomicFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.json")
	os.WriteFile(p, []byte("old"), 0o644)
	boom := errors.New("disk full")
	syncFile = func(*os.File) error { return boom }
	t.Cleanup(func() { syncFile = (*os.File).Sync })
	if err := WriteFileAtomic(p, []byte("new"), 0o644); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the sync failure", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	assertNoTemp(t, dir)

	// A folder where the file should be: an error naming it, nothing left over.
	os.Mkdir(filepath.Join(dir, "is-a-dir"), 0o755)
	syncFile = (*os.File).Sync
	if err := WriteFileAtomic(filepath.Join(dir, "is-a-dir"), []byte("x"), 0o644); err == nil {
		t.Fatal("wrote over a folder")
	}
	assertNoTemp(t, dir)
}

// TestWriteFileAtomicOrder checks the steps a crash-safe write needs, in
// order: the data synced before the rename, the folder synced after it.
func TestWriteFileAtomicOrder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "agents.toml")
	var steps []string
	syncFile = func(f *os.File) error {
		if _, err := os.Stat(p); err == nil {
			steps = append(steps, "sync after rename")
		}
		steps = append(steps, "sync "+filepath.Dir(f.Name()))
		return f.Sync()
	}
	rename = func(a, b string) error { steps = append(steps, "rename"); return os.Rename(a, b) }
	syncDir = func(d string) error { steps = append(steps, "sync folder "+d); return syncFolder(d) }
	t.Cleanup(func() { syncFile, rename, syncDir = (*os.File).Sync, os.Rename, syncFolder })
	if err := WriteFileAtomic(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{"sync " + dir, "rename", "sync folder " + dir}
	if len(steps) != len(want) {
		t.Fatalf("steps %q, want %q", steps, want)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Fatalf("steps %q, want %q", steps, want)
		}
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != "" && e.Name()[0] == '.' {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
