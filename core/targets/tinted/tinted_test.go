package tinted

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/base16"
	"cdxtheme/core/companion"
	"cdxtheme/core/theme"
)

func scheme(t *testing.T, name string) Scheme {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "schemes", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScheme(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Real template repositories' templates render, for their schemes, exactly
// the files tinted's own builder generated in those repositories.
func TestRendersWhatTintedsBuilderGenerated(t *testing.T) {
	schemes := []Scheme{scheme(t, "nord"), scheme(t, "nord-light"), scheme(t, "catppuccin-mocha")}
	for _, repo := range []string{"tinted-fzf", "tinted-terminal"} {
		t.Run(repo, func(t *testing.T) {
			dir := filepath.Join("testdata", repo)
			f, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Render(schemes)
			if err != nil {
				t.Fatal(err)
			}
			expected := filepath.Join(dir, "expected")
			n := 0
			err = filepath.WalkDir(expected, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(expected, p)
				want, _ := os.ReadFile(p)
				n++
				if g, ok := got[filepath.ToSlash(rel)]; !ok {
					t.Errorf("%s was not rendered (rendered: %v)", rel, Files(got))
				} else if string(g) != string(want) {
					t.Errorf("%s differs from tinted's:\n--- ours\n%s\n--- tinted's\n%s", rel, g, want)
				}
				return nil
			})
			if err != nil || n == 0 {
				t.Fatalf("no expected files: %v", err)
			}
		})
	}
}

// A theme renders in base16 and base24, for itself and its companion, and
// its slots are the scheme export's.
func TestRendersATheme(t *testing.T) {
	f, err := Load(filepath.Join("testdata", "tinted-fzf"))
	if err != nil {
		t.Fatal(err)
	}
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	files, err := f.RenderTheme(th)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sh/base16-harbour-night.sh", "sh/base24-harbour-night.sh", "fish/base16-harbour-night-light.fish", "bash/base16-harbour-night.config"} {
		if files[want] == nil {
			t.Errorf("no %s in %v", want, Files(files))
		}
	}
	bg := base16.Colors(th, "base16")["base01"].Hex()
	if !strings.Contains(string(files["sh/base16-harbour-night.sh"]), "bg+:"+bg) {
		t.Errorf("base01 is not the theme's %s:\n%s", bg, files["sh/base16-harbour-night.sh"])
	}
	if len(files) != 2*(4+3) { // per member: base16 legacy, sh, fish, ps1 + base24 sh, fish, ps1
		t.Errorf("%d files: %v", len(files), Files(files))
	}
}

func TestRefusesAFileNameLeavingTheFolder(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "templates", "config.yaml"), []byte("x:\n  filename: ../../{{scheme-slug}}.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "templates", "x.mustache"), []byte("{{base00-hex}}"), 0o644)
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Render([]Scheme{scheme(t, "nord")}); err == nil || !strings.Contains(err.Error(), "leaves the output folder") {
		t.Errorf("want a refusal, got %v", err)
	}
}

func TestTwoTemplatesWritingOneFileIsAnError(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "templates", "config.yaml"), []byte("a:\n  filename: out.txt\nb:\n  filename: out.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "templates", "a.mustache"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "templates", "b.mustache"), []byte("b"), 0o644)
	f, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Render([]Scheme{scheme(t, "nord")}); err == nil || !strings.Contains(err.Error(), "both write out.txt") {
		t.Errorf("want an error, got %v", err)
	}
}

func TestAFolderWithoutConfigSaysWhatItWants(t *testing.T) {
	_, err := Load(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "templates/config.yaml") {
		t.Errorf("got %v", err)
	}
}

// A folder is untrusted input: its templates are read up to a bound in
// all, not only one by one.
func TestAFolderOfTooManyBigTemplatesIsRefused(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "templates"), 0o755)
	var cfg strings.Builder
	big := strings.Repeat("{{base00-hex}} ", (maxTemplate-1)/15)
	for i := 0; i < 20; i++ {
		name := "t" + string(rune('a'+i))
		cfg.WriteString(name + ":\n  filename: " + name + ".txt\n")
		os.WriteFile(filepath.Join(dir, "templates", name+".mustache"), []byte(big), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "templates", "config.yaml"), []byte(cfg.String()), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "more than 16 MiB") {
		t.Errorf("got %v", err)
	}
}
