package inside

import (
	"errors"
	"path/filepath"
	"testing"
)

// The agent's path is judged by its text alone, the same on every OS (this
// table also runs under GOOS=windows): network, device and drive-relative
// forms are refused whatever the workspace, an absolute path only counts
// when its text lies in the workspace.
func TestJudgeByText(t *testing.T) {
	const posix, win = "/home/u/ws", `C:\Users\u\ws`
	in := []struct{ root, p, want string }{
		{posix, "theme.json", "theme.json"},
		{posix, "sub/../theme.json", "theme.json"},
		{posix, "./sub/zed.json", "sub/zed.json"},
		{posix, "/home/u/ws/theme.json", "theme.json"},
		{posix, "/home/u/ws", "."},
		{posix, "/home/u/other/../ws/a", "a"},
		{win, `C:\Users\u\ws\theme.json`, "theme.json"},
		{win, `c:/users/U/WS/sub/zed.json`, "sub/zed.json"}, // Windows names ignore case
		{win, `sub\zed.json`, "sub/zed.json"},
		{win, `theme.json`, "theme.json"},
	}
	for _, tc := range in {
		if got, err := judge(tc.root, tc.p); err != nil || got != tc.want {
			t.Errorf("judge(%q, %q) = %q, %v; want %q", tc.root, tc.p, got, err, tc.want)
		}
	}
	out := map[string][]string{
		"UNC":                      {`\\evil.example\share\x`, `\\evil.example\share`},
		"UNC with forward slashes": {`//evil.example/share/x`, `/\evil.example\share`, `\/evil.example/share`},
		"Win32 device namespace":   {`\\.\pipe\x`, `\\.\C:\x`, `//./PhysicalDrive0`},
		"Win32 file namespace":     {`\\?\C:\Users\u\ws\theme.json`, `\\?\UNC\evil.example\share`, `//?/C:/x`},
		"NT object path":           {`\??\C:\Users\u\ws\theme.json`, `/??/C:/x`},
		"drive-relative":           {`C:theme.json`, `C:`, `c:..\x`, `D:ws\x`},
		"another drive":            {`D:\Users\u\ws\theme.json`},
		"absolute elsewhere":       {`C:\Windows\win.ini`, "/etc/passwd", `C:\Users\u\wsx\a`, "/home/u/wsx/a"},
		"rooted, no drive":         {`\Users\u\ws\theme.json`, "/Users/u/ws/theme.json"},
		"dot-dot out":              {"../x", `..\x`, "sub/../../x", `sub\..\..\x`, "/home/u/ws/../x"},
		"device names":             {"NUL", "nul.txt", "sub/CON", `COM1.json`, "lpt9", "CONIN$", "AUX .txt", "COM²"},
		"stream or drive inside":   {"theme.json:evil", `sub\x:$DATA`, "a/C:/b"},
		"trailing dot or space":    {"theme.json.", "theme.json ", ".. ", "... ", `sub\..\ .\x`},
		"control characters":       {"a\x01b", "a\nb"},
	}
	for _, root := range []string{posix, win} {
		for kind, ps := range out {
			for _, p := range ps {
				if got, err := judge(root, p); !errors.Is(err, ErrOutside) {
					t.Errorf("%s: judge(%q, %q) = %q, %v; want ErrOutside", kind, root, p, got, err)
				}
			}
		}
	}
	for _, p := range []string{"", "a\x00b"} {
		if got, err := judge(posix, p); err == nil {
			t.Errorf("judge(%q) = %q; want an error", p, got)
		}
	}
}

// Refused paths are refused before the file system is asked anything: with
// a workspace that does not exist, a lookup would fail on it first.
func TestResolveJudgesBeforeLooking(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "no-such-workspace")
	for _, p := range []string{`\\evil.example\share\x`, "//evil.example/share/x", `\\?\C:\x`, "file:////evil.example/share/x", "/net/evil.example/x", "C:x"} {
		if _, _, err := Resolve(gone, p); !errors.Is(err, ErrOutside) {
			t.Errorf("Resolve(%q) = %v; want ErrOutside from the text alone", p, err)
		}
	}
}
