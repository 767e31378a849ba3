//go:build unix

package fswrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// victim is a file outside the folder written into; no write may touch it.
func victim(t *testing.T) (string, func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(p, []byte("export PATH=/usr/bin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Lstat(p)
	return p, func() {
		t.Helper()
		b, err := os.ReadFile(p)
		fi, _ := os.Lstat(p)
		if err != nil || string(b) != "export PATH=/usr/bin\n" || fi.Mode() != before.Mode() || !fi.ModTime().Equal(before.ModTime()) {
			t.Errorf("the link's target %s was touched: %q %v %v", p, b, fi.Mode(), err)
		}
	}
}

func TestWriteFileCreatesFolders(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "export/vscode")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.WriteFile("themes/x-color-theme.json", []byte("{}"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(ws, "export", "vscode", "themes", "x-color-theme.json"); p != want {
		t.Errorf("path %s, want %s", p, want)
	}
	b, err := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if err != nil || string(b) != "{}" || fi.Mode().Perm() != 0o644 {
		t.Errorf("wrote %q mode %v, %v", b, fi.Mode(), err)
	}
	// Replacing keeps no temporary file behind.
	if _, err := d.WriteFile("themes/x-color-theme.json", []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

func TestWriteFileRefusesSymlinkedFile(t *testing.T) {
	ws := t.TempDir()
	target, check := victim(t)
	defer check()
	os.MkdirAll(filepath.Join(ws, "export", "kitty"), 0o755)
	link := filepath.Join(ws, "export", "kitty", "x.conf")
	os.Symlink(target, link)
	d, err := Open(ws, "export/kitty")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = d.WriteFile("x.conf", []byte("theme"), 0o644)
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Fatalf("err %v; want a refusal naming %s", err, link)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced")
	}
}

func TestOpenRefusesSymlinkedFolder(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "export"), 0o755)
	link := filepath.Join(ws, "export", "css")
	os.Symlink(outside, link)
	_, err := Open(ws, "export/css")
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Fatalf("err %v; want a refusal naming %s", err, link)
	}
	// A link higher up, and a relative one pointing inside the folder.
	os.Remove(link)
	os.Remove(filepath.Join(ws, "export"))
	os.Symlink(".", filepath.Join(ws, "export"))
	if _, err := Open(ws, "export/css"); !errors.Is(err, ErrSymlink) {
		t.Fatalf("a relative link inside the workspace: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
	// A symlinked subfolder of a file name.
	os.Remove(filepath.Join(ws, "export"))
	d, err := Open(ws, "export/vscode")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.Symlink(outside, filepath.Join(ws, "export", "vscode", "themes"))
	if _, err := d.WriteFile("themes/x.json", []byte("{}"), 0o644); !errors.Is(err, ErrSymlink) {
		t.Fatalf("a symlinked subfolder: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
}

func TestWriteFileRefusesNonRegular(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644)
	os.Mkdir(filepath.Join(ws, "folder"), 0o755)
	for _, name := range []string{"pipe", "folder"} {
		if _, err := d.WriteFile(name, []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v", name, err)
		}
	}
	os.WriteFile(filepath.Join(ws, "file"), nil, 0o644)
	if _, err := Open(ws, "file"); !errors.Is(err, ErrNotDir) {
		t.Errorf("a file where a folder should be: %v", err)
	}
}

func TestNamesStayBelow(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"../x", "/etc/passwd", "a//b", "a/./b", ""} {
		if _, err := d.WriteFile(name, []byte("x"), 0o644); err == nil {
			t.Errorf("%q was written", name)
		}
	}
	if _, err := Open(ws, "a/../.."); err == nil {
		t.Error("Open accepted ..")
	}
}

func TestCreateNewAndReadFileKeepMode(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	d, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.CreateNew("a.bak", []byte("secret"), 0o640)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 whatever the umask", fi.Mode())
	}
	if _, err := d.CreateNew("a.bak", []byte("x"), 0o640); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a second CreateNew: %v", err)
	}
	target, check := victim(t)
	defer check()
	os.Symlink(target, filepath.Join(dir, "link.bak"))
	if _, err := d.CreateNew("link.bak", []byte("x"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateNew over a link: %v", err)
	}
	b, fi, err := d.ReadFile("a.bak", 1024)
	if err != nil || string(b) != "secret" || fi.Mode().Perm() != 0o640 {
		t.Errorf("ReadFile: %q %v %v", b, fi, err)
	}
	if _, _, err := d.ReadFile("link.bak", 1024); !errors.Is(err, ErrSymlink) {
		t.Errorf("ReadFile through a link: %v", err)
	}
	if _, _, err := d.ReadFile("none", 1024); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of nothing: %v", err)
	}
}
