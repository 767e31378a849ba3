package targets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/theme"
)

// The formats moved from Go onto templates write the same bytes as the Go
// exporters they replaced, for every theme document of core/theme's
// tests and for names and descriptions made to break a line, a comment or
// an encoding.
func TestMovedFormatsWriteTheGoExportersBytes(t *testing.T) {
	var themes []*theme.Theme
	docs, _ := filepath.Glob("../theme/testdata/*.theme.json")
	for _, p := range docs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		themes = append(themes, th)
	}
	if len(themes) < 3 {
		t.Fatalf("%d theme documents", len(themes))
	}
	for _, name := range []string{hostileName, "Dusk\n[evil]\r\nx=1", "Dusk\u2028line\u0085", "bad \xff utf8", "  spaced   out  ", "", "   ", "1984"} {
		th := theme.Example()
		th.Name, th.Author, th.Description = name, name, name
		themes = append(themes, th)
		c := family(t)
		c.Author = ""
		themes = append(themes, c)
	}
	n := 0
	for _, mf := range Manifests() {
		if !mf.Replaces {
			continue
		}
		n++
		goRender := replaced[mf.ID]
		for _, th := range themes {
			want, err := goRender(th.Family())
			if err != nil {
				t.Fatal(err)
			}
			got, err := theme.Render(th, mf.ID) // what Export writes now
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d files, Go wrote %d", mf.ID, len(got), len(want))
			}
			for name, w := range want {
				if !bytes.Equal(got[name], w) {
					t.Errorf("%s %s for %q differs from the Go exporter's:\n--- template\n%s\n--- Go\n%s", mf.ID, name, th.Name, got[name], w)
				}
			}
		}
	}
	if n < 2 {
		t.Errorf("%d formats moved", n)
	}
}
