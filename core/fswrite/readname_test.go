//go:build unix

package fswrite

import (
	"os"
	"path/filepath"
	"testing"
)

// ReadFile takes a plain name in the folder: a path with "/" is refused,
// so a symlinked subfolder the agent planted cannot lead the read outside.
func TestReadFileRefusesAPathWithSlash(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("token"), 0o600)
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "x"), []byte("x"), 0o600)
	d, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"out/secret", "sub/x"} {
		if b, _, err := d.ReadFile(name, 1024); err == nil {
			t.Errorf("ReadFile(%q) read %q", name, b)
		}
	}
}
