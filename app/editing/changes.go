package editing

import (
	"fmt"
	"slices"
	"strings"

	"cdxtheme/core/theme"
)

// A Change is one hand edit of the theme (Edits.Edit): its undo label and
// what it does, returning the paths it changed (none: nothing to write).
type Change struct {
	Label string
	Apply func(t *theme.Theme) ([]string, error)
}

// SetColor writes one colour: a palette entry's path ("palette.blue")
// changes the entry and every role following it, as one step; a role's
// path gives the role its own colour (detaching it from the palette entry
// it followed).
func SetColor(path string, c theme.Color) Change {
	return Change{Label: fmt.Sprintf("Set %s to %s", path, c), Apply: func(t *theme.Theme) ([]string, error) {
		return theme.SetColor(t, path, c)
	}}
}

// entryPath is the path of the palette entry name ("companion." first for
// the companion's).
func entryPath(name string) string {
	if companion, rest := theme.Split(name); companion {
		return theme.CompanionPrefix + theme.PalettePrefix + rest
	}
	return theme.PalettePrefix + name
}

// SetEntry gives a palette entry a colour, adding the entry when the
// palette has none of that name; every role following it moves with it.
func SetEntry(name string, c theme.Color) Change {
	path := entryPath(name)
	return Change{Label: fmt.Sprintf("Set %s to %s", path, c), Apply: func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		name := strings.TrimPrefix(rest, theme.PalettePrefix)
		if _, ok := doc.Palette[name]; ok {
			return theme.SetColor(t, path, c)
		}
		moved, err := doc.SetEntry(name, c)
		if err != nil {
			return nil, err
		}
		return withPrefix(path, append([]string{rest}, moved...)), nil
	}}
}

// SetRamp makes a palette entry a ramp generated from its colour (roles
// may then follow "name.600"), or a plain colour again (ramp nil).
func SetRamp(name string, ramp *theme.Ramp) Change {
	path := entryPath(name)
	label := "Make " + path + " a ramp"
	if ramp == nil {
		label = "Make " + path + " a single colour"
	}
	return Change{Label: label, Apply: func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		name := strings.TrimPrefix(rest, theme.PalettePrefix)
		_, was := doc.Ramps[name]
		if ramp == nil && !was {
			return nil, nil
		}
		before := doc.EntryUsers(name)
		moved, err := doc.SetRamp(name, ramp)
		if err != nil {
			return nil, err
		}
		// The entry changed shape even when no role moved: the write is
		// the step, and the roles that stopped following it are named.
		changed := []string{rest}
		for _, p := range before {
			if doc.Follows(p) == "" || slices.Contains(moved, p) {
				changed = append(changed, p)
			}
		}
		return withPrefix(path, changed), nil
	}}
}

// Attach makes a role follow a palette entry ("blue") or ramp step
// ("blue.600"): its colour becomes the entry's and moves with it.
func Attach(path, ref string) Change {
	return Change{Label: fmt.Sprintf("Make %s follow %s", path, ref), Apply: func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		if doc.Follows(rest) == ref {
			return nil, nil
		}
		if err := doc.Attach(rest, ref); err != nil {
			return nil, err
		}
		return []string{path}, nil
	}}
}

// Detach makes a role hold its own colour (the one it has) instead of
// following the palette.
func Detach(path string) Change {
	return Change{Label: fmt.Sprintf("Give %s its own colour", path), Apply: func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		if !doc.Detach(rest) {
			return nil, nil
		}
		return []string{path}, nil
	}}
}

// withPrefix names paths of the document path addresses from the theme.
func withPrefix(path string, paths []string) []string {
	if companion, _ := theme.Split(path); companion {
		for i, p := range paths {
			paths[i] = theme.CompanionPrefix + p
		}
	}
	return paths
}
