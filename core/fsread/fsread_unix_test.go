//go:build unix

// FIFOs and /dev/zero are Unix's; the Windows counterparts (a named
// pipe, NUL, links) are in fsread_windows_test.go.

package fsread

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileFIFODoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "theme.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, links := range []Links{NoFollow, Follow} {
		var err error
		within(t, 5*time.Second, func() { _, err = ReadFile(p, 1<<20, links) })
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), p) {
			t.Fatalf("a FIFO: %v; want not a regular file (a named pipe) naming it", err)
		}
	}
}

func TestReadFileSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte("{}"), 0o644)
	link := filepath.Join(dir, "theme.json")
	os.Symlink(target, link)
	if _, err := ReadFile(link, 1024, NoFollow); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Fatalf("NoFollow through a symlink: %v", err)
	}
	if b, err := ReadFile(link, 1024, Follow); err != nil || string(b) != "{}" {
		t.Fatalf("Follow through a symlink: %q, %v", b, err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	var err error
	within(t, 5*time.Second, func() { _, err = ReadFile(zero, 1<<20, Follow) })
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("/dev/zero through a followed link: %v", err)
	}
	if _, err := ReadFile(zero, 1<<20, NoFollow); !errors.Is(err, ErrSymlink) {
		t.Fatalf("/dev/zero through a refused link: %v", err)
	}
}
