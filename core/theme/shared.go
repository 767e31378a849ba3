package theme

import (
	"encoding/json"
	"strconv"
	"strings"
)

// What the packages beside the model (core/themeimport, core/apply,
// core/packaging) read from it: small helpers and the tables an import
// reads back what an export wrote with. Each is a thin exported face of
// the name the model uses inside, so both sides keep one table.

// ANSIPath is the role path of ANSI colour i (0–15).
func ANSIPath(i int) string { return ansiPath(i) }

// DimPath is the role path of the faint (SGR 2) form of ANSI colour i (0–7).
func DimPath(i int) string { return dimPath(i) }

// OneLine makes a theme name safe for a comment line.
func OneLine(s string) string { return oneLine(s) }

// SortedKeys lists a map's keys in order.
func SortedKeys[V any](m map[string]V) []string { return sortedKeys(m) }

// EncodeJSON is indented JSON with a trailing newline and without HTML
// escaping, as every JSON file the app writes.
func EncodeJSON(v any) ([]byte, error) { return marshalJSON(v) }

// JSONKind names a JSON value's type for messages.
func JSONKind(raw json.RawMessage) string { return kind(raw) }

// CompactJSON is raw without insignificant space.
func CompactJSON(raw json.RawMessage) json.RawMessage { return compactJSON(raw) }

// ToSRGB converts a colour given in one of ColorSpaces to sRGB.
func ToSRGB(space string, r, g, b, a float64) Color { return toSRGB(space, r, g, b, a) }

// RampLightness is the OKLCH lightness of a ramp's step (50 … 950).
func RampLightness(step int) float64 { return rampCurve(step) }

// SchemeSlotNames lists the slots of a scheme system (base16, base24).
func SchemeSlotNames(system string) []string { return schemeNames(system) }

// SlotRole is one baseNN slot and the role it carries.
type SlotRole struct{ Slot, Role string }

// SchemeSlots are the slots of a scheme system with the role each
// carries, and its ANSI colours 0–15 by slot.
func SchemeSlots(system string) (slots []SlotRole, ansi []string) {
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

// VSCodeANSI and ZedANSI are the colour names the VS Code and Zed
// terminals use for ANSI 0–7.
var (
	VSCodeANSI = append([]string(nil), vscodeANSI...)
	ZedANSI    = append([]string(nil), zedANSI...)
)

// VSCodeColorKey is a workbench colour key and the role the export paints
// it with: at Alpha (0 for opaque), or Clear (transparent).
type VSCodeColorKey struct {
	Key, Role string
	Alpha     float64
	Clear     bool
}

// VSCodeColorKeys is the export's table of workbench colour keys.
func VSCodeColorKeys() []VSCodeColorKey {
	out := make([]VSCodeColorKey, len(vscodeColorKeys))
	for i, k := range vscodeColorKeys {
		out[i] = VSCodeColorKey{Key: k.key, Role: k.role, Alpha: k.alpha, Clear: k.clear}
	}
	return out
}

// SyntaxScopes is a syntax role (without "syntax.") and the TextMate
// scopes the exports paint with it.
type SyntaxScopes struct {
	Role     string
	TextMate []string
}

// SyntaxTextMate is the table of syntax roles to TextMate scopes, in the
// order the exports write them.
func SyntaxTextMate() []SyntaxScopes {
	out := make([]SyntaxScopes, len(syntaxMap))
	for i, m := range syntaxMap {
		out[i] = SyntaxScopes{Role: m.role, TextMate: m.textmate}
	}
	return out
}

// joinKey appends an object key to a path, quoting keys with dots.
func joinKey(path, key string) string {
	if strings.ContainsAny(key, ".[]\" ") || key == "" {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// JoinKey appends an object key to a path, quoting keys with dots.
func JoinKey(path, key string) string { return joinKey(path, key) }

// ParseLooseColor reads the colour spellings theme files use: #rgb, #rgba,
// #rrggbb, #rrggbbaa, 0xrrggbb, and bare rrggbb.
func ParseLooseColor(s string) (Color, error) { return parseLooseColor(s) }

// Keys lists every key the overrides hold, by path: what an import keeps
// verbatim, and what it drops when the overrides are not wanted.
func (t *TargetOverrides) Keys() []string { return t.keys() }

// tomlQuote is a TOML basic string of s.
func tomlQuote(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a valid TOML basic string
	return string(b)
}

// TOMLQuote is a TOML basic string of s.
func TOMLQuote(s string) string { return tomlQuote(s) }

// OrDefault is s, or def when s is empty.
func OrDefault(s, def string) string { return orDefault(s, def) }

// RenderFormat renders a format for a family as it stands, without
// Render's wrapping: a package holding another format's files (the .vsix,
// the Zed extension) renders the family it was given.
func RenderFormat(id string, fam []*Theme) (map[string][]byte, error) { return renderFormat(id, fam) }
