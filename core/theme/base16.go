package theme

import (
	"fmt"
	"strconv"
	"strings"
)

// base16 and base24 are tinted-theming's scheme systems
// (https://github.com/tinted-theming/home styling spec 0.11, base24
// styling.md 0.1): one palette of named slots that 70+ app templates turn
// into configs. A slot means an editor use (base0B strings, base0E
// keywords, …) and, in base24 and base16-shell, a terminal colour.
//
// Our theme has more roles than slots, so each slot carries exactly one
// role (schemeSlots) and the importer reads that role back from it; the
// other roles a slot stands for in the spec (variables also on base08,
// operators on base05) are read as well but are not carried by an export.

// schemeSlot is one baseNN and the role it carries.
type schemeSlot struct{ slot, role string }

// base16Slots: base00–base0F. base08 is the scheme's red (templates paint
// errors and deleted diffs with it), so it carries ui.error; base0C, the
// spec's support/escape cyan and base16-shell's cyan, carries ansi.cyan;
// base0F ("deprecated, dark red or brown") is derived from ui.error.
var base16Slots = []schemeSlot{
	{"base00", "ui.background"},
	{"base01", "ui.surface"},
	{"base02", "ui.selection"},
	{"base03", "syntax.comment"},
	{"base04", "ui.mutedText"},
	{"base05", "ui.text"},
	{"base06", "ansi.white"},
	{"base07", "ansi.brightWhite"},
	{"base08", "ui.error"},
	{"base09", "syntax.number"},
	{"base0A", "syntax.type"},
	{"base0B", "syntax.string"},
	{"base0C", "ansi.cyan"},
	{"base0D", "syntax.function"},
	{"base0E", "syntax.keyword"},
}

// base24Slots: base24 names ANSI colours explicitly (base12–base17 normal,
// base08–base0E bright), so base0C carries bright cyan there.
var base24Slots = append(append([]schemeSlot{}, replaceSlot(base16Slots, "base0C", "ansi.brightCyan")...),
	schemeSlot{"base12", "ansi.red"},
	schemeSlot{"base13", "ansi.yellow"},
	schemeSlot{"base14", "ansi.green"},
	schemeSlot{"base15", "ansi.cyan"},
	schemeSlot{"base16", "ansi.blue"},
	schemeSlot{"base17", "ansi.magenta"},
)

func replaceSlot(in []schemeSlot, slot, role string) []schemeSlot {
	out := append([]schemeSlot{}, in...)
	for i := range out {
		if out[i].slot == slot {
			out[i].role = role
		}
	}
	return out
}

// schemeNames are the slot names of a system in file order.
func schemeNames(system string) []string {
	n := 16
	if system == "base24" {
		n = 24
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("base%02X", i)
	}
	return out
}

// schemeColors computes every slot of a system from a theme, flattened
// (schemes have no alpha).
func schemeColors(t *Theme, system string) map[string]Color {
	slots := base16Slots
	if system == "base24" {
		slots = base24Slots
	}
	m := map[string]Color{}
	for _, s := range slots {
		m[s.slot] = t.seen(t.Color(s.role))
	}
	bg := t.seen(t.UI.Background)
	m["base0F"] = Mix(t.seen(t.UI.Error), bg, 0.35)
	if system == "base24" {
		// base10/base11: a darker and the darkest background (for a light
		// scheme "lighter than base00", so they move toward white).
		far := Color{A: 255}
		if !IsDark(bg) {
			far = Color{R: 255, G: 255, B: 255, A: 255}
		}
		m["base10"] = Mix(bg, far, 0.25)
		m["base11"] = Mix(bg, far, 0.5)
	}
	return m
}

func renderBase16(t *Theme) (map[string][]byte, error) { return renderScheme(t, "base16") }
func renderBase24(t *Theme) (map[string][]byte, error) { return renderScheme(t, "base24") }

// renderScheme writes a scheme file in the tinted-theming 0.11 layout
// (system, name, author, variant, palette), which every current builder
// reads; colours are quoted "#rrggbb".
func renderScheme(t *Theme, system string) (map[string][]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme (a tinted-theming %s scheme).\n", oneLine(t.Name), system)
	fmt.Fprintf(&b, "system: %q\n", system)
	fmt.Fprintf(&b, "name: %s\n", strconv.Quote(oneLine(t.Name)))
	fmt.Fprintf(&b, "author: %s\n", strconv.Quote(oneLine(orDefault(t.Author, "CDXTheme"))))
	if t.Description != "" {
		fmt.Fprintf(&b, "description: %s\n", strconv.Quote(oneLine(t.Description)))
	}
	fmt.Fprintf(&b, "slug: %q\n", Slug(t.Name))
	fmt.Fprintf(&b, "variant: %q\n", t.Appearance)
	b.WriteString("palette:\n")
	colors := schemeColors(t, system)
	for _, n := range schemeNames(system) {
		fmt.Fprintf(&b, "  %s: \"%s\"\n", n, colors[n].Hex())
	}
	return map[string][]byte{Slug(t.Name) + ".yaml": []byte(b.String())}, nil
}
