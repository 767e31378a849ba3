package targets

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// -update=tmux,foot writes those formats' golden files from the Go
// exporters, before they move.
var update = flag.String("update", "", "formats whose testdata/moved/golden to write from the Go exporter (comma-separated)")

// moved are the formats core/theme wrote in Go that are templates now. Their
// golden files were written by the Go exporters before each move (go test
// -update, then the Go code deleted), so a template that passes writes the
// Go exporter's bytes.
var moved = []string{"kitty", "ghostty", "tmux", "wezterm", "foot", "alacritty", "windows-terminal", "base16", "base24", "css", "helix", "iterm2", "tmtheme", "zed", "vscode", "neovim"}

// movedHostile are names, authors and descriptions made to break a line, a
// string, a comment or an encoding: quotes, backslashes, newlines, Lua's
// "]]", "</" that closes a <script>, bidi overrides, invalid UTF-8.
var movedHostile = []struct{ file, name, companion string }{
	{"hostile-quotes", "Dusk \"q\" 'a' <&> \\ $(x) ;# %s --]] */ -->end </style> \u202Eevil", "Dawn\n[evil]\r\nx=1\u2028line\u0085 \xff end"},
	{"hostile-blank", "   ", ""},
	{"hostile-number", "1984", "  spaced \t out  "},
}

// movedThemes are the documents in testdata/moved (the example, a light
// theme, a family with a companion, two VS Code themes, a base16 and a
// base24 scheme and a Display P3 iTerm2 scheme, each imported by the app)
// and the hostile ones, by golden folder name.
func movedThemes(t *testing.T) map[string]*theme.Theme {
	t.Helper()
	out := map[string]*theme.Theme{}
	docs, _ := filepath.Glob("testdata/moved/*.theme.json")
	for _, p := range docs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".theme.json")] = th
	}
	if len(out) < 8 {
		t.Fatalf("%d theme documents in testdata/moved", len(out))
	}
	for _, h := range movedHostile {
		th := out["family"].Clone()
		th.Name, th.Author, th.Description = h.name, h.name, h.name
		th.Companion.Name, th.Companion.Author, th.Companion.Description = h.companion, "", h.companion
		out[h.file] = th
	}
	return out
}

func TestMovedFormatsWriteTheGoExportersBytes(t *testing.T) {
	themes := movedThemes(t)
	names := make([]string, 0, len(themes))
	for n := range themes {
		names = append(names, n)
	}
	sort.Strings(names)
	ids := moved
	if *update != "" {
		ids = strings.Split(*update, ",")
	}
	for _, id := range ids {
		for _, n := range names {
			files, err := Render(themes[n], id)
			if err != nil {
				// The failure is part of the behaviour: the same message.
				files = map[string][]byte{"!error": []byte(err.Error())}
			}
			dir := filepath.Join("testdata", "moved", "golden", n, id)
			if *update != "" {
				os.RemoveAll(dir)
				for name, b := range files {
					p := filepath.Join(dir, filepath.FromSlash(name))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			var want []string
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					want = append(want, filepath.ToSlash(rel))
				}
				return nil
			})
			var got []string
			for name := range files {
				got = append(got, name)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s %s: files %v, the Go exporter wrote %v", id, n, got, want)
				continue
			}
			for _, name := range got {
				g, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if !bytes.Equal(files[name], g) {
					t.Errorf("%s %s/%s differs from the Go exporter's:\n%s", id, n, name, firstDiff(files[name], g))
				}
			}
		}
	}
}

// firstDiff shows the first line where got and want part.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n  template: %q\n  Go:       %q", i+1, a, b)
		}
	}
	return "(same lines)"
}
