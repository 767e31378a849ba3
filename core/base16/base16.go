// Package base16 maps tinted-theming's base16 and base24 schemes onto
// the theme's roles. base16 and base24 are tinted-theming's scheme systems: one palette of
// named slots that app templates turn into configs. A slot means an editor
// use (base0B strings, base0E keywords, …) and a terminal colour.
//
// Specs followed: base16 styling.md of tinted-theming/home (commit
// 0c49e86, spec 0.11 layout) and base24 styling.md version 0.1.3
// (tinted-theming/base24 commit fb96d3c, "Match base16 ANSI and terminal
// values to ensure base24 is a superset"), which is what the official
// builder's current outputs (tinted-theming/tinted-terminal) follow.
//
// Our theme has more roles than slots, so each slot carries exactly one
// role (base16Slots) and the importer reads that role back from it; the
// other roles a slot stands for in the spec (variables also on base08,
// operators on base05) are read as well but are not carried by an export.
package base16

import (
	"cdxtheme/core/theme"
)

// schemeSlot is one baseNN and the role it carries.
type schemeSlot struct{ slot, role string }

// base16Slots: base00–base0F. base08 is the scheme's red (templates paint
// errors and deleted diffs with it), so it carries ui.error; base0C, the
// spec's support/escape cyan and ANSI 6, carries ansi.cyan; base07 is
// ANSI 15. base06 ("light foreground", ANSI 21) and base0F ("deprecated,
// dark red or brown", ANSI 17) carry no role: they are kept verbatim from
// an imported scheme, else derived.
var base16Slots = []schemeSlot{
	{"base00", "ui.background"},
	{"base01", "ui.surface"},
	{"base02", "ui.selection"},
	{"base03", "syntax.comment"},
	{"base04", "ui.mutedText"},
	{"base05", "ui.text"},
	{"base07", "ansi.brightWhite"},
	{"base08", "ui.error"},
	{"base09", "syntax.number"},
	{"base0A", "syntax.type"},
	{"base0B", "syntax.string"},
	{"base0C", "ansi.cyan"},
	{"base0D", "syntax.function"},
	{"base0E", "syntax.keyword"},
}

// base24Slots: base24 0.1.3 adds the bright ANSI colours 9–14 as base12–
// base17 (base10 and base11, darker backgrounds, carry no role).
var base24Slots = append(append([]schemeSlot{}, base16Slots...),
	schemeSlot{"base12", "ansi.brightRed"},
	schemeSlot{"base13", "ansi.brightYellow"},
	schemeSlot{"base14", "ansi.brightGreen"},
	schemeSlot{"base15", "ansi.brightCyan"},
	schemeSlot{"base16", "ansi.brightBlue"},
	schemeSlot{"base17", "ansi.brightMagenta"},
)

// base16ANSI is the spec's ANSI column (base16 styling.md: 0 = base00,
// 1–6 = base08, base0B, base0A, base0D, base0E, base0C, 7 = base05,
// 8 = base03, 9–14 as 1–6, 15 = base07).
var base16ANSI = []string{"base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05",
	"base03", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base07"}

// base24ANSI is base24 styling.md 0.1.3's ANSI column: base16's, with the
// bright colours 9–14 from base12, base14, base13, base16, base17, base15.
var base24ANSI = []string{"base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05",
	"base03", "base12", "base14", "base13", "base16", "base17", "base15", "base07"}

// base24Fallback is base24 0.1.3's base16 stand-in for each base24 slot.
var base24Fallback = map[string]string{
	"base10": "base00", "base11": "base00", "base12": "base08", "base13": "base0A",
	"base14": "base0B", "base15": "base0C", "base16": "base0D", "base17": "base0E",
}

// schemeColors computes every slot of a system from a theme, flattened
// (schemes have no alpha). A slot of the scheme the theme carries is kept
// verbatim unless it carries a role whose colour now differs (the
// designer changed it); a base16 scheme exported as base24 fills base10–
// base17 with base24's fallbacks; the rest is derived.
func schemeColors(t *theme.Theme, system string) map[string]theme.Color {
	slots := base16Slots
	if system == "base24" {
		slots = base24Slots
	}
	m := map[string]theme.Color{}
	if t.Scheme != nil {
		for _, n := range theme.SchemeSlotNames(system) {
			if c, ok := t.Scheme.Slots[n]; ok {
				m[n] = c
			} else if c, ok := t.Scheme.Slots[base24Fallback[n]]; ok {
				m[n] = c
			}
		}
	}
	for _, s := range slots {
		// Equal to the kept slot unless the designer changed the role.
		m[s.slot] = t.Seen(t.Color(s.role))
	}
	bg := t.Seen(t.UI.Background)
	if _, ok := m["base06"]; !ok {
		m["base06"] = theme.Mix(t.Seen(t.UI.Text), t.Seen(t.ANSI[15]), 0.5)
	}
	if _, ok := m["base0F"]; !ok {
		m["base0F"] = theme.Mix(t.Seen(t.UI.Error), bg, 0.35)
	}
	if system == "base24" {
		// base10/base11: a darker and the darkest background (for a light
		// scheme "lighter than base00", so they move toward white).
		far := theme.Color{A: 255}
		if !theme.IsDark(bg) {
			far = theme.Color{R: 255, G: 255, B: 255, A: 255}
		}
		if _, ok := m["base10"]; !ok {
			m["base10"] = theme.Mix(bg, far, 0.25)
		}
		if _, ok := m["base11"]; !ok {
			m["base11"] = theme.Mix(bg, far, 0.5)
		}
	}
	return m
}

// SlotRole is one baseNN slot and the role it carries.
type SlotRole struct{ Slot, Role string }

// Slots are the slots of a scheme system with the role each
// carries, and its ANSI colours 0–15 by slot.
func Slots(system string) (slots []SlotRole, ansi []string) {
	table, ansi := base16Slots, base16ANSI
	if system == "base24" {
		table, ansi = base24Slots, base24ANSI
	}
	for _, s := range table {
		slots = append(slots, SlotRole{s.slot, s.role})
	}
	return slots, append([]string(nil), ansi...)
}

// Base24Fallback is base24's base16 stand-in for a base24 slot.
func Base24Fallback(slot string) (string, bool) {
	fb, ok := base24Fallback[slot]
	return fb, ok
}

// Colors are the theme's base16 or base24 slots ("base00" … "base0F",
// and "base10" … "base17" for base24) as its scheme exports write them:
// flattened over the background, a kept imported slot where its role is
// unchanged.
func Colors(t *theme.Theme, system string) map[string]theme.Color {
	if system != "base16" && system != "base24" {
		return nil
	}
	return schemeColors(t, system)
}
