package theme

import (
	"fmt"
	"strings"
)

// A theme can carry its other appearance: theme.json's "companion" is a
// whole theme document (same fields, no companion of its own) of the
// opposite appearance and another name. The pair is one family: the
// formats that hold several themes (a VS Code extension, a Zed theme
// family, the .vsix and the Zed extension) carry both in one package; every
// other format writes the companion's files beside the theme's, under its
// own name; Apply installs both where a program keeps a folder of themes.
// The one file keeps one source of colour for both variants, and the
// checkpoints, the watcher and the agent's rules cover both as they are.

// Family is the theme and its companion, the theme first.
func (t *Theme) Family() []*Theme {
	if t.Companion == nil {
		return []*Theme{t}
	}
	return []*Theme{t, t.Companion}
}

// Opposite is the other appearance.
func Opposite(appearance string) string {
	if appearance == "light" {
		return "dark"
	}
	return "light"
}

// CompanionName swaps a trailing "Dark"/"Light" for the other word, or
// adds it: "Harbour Night" → "Harbour Night Light", "Dusk Dark" → "Dusk Light".
func CompanionName(name, appearance string) string {
	word := map[string]string{"light": "Light", "dark": "Dark"}
	other := word[Opposite(appearance)]
	if base, ok := strings.CutSuffix(name, " "+other); ok {
		return base + " " + word[appearance]
	}
	return name + " " + word[appearance]
}

// checkCompanion reports what makes c unfit as t's companion.
func checkCompanion(d *decoder, t, c *Theme) {
	if c.Appearance == t.Appearance {
		d.add("companion.appearance", "%q is the theme's own appearance; the companion is the other one (%q)", c.Appearance, Opposite(t.Appearance))
	}
	if Slug(c.Name) == Slug(t.Name) {
		d.add("companion.name", "%q names the theme itself; give the companion its own name (exports name their files after it)", c.Name)
	}
}

// renderEach renders a format that holds one theme for every member of a
// family: the companion's files beside the theme's, under its own name.
func renderEach(render func(*Theme) (map[string][]byte, error)) func([]*Theme) (map[string][]byte, error) {
	return func(fam []*Theme) (map[string][]byte, error) {
		out := map[string][]byte{}
		for _, t := range fam {
			files, err := render(t)
			if err != nil {
				return nil, err
			}
			for name, data := range files {
				if _, dup := out[name]; dup {
					return nil, fmt.Errorf("%s and %s both write %s: give them names that differ in letters or digits", fam[0].Name, t.Name, name)
				}
				out[name] = data
			}
		}
		return out, nil
	}
}
