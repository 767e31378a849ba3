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
	Formats = append(Formats, Format{ID: id, Name: name, Files: files, render: render})
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
	tg.runs, tg.where = runs, where
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

// ReplaceFormat hands a format written in Go to a renderer defined
// elsewhere (a template) that writes the same bytes, and returns the Go
// renderer it replaced, which the proof of that sameness keeps calling.
func ReplaceFormat(id string, render func(fam []*Theme) (map[string][]byte, error)) (func(fam []*Theme) (map[string][]byte, error), error) {
	for i := range Formats {
		if Formats[i].ID == id {
			old := Formats[i].render
			Formats[i].render = render
			return old, nil
		}
	}
	return nil, fmt.Errorf("no format %q to replace", id)
}
