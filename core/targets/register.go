package targets

import (
	"fmt"
	"slices"

	"cdxtheme/core/theme"
)

// The targets added as data after the formats of the menu (a manifest
// without "replaces": Vim, Emacs, fzf, …) join the list here, once, at
// start-up (this package's init); the menu's formats keep their place at
// the head of the list.

// registerFormat adds an export format. render gets the family (the
// theme, then its companion) and returns file name → content. A second
// format with an existing id panics: it is a programming error.
func registerFormat(id, name string, files []string, render func(fam []*theme.Theme) (map[string][]byte, error)) {
	if slices.ContainsFunc(Formats, func(f Format) bool { return f.ID == id }) {
		panic("targets: format " + id + " registered twice")
	}
	Formats = append(Formats, Format{ID: id, Name: name, Files: files, render: render, external: true})
}

// FillFormat gives a format of Formats whose render is nil (one of the
// menu's: its place, its name and its files stay in the list, so the menu
// and Apply do not change) the renderer that writes it: a template here,
// or a package of core/packaging. Filling a format twice is an error.
func FillFormat(id string, render func(fam []*theme.Theme) (map[string][]byte, error)) (Format, error) {
	for i := range Formats {
		if Formats[i].ID == id {
			if Formats[i].render != nil {
				return Format{}, fmt.Errorf("format %q already has a renderer", id)
			}
			Formats[i].render = render
			return Formats[i], nil
		}
	}
	return Format{}, fmt.Errorf("no format %q to fill", id)
}

// External reports whether a target added after the menu's formats
// (registerFormat) writes the format, rather than the menu's list naming it.
func (f Format) External() bool { return f.external }
