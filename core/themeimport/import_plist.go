package themeimport

import (
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/plist"
	"cdxtheme/core/theme"
)

func plistError(b *builder, data []byte, err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return b.errAt(se.Line, "", "invalid XML: %s", se.Msg)
	}
	var le *plist.LineError
	if errors.As(err, &le) {
		return b.errAt(le.Line, "", "%s", le.Msg)
	}
	return b.errAt(0, "", "invalid property list: %s", err)
}

func importPlist(b *builder, data []byte) error {
	var root *plist.Node
	var err error
	if plist.IsBinary(data) {
		if root, err = plist.ParseBinary(data); err != nil {
			return b.errAt(0, "", "%v", err)
		}
	} else if root, err = plist.ParseXML(data); err != nil {
		return plistError(b, data, err)
	}
	if root.Kind != "dict" {
		return b.errAt(root.Line, "", "want a <dict> at the top, got <%s>", root.Kind)
	}
	if b.format == "tmtheme" || root.Dict["settings"] != nil && root.Dict["Background Color"] == nil {
		b.format = "tmtheme"
		return importTmTheme(b, root)
	}
	return importITerm(b, root)
}

// itermKeys: iTerm2 colour keys and the roles they give. The other colour
// keys of the file (Badge, Tab, Underline, Match Background, and every
// "(Dark)"/"(Light)" variant)
// have no role and are kept verbatim in targets.iterm2, which the iTerm2
// export writes back.
var itermKeys = []struct{ key, role string }{
	{"Background Color", "ui.background"},
	{"Foreground Color", "ui.text"},
	{"Selection Color", "ui.selection"},
	{"Cursor Color", "terminal.cursor"},
	{"Cursor Text Color", "terminal.cursorText"},
	{"Selected Text Color", "terminal.selectionText"},
	{"Bold Color", "terminal.bold"},
	{"Link Color", "terminal.link"},
	{"Cursor Guide Color", "ui.surface"},
}

// itermColour reads one colour dictionary of an .itermcolors file.
func itermColour(b *builder, key string, v *plist.Node) (theme.SourceColor, error) {
	if v.Kind != "dict" {
		return theme.SourceColor{}, b.errAt(v.Line, key, "want a <dict> of colour components, got <%s>", v.Kind)
	}
	comp := func(name string, def float64) (float64, error) {
		c := v.Dict[name]
		if c == nil {
			if def >= 0 {
				return def, nil
			}
			return 0, b.errAt(v.Line, key, "%q missing", name)
		}
		f, err := strconv.ParseFloat(c.Text, 64)
		if (c.Kind != "real" && c.Kind != "integer") || err != nil || math.IsNaN(f) {
			return 0, b.errAt(c.Line, key+"."+name, "%q is not a number", c.Text)
		}
		return math.Min(1, math.Max(0, f)), nil
	}
	ch := make([]float64, 4)
	for i, n := range []string{"Red Component", "Green Component", "Blue Component", "Alpha Component"} {
		def := -1.0
		if i == 3 {
			def = 1
		}
		f, err := comp(n, def)
		if err != nil {
			return theme.SourceColor{}, err
		}
		ch[i] = f
	}
	// iTerm2 (NSColor+iTerm.h): "Color Space" is optional and defaults to
	// calibrated.
	space := "Calibrated"
	if cs := v.Dict["Color Space"]; cs != nil {
		switch strings.TrimSpace(cs.Text) {
		case "sRGB":
			space = "sRGB"
		case "P3":
			space = "P3"
		case "Calibrated":
		default:
			return theme.SourceColor{}, b.errAt(cs.Line, key+".Color Space", "%q is not a colour space iTerm2 writes (sRGB, P3, Calibrated)", cs.Text)
		}
	}
	return theme.SourceColor{Space: space, Components: ch, SRGB: colour.ToSRGB(space, ch[0], ch[1], ch[2], ch[3])}, nil
}

