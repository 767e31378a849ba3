//go:build windows

package fsread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/winlink"

	"golang.org/x/sys/windows"
)

// link makes a symlink, or skips where this user may not.
func link(t *testing.T, target, at string) { winlink.SymlinkOrSkip(t, target, at) }

// Windows has no O_NOFOLLOW: open_windows.go refuses a link by Lstat
// first. NoFollow must refuse it (and name it), Follow read through it.
func TestWindowsSymlinkNoFollow(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	if err := os.WriteFile(target, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(dir, "theme.json")
	link(t, target, at)
	if _, err := ReadFile(at, 1024, NoFollow); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), at) {
		t.Fatalf("NoFollow through a symlink: %v; want ErrSymlink naming it", err)
	}
	if b, err := ReadFile(at, 1024, Follow); err != nil || string(b) != "{}" {
		t.Fatalf("Follow through a symlink: %q, %v", b, err)
	}
}

// A directory junction (any user can make one, unlike a symlink) in the
// last component leads to a folder: refused as one, whichever Links.
func TestWindowsJunctionIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(dir, "theme.json")
	if err := winlink.Junction(at, elsewhere); err != nil {
		t.Fatal(err)
	}
	for _, links := range []Links{NoFollow, Follow} {
		if _, err := ReadFile(at, 1024, links); !errors.Is(err, ErrNotRegular) {
			t.Fatalf("a junction, links %d: %v; want not a regular file", links, err)
		}
	}
}

// NUL is a device in every folder (dir\NUL, dir\nul.json on Windows 10):
// the open succeeds and the fstat must refuse it before any read.
func TestWindowsReservedNamesAreDevices(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"NUL", `\\.\NUL`, filepath.Join(dir, "NUL"), filepath.Join(dir, "nul")} {
		_, err := ReadFile(p, 1024, NoFollow)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadFile(%q): %v; want not a regular file (a character device) naming it", p, err)
		}
	}
}

// A named pipe is Windows' FIFO: opening one that a server listens on
// connects at once, and reading it would wait for the server; the fstat
// refuses it first, so the read neither blocks nor takes the server's data.
func TestWindowsNamedPipeDoesNotBlock(t *testing.T) {
	for _, links := range []Links{NoFollow, Follow} {
		// A pipe of its own each time: one a client has left needs the
		// server to listen again.
		name := fmt.Sprintf(`\\.\pipe\cdxtheme-fsread-%d-%d`, os.Getpid(), links)
		p, err := windows.UTF16PtrFromString(name)
		if err != nil {
			t.Fatal(err)
		}
		// Two instances: a stat of a pipe opens it (Open's Lstat after a
		// refused link would), so the read's open still finds one.
		var hs []windows.Handle
		for range 2 {
			h, err := windows.CreateNamedPipe(p, windows.PIPE_ACCESS_DUPLEX, windows.PIPE_TYPE_BYTE, windows.PIPE_UNLIMITED_INSTANCES, 512, 512, 0, nil)
			if err != nil {
				t.Fatalf("CreateNamedPipe: %v", err)
			}
			hs = append(hs, h)
		}
		within(t, 5*time.Second, func() { _, err = ReadFile(name, 1<<20, links) })
		for _, h := range hs {
			windows.CloseHandle(h)
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("a named pipe, links %d: %v; want not a regular file (a named pipe)", links, err)
		}
	}
}

// The spellings Windows takes for the same file all read it: the \\?\
// long-path prefix, the other separator, another case, a drive letter in
// lower case.
func TestWindowsPathSpellings(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Theme.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(p) < 3 || p[1] != ':' {
		t.Fatalf("temp dir %q has no drive letter", p)
	}
	for _, q := range []string{
		`\\?\` + p,
		filepath.ToSlash(p),
		strings.ToUpper(p),
		strings.ToLower(p[:1]) + p[1:],
	} {
		if b, err := ReadFile(q, 1024, NoFollow); err != nil || string(b) != `{"a":1}` {
			t.Errorf("ReadFile(%q) = %q, %v", q, b, err)
		}
	}
}

// While the app reads a file an agent may replace, its handle shares
// delete access: without it Windows refuses the agent's rename of a new
// theme.json over the one being read ("Access is denied"), whatever the
// kind of rename. A handle opened for DELETE, as a rename's target is,
// must be granted beside the reader's.
func TestWindowsReadSharesDelete(t *testing.T) {
	p := filepath.Join(t.TempDir(), "theme.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _, err := Open(p, NoFollow)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u, err := windows.UTF16PtrFromString(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := windows.CreateFile(u, windows.DELETE, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		t.Fatalf("opening the file for DELETE while it is being read: %v; want it granted", err)
	}
	windows.CloseHandle(h)
}

// The rename agents make (a temporary file over theme.json) replaces the
// file while the app has it open for a read: with POSIX semantics (Go's
// os.Root, Rust's std::fs::rename), which Windows 10 1607 and later
// apply when every open handle shares delete. The reader goes on reading
// the file it opened; the next open reads the new one. (Wine 8 cannot:
// scripts/wine/known-limits.txt.)
func TestWindowsRenameReplacesAFileBeingRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "theme.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(p, NoFollow)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p+".tmp", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Rename("theme.json.tmp", "theme.json"); err != nil {
		t.Fatalf("rename over a file being read: %v", err)
	}
	if b, err := ReadAll(f, fi, p, 1024); err != nil || string(b) != "old" {
		t.Errorf("the open reader read %q, %v; want the file it opened", b, err)
	}
	if b, err := ReadFile(p, 1024, NoFollow); err != nil || string(b) != "new" {
		t.Errorf("a new read: %q, %v; want the renamed file", b, err)
	}
}

// A path past MAX_PATH is read: CreateFile needs the \\?\ prefix for it,
// which os.Open used to add.
func TestWindowsLongPath(t *testing.T) {
	dir := t.TempDir()
	for len(dir) < 300 {
		dir = filepath.Join(dir, strings.Repeat("d", 40))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "theme.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{p, filepath.ToSlash(p), dir + `\..\` + filepath.Base(dir) + `\theme.json`} {
		if b, err := ReadFile(q, 1024, NoFollow); err != nil || string(b) != `{"a":1}` {
			t.Errorf("ReadFile(%d characters) = %q, %v", len(q), b, err)
		}
	}
}

// A link planted after any check of the path and right before the open
// is still refused under NoFollow: the open itself does not follow it
// (FILE_FLAG_OPEN_REPARSE_POINT) and the handle's attributes decide, so
// no Lstat-then-open gap lets the read reach the file the link names.
func TestWindowsSymlinkPlantedBeforeTheOpenRefused(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("not for the app"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(dir, "theme.json")
	if err := os.WriteFile(at, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	beforeOpen = func(path string) {
		beforeOpen = nil
		if err := os.Remove(at); err != nil {
			t.Fatal(err)
		}
		link(t, secret, at)
	}
	defer func() { beforeOpen = nil }()
	b, err := ReadFile(at, 1024, NoFollow)
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), at) {
		t.Fatalf("NoFollow through a symlink planted before the open: %q, %v; want ErrSymlink naming it", b, err)
	}
}
