//go:build windows

package fswrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/winlink"
)

// entries lists dir's names, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func readBack(t *testing.T, p, want string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Errorf("%s holds %q, %v; want %q", p, b, err, want)
	}
}

// dir_windows.go walks an os.Root: folders made on the way, paths given
// back with backslashes, a replace leaving no temporary file behind.
func TestWindowsWriteCreatesFoldersAndReplaces(t *testing.T) {
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
	if want := ws + `\export\vscode\themes\x-color-theme.json`; p != want {
		t.Errorf("path %s, want %s", p, want)
	}
	readBack(t, p, "{}")
	if _, err := d.WriteFile("themes/x-color-theme.json", []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	readBack(t, p, `{"a":1}`)
	if got := entries(t, filepath.Dir(p)); len(got) != 1 {
		t.Errorf("left in the folder: %v", got)
	}
	if _, err := d.CreateNew("themes/x-color-theme.json", []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateNew over a file: %v; want fs.ErrExist", err)
	}
	b, _, err := d.ReadFile("x", 1024)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of nothing: %q, %v", b, err)
	}
}

// Windows names ignore case: writing Theme.json over theme.json replaces
// that file (no second one beside it) and a folder is found in any case.
func TestWindowsNamesIgnoreCase(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "Export")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteFile("theme.json", []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(ws, "export")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("THEME.json", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, ws); len(got) != 1 {
		t.Errorf("folders: %v; want the one Export", got)
	}
	got := entries(t, filepath.Join(ws, "Export"))
	if len(got) != 1 {
		t.Fatalf("files: %v; want one", got)
	}
	readBack(t, filepath.Join(ws, "Export", got[0]), "new")
	if b, _, err := d.ReadFile("Theme.JSON", 1024); err != nil || string(b) != "new" {
		t.Errorf("ReadFile in another case: %q, %v", b, err)
	}
}

// Device names (NUL, CON, COM1, with any extension: Windows 10 opens
// nul.json as the NUL device), stream names (x.json:stream writes a
// hidden stream of x.json), drives and backslashes never reach the OS.
func TestWindowsReservedAndStreamNamesRefused(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("x.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := []string{"NUL", "nul.json", "con.txt", "sub/COM1", "aux", "LPT1.conf", "CONIN$", "x.json:stream", "x.json::$DATA",
		"C:x", `C:\x`, `sub\x`, `\\?\C:\x`, `\\host\share\x`, "//host/share/x"}
	for _, name := range bad {
		if _, err := d.WriteFile(name, []byte("x"), 0o644); err == nil {
			t.Errorf("WriteFile(%q) wrote", name)
		}
		if _, err := d.CreateNew(name, []byte("x"), 0o644); err == nil {
			t.Errorf("CreateNew(%q) wrote", name)
		}
		if _, _, err := d.ReadFile(name, 1024); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%q): %v; want refused by name", name, err)
		}
		if err := d.Remove(name); err == nil {
			t.Errorf("Remove(%q) removed", name)
		}
		if sub, err := Open(ws, name); err == nil {
			sub.Close()
			t.Errorf("Open(ws, %q) opened", name)
		}
	}
	if got := entries(t, ws); len(got) != 1 || got[0] != "x.json" {
		t.Errorf("the folder holds %v; want x.json alone", got)
	}
	readBack(t, filepath.Join(ws, "x.json"), "{}")
}

// A folder where a file goes and a file where a folder goes are refused,
// naming them.
func TestWindowsWrongKindRefused(t *testing.T) {
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("folder", []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), ws+`\folder`) {
		t.Errorf("a folder where a file goes: %v", err)
	}
	if err := d.Remove("folder"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Remove of a folder: %v", err)
	}
	if _, _, err := d.ReadFile("folder", 1024); err == nil {
		t.Errorf("ReadFile of a folder read it")
	}
	if _, err := Open(ws, "file"); !errors.Is(err, ErrNotDir) || !strings.Contains(err.Error(), ws+`\file`) {
		t.Errorf("a file where a folder goes: %v", err)
	}
	if _, err := d.WriteFile("file/x", []byte("x"), 0o644); !errors.Is(err, ErrNotDir) {
		t.Errorf("a file on the way: %v", err)
	}
}