func importITerm(b *builder, root *plist.Node) error {
	roles := map[string]string{}
	for _, k := range itermKeys {
		roles[k.key] = k.role
	}
	for i := 0; i < 16; i++ {
		roles[fmt.Sprintf("Ansi %d Color", i)] = theme.ANSIPath(i)
	}
	colours := map[string]theme.SourceColor{}
	for _, k := range root.Keys {
		v := root.Dict[k]
		if v.Kind != "dict" || v.Dict["Red Component"] == nil {
			if _, isRole := roles[k]; isRole {
				_, err := itermColour(b, k, v)
				return err
			}
			b.warn("%s is not a colour; not carried", k)
			continue
		}
		c, err := itermColour(b, k, v)
		if err != nil {
			return err
		}
		colours[k] = c
	}
	calibrated := 0
	use := func(role, key string, c theme.SourceColor) {
		if b.set[role] {
			return
		}
		b.put(role, key, c.SRGB)
		switch c.Space {
		case "P3":
			if b.t.Spaces == nil {
				b.t.Spaces = map[string]theme.SourceColor{}
			}
			b.t.Spaces[role] = c
			b.kept = append(b.kept, fmt.Sprintf("spaces.%s: %s in Display P3, converted to sRGB %s", role, key, c.SRGB.Hex()))
		case "Calibrated":
			if b.t.Spaces == nil {
				b.t.Spaces = map[string]theme.SourceColor{}
			}
			b.t.Spaces[role] = c
			calibrated++
		}
	}
	var keys []string
	for _, k := range itermKeys {
		keys = append(keys, k.key)
	}
	for i := 0; i < 16; i++ {
		keys = append(keys, fmt.Sprintf("Ansi %d Color", i))
	}
	for _, k := range keys {
		if c, ok := colours[k]; ok {
			use(roles[k], k, c)
		}
	}
	// A file with only the (Dark)/(Light) variants of a key (iTerm2 3.5's
	// "separate colors for light and dark mode") gives the role from the
	// dark variant, else the light one.
	for _, k := range keys {
		for _, variant := range []string{" (Dark)", " (Light)"} {
			if c, ok := colours[k+variant]; ok && !b.set[roles[k]] {
				use(roles[k], k+variant, c)
				b.warn("%s is missing; %s was used for %s", k, k+variant, roles[k])
			}
		}
	}
	if len(b.mapped) == 0 {
		return b.errAt(root.Line, "", "no iTerm2 colour keys (\"Background Color\", \"Ansi 0 Color\", …) in this property list")
	}
	if calibrated > 0 {
		b.warn("%d colours are Calibrated (generic RGB) or carry no \"Color Space\" (iTerm2 then means calibrated): their components were taken as sRGB, as iTerm2-Color-Schemes' generator does; the originals are kept in spaces and the iTerm2 export writes them back", calibrated)
	}
	// Every other colour key is kept verbatim for the iTerm2 export.
	used := map[string]bool{}
	for _, m := range b.mapped {
		used[m.From] = true
	}
	for _, k := range root.Keys {
		c, ok := colours[k]
		if !ok || used[k] {
			continue
		}
		if b.t.Targets == nil {
			b.t.Targets = &theme.TargetOverrides{}
		}
		if b.t.Targets.ITerm2 == nil {
			b.t.Targets.ITerm2 = map[string]theme.SourceColor{}
		}
		b.t.Targets.ITerm2[k] = c
	}
	if b.t.Targets != nil && len(b.t.Targets.ITerm2) > 0 {
		b.kept = append(b.kept, fmt.Sprintf("targets.iterm2: %d colour keys no role carries (%s), verbatim", len(b.t.Targets.ITerm2), strings.Join(slices.Sorted(maps.Keys(b.t.Targets.ITerm2)), ", ")))
	}
	return nil
}

// tmThemeGlobals: the global settings keys of a TextMate theme.
// A key may feed an optional role and, as a fallback, the core role it
// derives from by default (the first key that gives a role wins).
var tmThemeGlobals = []struct{ key, role string }{
	{"background", "ui.background"},
	{"foreground", "ui.text"},
	{"accent", "ui.accent"},
	{"caret", "terminal.cursor"},
	{"caret", "ui.accent"},
	{"selection", "ui.selection"},
	{"selectionForeground", "terminal.selectionText"},
	{"lineHighlight", "editor.lineHighlight"},
	{"lineHighlight", "ui.surface"},
	{"gutterForeground", "editor.lineNumber"},
	{"gutterForeground", "ui.mutedText"},
	{"invisibles", "editor.whitespace"},
	{"invisibles", "ui.border"},
	{"guide", "editor.indentGuide"},
	{"guide", "ui.border"},
}

// tmThemeTargets extend the syntax targets with the status roles TextMate
// themes paint through scopes.
var tmThemeTargets = append(append([]struct{ role, scope string }{}, vscodeTargets...),
	struct{ role, scope string }{"ui.error", "invalid.illegal"},
	struct{ role, scope string }{"ui.success", "markup.inserted.diff"},
	struct{ role, scope string }{"ui.warning", "markup.changed.diff"},
)

func importTmTheme(b *builder, root *plist.Node) error {
	if n := root.Dict["name"]; n != nil && n.Kind == "string" {
		b.t.Name = n.Text
	}
	if a := root.Dict["author"]; a != nil && a.Kind == "string" {
		b.t.Author = theme.OneLine(a.Text)
	}
	settings := root.Dict["settings"]
	if settings == nil || settings.Kind != "array" {
		return b.errAt(root.Line, "settings", "want an <array> of scope rules")
	}
	var rules []tmRule
	var globalsUnused []string
	for i, item := range settings.Array {
		if item.Kind != "dict" {
			continue
		}
		s := item.Dict["settings"]
		if s == nil || s.Kind != "dict" {
			continue
		}
		key := fmt.Sprintf("settings[%d]", i)
		scope := item.Dict["scope"]
		if scope == nil {
			known := map[string]bool{}
			for _, g := range tmThemeGlobals {
				known[g.key] = true
			}
			for _, k := range s.Keys {
				if !known[k] {
					globalsUnused = append(globalsUnused, key+".settings."+k)
				}
			}
			for _, g := range tmThemeGlobals {
				v := s.Dict[g.key]
				if v == nil {
					continue
				}
				c, err := colour.ParseLoose(v.Text)
				if err != nil {
					return b.errAt(v.Line, key+"."+g.key, "%v", err)
				}
				b.put(g.role, g.key, c)
			}
			continue
		}
		fg := s.Dict["foreground"]
		if fg == nil {
			continue
		}
		if _, err := colour.ParseLoose(fg.Text); err != nil {
			return b.errAt(fg.Line, key+".foreground", "%v", err)
		}
		r := newTMRule(i, scope.Text)
		r.fg, r.key, r.line = fg.Text, key, fg.Line
		rules = append(rules, r)
	}
	applyScopeRules(b, rules, tmThemeTargets, "settings")
	applyRoleRules(b, rules, "settings")
	// The rules no role was read from, and the global settings without a
	// role (gutter, find highlight, …).
	usedRule := map[int]bool{}
	for _, m := range b.mapped {
		var i int
		if _, err := fmt.Sscanf(m.From, "settings[%d]", &i); err == nil {
			usedRule[i] = true
		}
	}
	unused := globalsUnused
	for _, r := range rules {
		if !usedRule[r.index] {
			unused = append(unused, r.name("settings"))
		}
	}
	b.notCarried(unused)
	return nil
}
