package themeimport

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// referenceImports are the sample files of other programs' themes.
func referenceImports(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../theme/testdata/oracle/vscode/*.json", "../theme/testdata/import/*", "../theme/testdata/oracle/tinted/schemes/*/*.yaml",
		"../theme/testdata/oracle/iterm2-color-schemes/schemes/*"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d reference imports", len(files))
	}
	return files
}

// An import turns the source's loose colours into a palette the roles
// follow: one entry per distinct colour (far fewer than the roles the
// exports paint), every export exactly what it was without the palette,
// and editing an entry moves every role holding that colour.
func TestImportDerivesAPaletteTheRolesFollow(t *testing.T) {
	for _, f := range referenceImports(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		imp, err := Import(filepath.Base(f), data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		th := imp.Theme
		set, distinct := 0, map[theme.Color]bool{}
		for _, p := range theme.RolePaths() {
			if th.Has(p) {
				set++
				distinct[th.Color(p)] = true
				if th.Follows(p) == "" {
					t.Errorf("%s: %s follows no palette entry", f, p)
				}
			}
		}
		painted := map[theme.Color]bool{}
		for _, v := range th.Values() {
			c, _ := theme.ParseColor(v.Color)
			painted[c] = true
		}
		t.Logf("%-40s %-16s %2d entries for %2d roles set, %d roles painted in %3d colours", filepath.Base(f), imp.Format,
			len(th.Palette), set, len(theme.Catalogue()), len(painted))
		// One entry per distinct colour, and far fewer entries than roles:
		// at most 3 roles painted per entry, and at most 3 entries for 5
		// roles the file sets (One Dark Pro and Tokyo Night, whose VS Code
		// files set 98 and 106 roles in 56 colours, are the closest).
		if len(th.Palette) != len(distinct) || len(imp.Palette) != len(th.Palette) || len(th.Palette)*3 > len(theme.Catalogue()) && len(th.Palette)*5 > set*3 {
			t.Errorf("%s: %d entries for %d distinct colours (report %d)", f, len(th.Palette), len(distinct), len(imp.Palette))
		}
		// The document says so and reads back the same.
		doc, err := imp.Document()
		if err != nil {
			t.Fatal(err)
		}
		back, err := theme.Parse(doc)
		if err != nil || len(theme.Changed(th, back)) != 0 {
			t.Fatalf("%s: the imported document does not read back: %v %v", f, err, theme.Changed(th, back))
		}
		// Every export is the one of the same colours without a palette
		// (CSS adds the palette's own variables, and only those).
		plain := th.Clone()
		plain.Palette, plain.Refs = nil, nil
		for _, format := range targets.Formats {
			got, err := targets.Render(th, format.ID)
			if err != nil {
				t.Fatalf("%s %s: %v", f, format.ID, err)
			}
			want, _ := targets.Render(plain, format.ID)
			for name := range want {
				g, w := got[name], want[name]
				if format.ID == "css" {
					g = dropLines(g, "  --cdx-palette-")
				}
				if !bytes.Equal(g, w) {
					t.Errorf("%s: the %s export %s changed when the palette was derived", f, format.ID, name)
				}
			}
		}
		// Editing the most used chromatic entry moves every role that held
		// its colour.
		var name string
		for _, e := range imp.Palette {
			if !strings.HasPrefix(e.Name, "gray") && (name == "" || e.Users > entryUsers(imp.Palette, name)) {
				name = e.Name
			}
		}
		if name == "" {
			continue
		}
		old := th.Palette[name]
		var holders []string
		for _, p := range theme.RolePaths() {
			if th.Has(p) && th.Color(p) == old {
				holders = append(holders, p)
			}
		}
		moved, err := th.SetEntry(name, theme.Color{R: old.R ^ 0x55, G: old.G, B: old.B, A: old.A})
		if err != nil || strings.Join(moved, " ") != strings.Join(holders, " ") {
			t.Errorf("%s: editing %s moved %v, the roles holding it were %v (%v)", f, name, moved, holders, err)
		}
	}
}

func entryUsers(es []DerivedEntry, name string) int {
	for _, e := range es {
		if e.Name == name {
			return e.Users
		}
	}
	return 0
}

func dropLines(b []byte, prefix string) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte(prefix)) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// The entries are named after their hue family and lightness.
func TestImportedEntriesAreNamedByHueAndLightness(t *testing.T) {
	data, err := os.ReadFile("../theme/testdata/oracle/vscode/catppuccin-mocha.json")
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Import("catppuccin-mocha.json", data)
	if err != nil {
		t.Fatal(err)
	}
	th := imp.Theme
	names := th.PaletteNames()
	// Catppuccin Mocha's blue (#89b4fa), red (#f38ba8), green (#a6e3a1)
	// and base (#1e1e2e, a near-black grey).
	for ref, want := range map[string]string{"ansi.blue": "#89b4fa", "ansi.green": "#a6e3a1", "ui.background": "#1e1e2e"} {
		if got := th.Color(ref).String(); got != want {
			t.Fatalf("%s = %s", ref, got)
		}
	}
	if f := th.Follows("ansi.blue"); f != "blue" {
		t.Errorf("the blue is named %q (palette %v)", f, names)
	}
	if f := th.Follows("ansi.green"); f != "green" {
		t.Errorf("the green is named %q (palette %v)", f, names)
	}
	if f := th.Follows("ui.background"); !strings.HasPrefix(f, "gray-9") {
		t.Errorf("the background is named %q (palette %v)", f, names)
	}
	for _, h := range []struct {
		deg  float64
		name string
	}{{29, "red"}, {55, "orange"}, {100, "yellow"}, {150, "green"}, {215, "cyan"}, {260, "blue"}, {305, "purple"}, {355, "pink"}} {
		if got := hueName(h.deg); got != h.name {
			t.Errorf("hue %.0f named %s, want %s", h.deg, got, h.name)
		}
	}
}

// FamilyDistance's measurement: how many ANSI normal/bright pairs (one
// family each) and how many pairs of different ANSI hues lie within it in
// the reference imports. The figures in its comment come from this test;
// it fails when the threshold stops separating them.
func TestFamilyDistanceSeparatesHues(t *testing.T) {
	ab := func(x, y theme.Color) float64 {
		_, a1, b1 := theme.OKLab(x)
		_, a2, b2 := theme.OKLab(y)
		return 100 * math.Hypot(a1-a2, b1-b2)
	}
	var same, diff []float64
	for _, f := range referenceImports(t) {
		data, _ := os.ReadFile(f)
		imp, err := Import(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		a := imp.Theme.ANSI
		for i := 1; i <= 6; i++ {
			if a[i] != a[i+8] {
				same = append(same, ab(a[i], a[i+8]))
			}
			for j := i + 1; j <= 6; j++ {
				diff = append(diff, ab(a[i], a[j]), ab(a[i+8], a[j+8]))
			}
		}
	}
	within := func(v []float64) int {
		n := 0
		for _, x := range v {
			if x < FamilyDistance {
				n++
			}
		}
		return n
	}
	sort.Float64s(same)
	sort.Float64s(diff)
	t.Logf("within %.0f: %d of %d normal/bright pairs, %d of %d different-hue pairs", FamilyDistance, within(same), len(same), within(diff), len(diff))
	if within(same)*100 < 80*len(same) || within(diff)*100 > 3*len(diff) {
		t.Errorf("FamilyDistance %.1f joins %d/%d families and %d/%d different hues", FamilyDistance, within(same), len(same), within(diff), len(diff))
	}
}
