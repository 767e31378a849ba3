package theme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// PalettePrefix starts the path of a palette entry ("palette.ink").
const PalettePrefix = "palette."

// CompanionPrefix starts the path of a colour of the theme's companion:
// "companion.ui.background", "companion.palette.ink" (theme.json's own
// JSON path of it).
const CompanionPrefix = "companion."

// Split says which document of the family a colour path addresses: the
// companion (rest is the path within it) or the theme itself (rest is
// path). It is the one place that decides; everything that takes a colour
// path (SetColor, MakePass, PairsAt, the hand-edit record) asks it.
func Split(path string) (companion bool, rest string) {
	rest, companion = strings.CutPrefix(path, CompanionPrefix)
	return companion, rest
}

// At is the document a colour path addresses and the path within it; the
// document is nil when the path names the companion of a theme without
// one.
func (t *Theme) At(path string) (*Theme, string) {
	companion, rest := Split(path)
	if companion {
		return t.Companion, rest
	}
	return t, rest
}

// prefixOf is what goes before a path within the document path addresses
// to name it from the theme: "companion." or "".
func prefixOf(path string) string {
	if companion, _ := Split(path); companion {
		return CompanionPrefix
	}
	return ""
}

// NoCompanion is the error of a companion path on a theme without one.
func NoCompanion(path string) error {
	return fmt.Errorf("%s: the theme has no companion (add the variant first)", path)
}

// Clone is a copy of t whose maps are its own, so a trial on it leaves t
// as it was (the arrays and structs are held by value).
func (t *Theme) Clone() *Theme {
	c := *t
	c.Palette = cloneMap(t.Palette)
	c.Ramps = cloneMap(t.Ramps)
	c.Refs = cloneMap(t.Refs)
	c.Roles = cloneMap(t.Roles)
	c.Styles = cloneMap(t.Styles)
	c.Rules = cloneMap(t.Rules)
	c.Spaces = cloneMap(t.Spaces)
	if t.Companion != nil {
		c.Companion = t.Companion.Clone()
	}
	return &c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// SetColor sets the colour at path: a role path ("ui.accent") or a palette
// entry ("palette.ink"). Changing a palette entry moves every role that
// follows it (or a step of its ramp) too (a role the document derives
// follows its rule by itself). It returns the paths changed, in document
// order (palette first). Setting a role gives it its own colour: a derived
// role is no longer derived, one following the palette is detached. A
// "companion." path sets the companion's colour, and the paths returned
// are the companion's, with the prefix.
func SetColor(t *Theme, path string, c Color) ([]string, error) {
	doc, rest := t.At(path)
	if doc == nil {
		return nil, NoCompanion(path)
	}
	if doc == t {
		return setColor(t, path, c)
	}
	changed, err := setColor(doc, rest, c)
	if err != nil {
		return nil, fmt.Errorf("%s%w", CompanionPrefix, err)
	}
	for i, p := range changed {
		changed[i] = CompanionPrefix + p
	}
	return changed, nil
}

func setColor(t *Theme, path string, c Color) ([]string, error) {
	if name, ok := strings.CutPrefix(path, PalettePrefix); ok {
		old, ok := t.Palette[name]
		if !ok {
			return nil, fmt.Errorf("%s: no such palette entry", path)
		}
		if old == c {
			return nil, nil
		}
		moved, err := t.SetEntry(name, c)
		if err != nil {
			return nil, err
		}
		return append([]string{path}, moved...), nil
	}
	if _, ok := RoleByPath(path); !ok {
		return nil, fmt.Errorf("%s: no such colour role", path)
	}
	if t.Has(path) && t.Color(path) == c && t.Follows(path) == "" {
		return nil, nil
	}
	t.Set(path, c)
	return []string{path}, nil
}

// PaletteUsers lists the role paths following the palette entry or a step
// of its ramp (derived roles follow their rules, not the entry).
func PaletteUsers(t *Theme, name string) []string {
	if _, ok := t.Palette[name]; !ok {
		return nil
	}
	return t.EntryUsers(name)
}

// Rewrite is t as theme.json text replacing the document old: the fields
// the Theme type holds, plus old's "$schema" line when it had one (the
// editor's hint, not part of the theme).
func Rewrite(old []byte, t *Theme) ([]byte, error) {
	out, err := EncodeJSON(t)
	if err != nil {
		return nil, err
	}
	var top struct {
		Schema *string `json:"$schema"`
	}
	if json.Unmarshal(bytes.TrimPrefix(old, []byte("\xef\xbb\xbf")), &top) == nil && top.Schema != nil {
		s, _ := json.Marshal(*top.Schema)
		out = append([]byte("{\n  \"$schema\": "+string(s)+","), out[1:]...)
	}
	return out, nil
}

// Rename gives the theme another name (one line); a companion named after
// the theme ("X" → "X Light") is renamed with it, so the pair stays one
// family. It reports whether anything changed; an empty name changes
// nothing.
func Rename(t *Theme, name string) bool {
	name = OneLine(name)
	if name == "" || name == t.Name {
		return false
	}
	if c := t.Companion; c != nil && c.Name == CompanionName(t.Name, c.Appearance) {
		c.Name = CompanionName(name, c.Appearance)
	}
	t.Name = name
	return true
}
