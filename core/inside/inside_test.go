//go:build unix

package inside

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// tree is a workspace beside a folder it must not reach:
//
//	base/outside.txt, base/elsewhere/secret
//	base/ws/theme.json, base/ws/sub/zed.json
//	base/ws/passwd-link → /etc/passwd        (absolute, out)
//	base/ws/secret-link → ../outside.txt     (relative, out)
//	base/ws/dir-link → base/elsewhere        (a folder, out)
//	base/ws/sub/inner → base/ws/theme.json   (absolute, in)
//	base/ws/sub/up → ../theme.json           (relative, in)
//	base/ws-link → base/ws                   (the workspace through a link)
func tree(t *testing.T) (base, ws string) {
	t.Helper()
	base, _ = filepath.EvalSymlinks(t.TempDir())
	ws = filepath.Join(base, "ws")
	must(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755))
	for _, f := range []string{"ws/theme.json", "ws/sub/zed.json", "outside.txt", "elsewhere/secret"} {
		must(t, os.WriteFile(filepath.Join(base, f), []byte(f), 0o644))
	}
	must(t, os.Symlink("/etc/passwd", filepath.Join(ws, "passwd-link")))
	must(t, os.Symlink("../outside.txt", filepath.Join(ws, "secret-link")))
	must(t, os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(ws, "dir-link")))
	must(t, os.Symlink(filepath.Join(ws, "theme.json"), filepath.Join(ws, "sub", "inner")))
	must(t, os.Symlink("../theme.json", filepath.Join(ws, "sub", "up")))
	must(t, os.Symlink(ws, filepath.Join(base, "ws-link")))
	return base, ws
}

func TestResolve(t *testing.T) {
	base, ws := tree(t)
	theme := filepath.Join(ws, "theme.json")
	inCases := map[string]string{
		"relative":                      "theme.json",
		"nested":                        "sub/zed.json",
		"dot-dot that stays":            "sub/../theme.json",
		"absolute":                      theme,
		"file uri":                      "file://" + theme,
		"file uri, localhost":           "file://localhost" + theme,
		"FILE uri in capitals":          "FILE://" + theme,
		"file uri, percent-encoded":     "file://" + ws + "/%74heme.json",
		"relative link pointing inside": "sub/up",
	}
	for name, p := range inCases {
		got, fi, err := Resolve(ws, p)
		if err != nil || got != theme && got != filepath.Join(ws, "sub", "zed.json") || fi == nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: Resolve(%q) = %q, %v, %v; want a file inside", name, p, got, fi, err)
		}
	}
	// The root given through a link: the same answers.
	if got, _, err := Resolve(filepath.Join(base, "ws-link"), "sub/up"); err != nil || got != theme {
		t.Errorf("root through a link: %q, %v", got, err)
	}
	if got, fi, err := Resolve(ws, "."); err != nil || got != ws || !fi.IsDir() {
		t.Errorf("the workspace itself: %q, %v", got, err)
	}

	outCases := map[string]string{
		"dot-dot":                   "../outside.txt",
		"dot-dot in the middle":     "sub/../../outside.txt",
		"dot-dot to a missing file": "../nothing-here",
		"absolute":                  "/etc/passwd",
		"absolute, missing":         "/etc/no-such-file",
		"absolute sibling":          filepath.Join(base, "outside.txt"),
		"file uri":                  "file:///etc/passwd",
		"file uri, encoded dot-dot": "file://" + ws + "/%2e%2e/outside.txt",
		"absolute link out":         "passwd-link",
		"relative link out":         "secret-link",
		"folder link out":           "dir-link/secret",
		// Judged by its text, before any link is followed.
		"absolute through another link to the ws": filepath.Join(base, "ws-link", "theme.json"),
		// os.Root follows no absolute link, wherever it points.
		"absolute link pointing inside": "sub/inner",
	}
	for name, p := range outCases {
		if got, _, err := Resolve(ws, p); !errors.Is(err, ErrOutside) {
			t.Errorf("%s: Resolve(%q) = %q, %v; want ErrOutside", name, p, got, err)
		}
	}

	refused := map[string]string{
		"missing":            "nope.json",
		"empty":              "",
		"remote file uri":    "file://evil.example/etc/passwd",
		"opaque file uri":    "file:theme.json",
		"nul in a file uri":  "file://" + ws + "/theme.json%00.png",
		"missing past a dir": "sub/zed.json/x",
		// Walked by name ("ws/theme.json" below the workspace), not out
		// through the link and back as the OS would.
		"folder link out, then back": "dir-link/../ws/theme.json",
	}
	for name, p := range refused {
		got, _, err := Resolve(ws, p)
		if err == nil {
			t.Errorf("%s: Resolve(%q) = %q; want an error", name, p, got)
		}
		if name == "missing" && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing: %v, want fs.ErrNotExist", err)
		}
	}
}

func TestWithinAndLocal(t *testing.T) {
	for p, want := range map[string]bool{
		"/ws": true, "/ws/a": true, "/ws/a/../b": true,
		"/ws/../x": false, "/wsx/a": false, "/": false, "/etc/passwd": false,
	} {
		if got := Within("/ws", p); got != want {
			t.Errorf("Within(/ws, %q) = %v, want %v", p, got, want)
		}
	}
	for name, want := range map[string]bool{
		"a": true, "a/b.json": true, ".cdxtheme/x": true, `a\b`: true, // a backslash is a name character here
		"": false, ".": false, "..": false, "../a": false, "a/../b": false, "a/..": false,
		"/a": false, "a//b": false, "a/": false, "./a": false, "a/./b": false,
	} {
		if got := Local(name); got != want {
			t.Errorf("Local(%q) = %v, want %v", name, got, want)
		}
	}
}
