package theme

import (
	"fmt"
	"slices"
)

// Formats and targets defined outside this package (core/targets: a
// template and a manifest each, data rather than code) join the lists here,
// once, at start-up (their package's init). The formats defined in this
// package keep their place at the head of the lists.

// RegisterFormat adds an export format rendered elsewhere. render gets the
// family (the theme, then its companion) and returns file name → content.
// A second format with an existing id panics: it is a programming error.
func RegisterFormat(id, name string, files []string, render func(fam []*Theme) (map[string][]byte, error)) {
	if slices.ContainsFunc(Formats, func(f Format) bool { return f.ID == id }) {
		panic("theme: format " + id + " registered twice")
	}
	Formats = append(Formats, Format{ID: id, Name: name, Files: files, render: render, external: true})
}

// Install is what an external target's planner decides: each file's
// absolute path and bytes (the theme's and its companion's), what the user
// still has to do, and the exact lines and commands that activate the
// theme.
type Install struct {
	Files map[string][]byte
	Note  string
	Steps []Step
}

// Planner works out an external target's install from the format's
// rendered files (as Render returns them) and the user's folders.
type Planner func(t *Theme, files map[string][]byte, p Paths) (Install, error)

var planners = map[string]Planner{}

// RegisterTarget adds an install target planned elsewhere. runs lists the
// systems (GOOS) the program exists on, nil for every one; where names them
// for messages.
func RegisterTarget(tg Target, runs []string, where string, plan Planner) {
	if slices.ContainsFunc(Targets, func(x Target) bool { return x.ID == tg.ID }) {
		panic("theme: target " + tg.ID + " registered twice")
	}
	tg.runs, tg.where, tg.external = runs, where, true
	Targets = append(Targets, tg)
	planners[tg.ID] = plan
}

// SchemeColors are the theme's base16 or base24 slots ("base00" … "base0F",
// and "base10" … "base17" for base24) as its scheme exports write them:
// flattened over the background, a kept imported slot where its role is
// unchanged.
func SchemeColors(t *Theme, system string) map[string]Color {
	if system != "base16" && system != "base24" {
		return nil
	}
	return schemeColors(t, system)
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
