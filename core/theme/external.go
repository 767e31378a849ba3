package theme

import (
	"fmt"
	"slices"
)

// Formats defined outside this package (core/targets: a template and a
// manifest each, data rather than code) join the list here, once, at
// start-up (their package's init). The formats defined in this package
// keep their place at the head of the list.

// RegisterFormat adds an export format rendered elsewhere. render gets the
// family (the theme, then its companion) and returns file name → content.
// A second format with an existing id panics: it is a programming error.
func RegisterFormat(id, name string, files []string, render func(fam []*Theme) (map[string][]byte, error)) {
	if slices.ContainsFunc(Formats, func(f Format) bool { return f.ID == id }) {
		panic("theme: format " + id + " registered twice")
	}
	Formats = append(Formats, Format{ID: id, Name: name, Files: files, render: render, external: true})
}

// Seen is c as it appears on the theme's background: what a program that
// cannot draw alpha shows.
func (t *Theme) Seen(c Color) Color { return t.seen(c) }

// FillFormat gives a format of Formats whose render is nil (one moved
// from Go onto a template: its place in the menu, its name and its files
// stay here, so the menu and Apply do not change) the renderer that writes
// it. Filling a format twice, or one written here, is an error.
func FillFormat(id string, render func(fam []*Theme) (map[string][]byte, error)) (Format, error) {
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

// External reports whether another package registered the format
// (RegisterFormat) rather than this package's list naming it.
func (f Format) External() bool { return f.external }