// The base may be given as the user typed or chose it: with the \\?\
// long-path prefix, with forward slashes, in another case.
func TestWindowsBaseSpellings(t *testing.T) {
	ws := t.TempDir()
	for i, base := range []string{`\\?\` + ws, filepath.ToSlash(ws), strings.ToUpper(ws)} {
		d, err := Open(base, "export")
		if err != nil {
			t.Fatalf("Open(%q): %v", base, err)
		}
		name := []string{"a.json", "b.json", "c.json"}[i]
		if _, err := d.WriteFile(name, []byte(name), 0o644); err != nil {
			t.Errorf("WriteFile in %q: %v", base, err)
		}
		d.Close()
		readBack(t, filepath.Join(ws, "export", name), name)
	}
}

// A workspace reached through a UNC path (a network share; here the
// machine's own administrative share) is written like a local one.
func TestWindowsUNCBase(t *testing.T) {
	ws := t.TempDir()
	if len(ws) < 3 || ws[1] != ':' {
		t.Fatalf("temp dir %q has no drive letter", ws)
	}
	unc := `\\localhost\` + ws[:1] + `$` + ws[2:]
	d, err := Open(unc, "export")
	if err != nil {
		t.Fatalf("Open(%q): %v", unc, err)
	}
	defer d.Close()
	p, err := d.WriteFile("x.json", []byte("{}"), 0o644)
	if err != nil || !strings.HasPrefix(p, unc) {
		t.Fatalf("WriteFile: %s, %v", p, err)
	}
	readBack(t, filepath.Join(ws, "export", "x.json"), "{}")
}

// Remove deletes a regular file in the folder.
func TestWindowsRemove(t *testing.T) {
	ws := t.TempDir()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("x.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("x.json"); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if got := entries(t, ws); len(got) != 0 {
		t.Errorf("left: %v", got)
	}
}

// victim is a file outside the folder; no write may change it.
func victim(t *testing.T) (string, func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "profile.ps1")
	if err := os.WriteFile(p, []byte("Set-Location C:\\\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, func() {
		t.Helper()
		readBack(t, p, "Set-Location C:\\\n")
	}
}

// link makes a symlink, or skips where this user may not.
func link(t *testing.T, target, at string) { winlink.SymlinkOrSkip(t, target, at) }

// Windows has no O_NOFOLLOW: each component is Lstat-checked in the
// os.Root. A symlinked folder on the way, a symlinked file where one is
// written, read or removed: refused, naming it, and the target untouched.
func TestWindowsSymlinksRefused(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	target, check := victim(t)
	defer check()
	if err := os.MkdirAll(filepath.Join(ws, "export"), 0o755); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(ws, "export", "css")
	link(t, outside, dirLink)
	if _, err := Open(ws, "export/css"); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), dirLink) {
		t.Errorf("a symlinked folder: %v; want ErrSymlink naming %s", err, dirLink)
	}
	fileLink := filepath.Join(ws, "export", "x.conf")
	link(t, target, fileLink)
	d, err := Open(ws, "export")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("x.conf", []byte("theme"), 0o644); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), fileLink) {
		t.Errorf("a symlinked file: %v; want ErrSymlink naming %s", err, fileLink)
	}
	if _, err := d.WriteFile("css/x.css", []byte("x"), 0o644); !errors.Is(err, ErrSymlink) {
		t.Errorf("through a symlinked folder: %v", err)
	}
	if _, err := d.CreateNew("x.conf", []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateNew over a link: %v; want fs.ErrExist", err)
	}
	if _, _, err := d.ReadFile("x.conf", 1024); !errors.Is(err, ErrSymlink) {
		t.Errorf("ReadFile through a link: %v", err)
	}
	if err := d.Remove("x.conf"); !errors.Is(err, ErrSymlink) {
		t.Errorf("Remove of a link: %v", err)
	}
	if fi, err := os.Lstat(fileLink); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced: %v", err)
	}
	if got := entries(t, outside); len(got) != 0 {
		t.Errorf("written outside: %v", got)
	}
}

// A directory junction (which any user can make, unlike a symlink) is not
// walked into where a folder goes, nor written through where a file goes.
func TestWindowsJunctionsRefused(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "export"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := winlink.Junction(filepath.Join(ws, "export", "css"), outside); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ws, "export/css"); !errors.Is(err, ErrNotDir) && !errors.Is(err, ErrSymlink) {
		t.Errorf("a junction where a folder goes: %v; want refused", err)
	}
	d, err := Open(ws, "export")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.WriteFile("css/x.css", []byte("x"), 0o644); err == nil {
		t.Errorf("wrote through a junction")
	}
	if _, err := d.WriteFile("css", []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) && !errors.Is(err, ErrSymlink) {
		t.Errorf("a junction where a file goes: %v; want refused", err)
	}
	if got := entries(t, outside); len(got) != 0 {
		t.Errorf("written outside: %v", got)
	}
}

// A program that holds the file open without sharing delete access (as
// os.Open opens: an editor, a virus scanner) makes Windows refuse the
// rename that replaces it. The write waits for it to let go instead of
// failing at once: the rename is tried again, and succeeds once the
// file is closed.
func TestWindowsReplaceWaitsForAFileHeldOpen(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, "theme.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	held, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	// The first refusal is the test's signal to close the file; the
	// write waits until it has.
	refused, closed := make(chan error, 1), make(chan struct{})
	beforeRetry = func(err error) {
		select {
		case refused <- err:
			<-closed
		default:
		}
	}
	defer func() { beforeRetry = nil }()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	done := make(chan error, 1)
	go func() {
		_, err := d.WriteFile("theme.json", []byte("new"), 0o644)
		done <- err
	}()
	select {
	case <-refused:
	case err := <-done:
		held.Close()
		t.Fatalf("the write ended while the file was held open (%v); want it to wait", err)
	}
	held.Close()
	close(closed)
	if err := <-done; err != nil {
		t.Fatalf("the write after the file was closed: %v", err)
	}
	readBack(t, p, "new")
	if names := entries(t, ws); len(names) != 1 {
		t.Errorf("left %v; want theme.json alone", names)
	}
}

// A file held open is being written by its holder: a compare-and-replace
// whose rename was refused must compare again before it tries again, or
// its stale result replaces the holder's newer write.
func TestWindowsReplaceIfUnchangedComparesAgainAfterARefusal(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, "theme.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	// At the first refusal the holder writes its newer content and closes.
	beforeRetry = func(error) {
		if held == nil {
			return
		}
		if _, err := held.WriteAt([]byte("newer"), 0); err != nil {
			t.Error(err)
		}
		held.Close()
		held = nil
	}
	defer func() { beforeRetry = nil }()
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ReplaceIfUnchanged("theme.json", []byte("old"), []byte("mine"), 0o644); !errors.Is(err, ErrChanged) {
		t.Fatalf("replace over a write made while it waited: %v; want ErrChanged", err)
	}
	// (The temporary file's removal is os.Root's unlinkat, which Wine
	// lacks; TestReplaceIfUnchangedKeepsALaterWrite checks it elsewhere.)
	readBack(t, p, "newer")
}

// A link planted right before the read opens the file (after anything
// could have looked at the path) is still refused: the open does not
// follow it (FILE_FLAG_OPEN_REPARSE_POINT) and the handle decides. The
// link names a file inside the folder, which os.Root would follow.
func TestWindowsSymlinkPlantedBeforeTheReadRefused(t *testing.T) {
	ws := t.TempDir()
	secret := filepath.Join(ws, "secret.txt")
	if err := os.WriteFile(secret, []byte("not for the app"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(ws, "theme.json")
	if err := os.WriteFile(at, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	beforeOpen = func(string) {
		beforeOpen = nil
		if err := os.Remove(at); err != nil {
			t.Fatal(err)
		}
		link(t, secret, at)
	}
	defer func() { beforeOpen = nil }()
	b, _, err := d.ReadFile("theme.json", 1024)
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), at) {
		t.Fatalf("read through a symlink planted before the open: %q, %v; want ErrSymlink naming it", b, err)
	}
}
