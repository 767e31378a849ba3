//go:build unix

package apply

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cdxtheme/core/fswrite"
	"cdxtheme/core/theme"
)

// bystander is a file outside every folder written into; it must come
// through unchanged.
func bystander(t *testing.T) (string, func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(p, []byte("alias ll='ls -l'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, func() {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "alias ll='ls -l'\n" {
			t.Errorf("%s, which a planted link points at, was written: %q %v", p, b, err)
		}
	}
}

func TestPlanAndApplyRefuseALinkedTarget(t *testing.T) {
	target, unchanged := bystander(t)
	defer unchanged()
	p := tempPaths(t, "linux")
	dir := filepath.Join(p.ConfigHome, "kitty", "themes")
	os.MkdirAll(dir, 0o755)
	link := filepath.Join(dir, "harbour-night.conf")

	// Linked before the plan: the plan refuses, naming it.
	os.Symlink(target, link)
	if _, err := Plan(theme.Example(), "kitty", p); err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("plan over a link: %v", err)
	}
	// Linked after the plan was shown: Apply refuses too.
	os.Remove(link)
	plan, err := Plan(theme.Example(), "kitty", p)
	if err != nil {
		t.Fatal(err)
	}
	os.Symlink(target, link)
	if _, err := Apply(plan); !errors.Is(err, fswrite.ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Errorf("apply over a link: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced: %v %v", fi, err)
	}
	// A FIFO there is refused without hanging.
	os.Remove(link)
	syscall.Mkfifo(link, 0o644)
	if _, err := Apply(plan); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("apply over a FIFO: %v", err)
	}
}

func TestApplyKeepsTheReplacedFilesMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	p := tempPaths(t, "linux")
	path := filepath.Join(p.ConfigHome, "zed", "themes", "harbour-night.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(`{"mine":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	plan, err := Plan(theme.Example(), "zed", p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply(plan)
	if err != nil || len(got.Backups) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	fi, err := os.Stat(got.Backups[0])
	b, _ := os.ReadFile(got.Backups[0])
	if err != nil || fi.Mode().Perm() != 0o600 || string(b) != `{"mine":true}` {
		t.Errorf("backup %s: mode %v, %q, %v; want the original's 0600 and bytes", got.Backups[0], fi.Mode(), b, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("the installed file is %v; the file it replaced was 0600", fi.Mode())
	}
	// A new file gets the usual 0644.
	os.Remove(path)
	if plan, err = Plan(theme.Example(), "zed", p); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("a new install is %v, want 0644", fi.Mode())
	}
}
