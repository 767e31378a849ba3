//go:build windows

package inside

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/winlink"
)

// winTree is a workspace on a drive beside a file it must not reach:
// base\outside.txt, base\ws\theme.json, base\ws\sub\zed.json.
func winTree(t *testing.T) (base, ws string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	if len(base) < 3 || base[1] != ':' {
		t.Fatalf("temp dir %q has no drive letter", base)
	}
	ws = filepath.Join(base, "ws")
	must(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	for _, f := range []string{`ws\theme.json`, `ws\sub\zed.json`, "outside.txt"} {
		must(t, os.WriteFile(filepath.Join(base, f), []byte(f), 0o644))
	}
	return base, ws
}

// The spellings of a path inside the workspace Windows takes: drive
// letters in either case, either separator, names in another case, the
// file:///C:/ URI the app writes (FileURI) and the one with the colon
// escaped. Each resolves to the file's real path.
func TestWindowsResolveInside(t *testing.T) {
	_, ws := winTree(t)
	theme := filepath.Join(ws, "theme.json")
	zed := filepath.Join(ws, "sub", "zed.json")
	lowerDrive := strings.ToLower(ws[:1]) + ws[1:]
	for p, want := range map[string]string{
		"theme.json":                        theme,
		`sub\zed.json`:                      zed,
		"sub/zed.json":                      zed,
		`sub\..\theme.json`:                 theme,
		theme:                               theme,
		filepath.ToSlash(theme):             theme,
		lowerDrive + `\theme.json`:          theme,
		strings.ToUpper(ws) + `\THEME.JSON`: theme,
		FileURI(theme):                      theme,
		FileURI(zed):                        zed,
		"file:///" + ws[:1] + "%3A/" + filepath.ToSlash(ws[3:]) + "/theme.json": theme,
	} {
		got, fi, err := Resolve(ws, p)
		if err != nil || fi == nil || !fi.Mode().IsRegular() || !strings.EqualFold(got, want) {
			t.Errorf("Resolve(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	if got, fi, err := Resolve(ws, FileURI(ws)); err != nil || !fi.IsDir() || !strings.EqualFold(got, ws) {
		t.Errorf("the workspace's own URI: %q, %v", got, err)
	}
	if !strings.HasPrefix(FileURI(theme), "file:///"+ws[:1]+":/") {
		t.Errorf("FileURI(%q) = %q; want file:///%s:/…", theme, FileURI(theme), ws[:1])
	}
}

// What would leave the workspace, reach the network or a device, or name
// a stream, is ErrOutside before anything is opened: a UNC path to the
// very file (\\localhost\C$\…), \\?\ and \\.\ forms, device names in the
// workspace, stream names, another drive, drive-relative paths.
func TestWindowsResolveRefusesOutside(t *testing.T) {
	base, ws := winTree(t)
	theme := filepath.Join(ws, "theme.json")
	other := "D"
	if strings.EqualFold(ws[:1], "D") {
		other = "E"
	}
	unc := `\\localhost\` + ws[:1] + `$` + theme[2:]
	for _, p := range []string{
		`..\outside.txt`,
		`sub\..\..\outside.txt`,
		filepath.Join(base, "outside.txt"),
		unc,
		filepath.ToSlash(unc),
		`\\?\` + theme,
		`\\?\UNC\localhost\` + ws[:1] + `$` + theme[2:],
		`\\.\` + theme,
		`\??\` + theme,
		"NUL", `sub\CON`, "nul.json", "COM1.txt", "CONOUT$",
		"theme.json:stream", "theme.json::$DATA", theme + ":secret",
		other + theme[1:],
		ws[:2] + "theme.json",
		`\` + theme[3:], // rooted on the current drive
		"theme.json.", "theme.json ",
		"file://localhost/" + filepath.ToSlash(unc),
		"file:" + filepath.ToSlash(theme),
	} {
		if got, _, err := Resolve(ws, p); !errors.Is(err, ErrOutside) && err == nil {
			t.Errorf("Resolve(%q) = %q; want refused", p, got)
		} else if err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Resolve(%q): %v; want refused by its text, not looked up", p, err)
		}
	}
}

// A workspace given by a UNC path or the \\?\ prefix (a build on a share,
// a long path) still resolves its own relative names.
func TestWindowsResolveInUNCAndPrefixedWorkspace(t *testing.T) {
	_, ws := winTree(t)
	for _, root := range []string{`\\localhost\` + ws[:1] + `$` + ws[2:], `\\?\` + ws} {
		got, fi, err := Resolve(root, `sub\zed.json`)
		if err != nil || fi == nil || !fi.Mode().IsRegular() || !strings.HasSuffix(strings.ToLower(got), `\ws\sub\zed.json`) {
			t.Errorf("Resolve(%q, sub\\zed.json) = %q, %v", root, got, err)
		}
		if _, _, err := Resolve(root, `..\outside.txt`); !errors.Is(err, ErrOutside) {
			t.Errorf("Resolve(%q, ..\\outside.txt): %v; want ErrOutside", root, err)
		}
	}
}

// Local is the name check fswrite relies on: on Windows a backslash, a
// drive, a stream or a device name is no local name.
func TestWindowsLocal(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "a/b.json": true, "export/vscode/x.json": true,
		`a\b`: false, "C:x": false, "c:/x": false, "x.json:s": false,
		"NUL": false, "nul.json": false, "sub/COM1": false, "aux": false,
	} {
		if got := Local(name); got != want {
			t.Errorf("Local(%q) = %v, want %v", name, got, want)
		}
	}
}

// os.Root refuses a symlink or junction that leads out of the workspace;
// one that stays inside is followed.
func TestWindowsResolveSymlinks(t *testing.T) {
	base, ws := winTree(t)
	out := filepath.Join(base, "outside.txt")
	winlink.SymlinkOrSkip(t, out, filepath.Join(ws, "secret-link"))
	if got, _, err := Resolve(ws, "secret-link"); !errors.Is(err, ErrOutside) {
		t.Errorf("a symlink out: %q, %v; want ErrOutside", got, err)
	}
	must(t, winlink.Symlink(`..\theme.json`, filepath.Join(ws, "sub", "up")))
	if got, _, err := Resolve(ws, `sub\up`); err != nil || !strings.EqualFold(got, filepath.Join(ws, "theme.json")) {
		t.Errorf("a relative symlink inside: %q, %v", got, err)
	}
}

func TestWindowsResolveJunctionOut(t *testing.T) {
	base, ws := winTree(t)
	elsewhere := filepath.Join(base, "elsewhere")
	must(t, os.Mkdir(elsewhere, 0o755))
	must(t, os.WriteFile(filepath.Join(elsewhere, "secret"), []byte("s"), 0o644))
	if err := winlink.Junction(filepath.Join(ws, "dir-link"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if got, _, err := Resolve(ws, `dir-link\secret`); !errors.Is(err, ErrOutside) {
		t.Errorf("through a junction out: %q, %v; want ErrOutside", got, err)
	}
}
