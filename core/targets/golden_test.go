package targets

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the current exporters")

// sampleThemes are the documents every exporter is checked with: the dark
// example and a light theme with a translucent selection and a name that
// needs escaping.
func sampleThemes(t *testing.T) map[string]*theme.Theme {
	t.Helper()
	out := map[string]*theme.Theme{}
	for _, f := range []string{"example.theme.json", "light.theme.json"} {
		b, err := os.ReadFile(filepath.Join("..", "theme", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(f, ".theme.json")] = th
	}
	return out
}

func TestGolden(t *testing.T) {
	for sample, th := range sampleThemes(t) {
		for _, f := range Formats {
			if f.external {
				continue // core/targets checks its own
			}
			t.Run(sample+"/"+f.ID, func(t *testing.T) {
				files, err := Render(th, f.ID)
				if err != nil {
					t.Fatal(err)
				}
				// The files match the names the format advertises.
				var want []string
				for _, n := range f.Files {
					want = append(want, strings.ReplaceAll(n, "{slug}", theme.Slug(th.Name)))
				}
				sort.Strings(want)
				if got := slices.Sorted(maps.Keys(files)); !reflect.DeepEqual(got, want) {
					t.Errorf("files %v, Format.Files says %v", got, want)
				}
				dir := filepath.Join("testdata", "golden", sample, f.ID)
				if *updateGolden {
					os.RemoveAll(dir)
					for name, b := range files {
						p := filepath.Join(dir, filepath.FromSlash(name))
						os.MkdirAll(filepath.Dir(p), 0o755)
						if err := os.WriteFile(p, b, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					return
				}
				for name, b := range files {
					g, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
					if err != nil {
						t.Fatalf("%v (run go test -update-golden to create the golden files)", err)
					}
					if !bytes.Equal(b, g) {
						t.Errorf("%s differs from golden %s (go test -update-golden after checking the change):\n%s", name, dir, b)
					}
				}
				// Rendering is deterministic (maps are not allowed to leak order).
				again, _ := Render(th, f.ID)
				if !reflect.DeepEqual(files, again) {
					t.Error("two renders differ")
				}
			})
		}
	}
}

func TestExportWritesFiles(t *testing.T) {
	th := theme.Example()
	out := t.TempDir()
	paths, err := Export(th, "vscode", out, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(out, "package.json"),
		filepath.Join(out, "themes", "harbour-night-color-theme.json"),
	}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths = %v, want %v", paths, want)
	}
	files, _ := Render(th, "vscode")
	for i, name := range []string{"package.json", "themes/harbour-night-color-theme.json"} {
		b, err := os.ReadFile(paths[i])
		if err != nil || !bytes.Equal(b, files[name]) {
			t.Errorf("%s not written as rendered (%v)", paths[i], err)
		}
	}
	if _, err := Export(th, "no-such-format", out, ""); err == nil || !strings.Contains(err.Error(), "vscode, zed, alacritty") {
		t.Errorf("unknown format error = %v, want the list of formats", err)
	}
}

func BenchmarkRenderAllFormats(b *testing.B) {
	th := theme.Example()
	for b.Loop() {
		for _, f := range Formats {
			if _, err := Render(th, f.ID); err != nil {
				b.Fatal(err)
			}
		}
	}
}
