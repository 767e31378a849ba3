package theme

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// plistNode is one node of an XML property list: kind is "dict",
// "array", "string", "real", "integer", "true", "false", "data" or
// "date"; line is where it starts.
type plistNode struct {
	kind  string
	text  string
	keys  []string // dict keys in order
	dict  map[string]*plistNode
	array []*plistNode
	line  int
}

// parsePlist reads an XML property list. Nesting is bounded, and
// encoding/xml expands no external entities.
func parsePlist(data []byte) (*plistNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	line := func() int { l, _ := dec.InputPos(); return l }
	var value func(start xml.StartElement, depth int) (*plistNode, error)
	value = func(start xml.StartElement, depth int) (*plistNode, error) {
		if depth > 32 {
			return nil, fmt.Errorf("line %d: nested too deeply", line())
		}
		v := &plistNode{kind: start.Name.Local, line: line()}
		switch v.kind {
		case "dict", "array":
			if v.kind == "dict" {
				v.dict = map[string]*plistNode{}
			}
			pendingKey, haveKey := "", false
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				switch el := tok.(type) {
				case xml.StartElement:
					if v.kind == "dict" && el.Name.Local == "key" {
						var k string
						if err := dec.DecodeElement(&k, &el); err != nil {
							return nil, err
						}
						pendingKey, haveKey = k, true
						continue
					}
					child, err := value(el, depth+1)
					if err != nil {
						return nil, err
					}
					if v.kind == "array" {
						v.array = append(v.array, child)
					} else if haveKey {
						if _, dup := v.dict[pendingKey]; !dup {
							v.keys = append(v.keys, pendingKey)
						}
						v.dict[pendingKey] = child
						haveKey = false
					} else {
						return nil, fmt.Errorf("line %d: a <%s> in a <dict> without a <key>", child.line, child.kind)
					}
				case xml.EndElement:
					return v, nil
				}
			}
		case "true", "false":
			return v, dec.Skip()
		default:
			var s string
			if err := dec.DecodeElement(&s, &start); err != nil {
				return nil, err
			}
			v.text = strings.TrimSpace(s)
			return v, nil
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no <plist> element")
		}
		if err != nil {
			return nil, err
		}
		if el, ok := tok.(xml.StartElement); ok {
			if el.Name.Local != "plist" {
				return nil, fmt.Errorf("line %d: want <plist>, got <%s>", line(), el.Name.Local)
			}
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				if inner, ok := tok.(xml.StartElement); ok {
					return value(inner, 0)
				}
				if _, ok := tok.(xml.EndElement); ok {
					return nil, errors.New("an empty <plist>")
				}
			}
		}
	}
}

func plistError(b *builder, data []byte, err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return b.errAt(se.Line, "", "invalid XML: %s", se.Msg)
	}
	msg := err.Error()
	if l, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(l, "line ") {
		n, _ := strconv.Atoi(strings.TrimPrefix(l, "line "))
		return b.errAt(n, "", "%s", rest)
	}
	return b.errAt(0, "", "invalid property list: %s", msg)
}

func importPlist(b *builder, data []byte) error {
	root, err := parsePlist(data)
	if err != nil {
		return plistError(b, data, err)
	}
	if root.kind != "dict" {
		return b.errAt(root.line, "", "want a <dict> at the top, got <%s>", root.kind)
	}
	if b.format == "tmtheme" || root.dict["settings"] != nil && root.dict["Background Color"] == nil {
		b.format = "tmtheme"
		return importTmTheme(b, root)
	}
	return importITerm(b, root)
}

// itermKeys: iTerm2 colour keys and the roles they give.
var itermKeys = []struct{ key, role string }{
	{"Background Color", "ui.background"},
	{"Foreground Color", "ui.text"},
	{"Selection Color", "ui.selection"},
	{"Cursor Color", "ui.accent"},
	{"Cursor Guide Color", "ui.surface"},
}

func importITerm(b *builder, root *plistNode) error {
	colour := func(key string) (Color, bool, error) {
		v := root.dict[key]
		if v == nil {
			return Color{}, false, nil
		}
		if v.kind != "dict" {
			return Color{}, false, b.errAt(v.line, key, "want a <dict> of colour components, got <%s>", v.kind)
		}
		comp := func(name string, def float64) (float64, error) {
			c := v.dict[name]
			if c == nil {
				if def >= 0 {
					return def, nil
				}
				return 0, b.errAt(v.line, key, "%q missing", name)
			}
			f, err := strconv.ParseFloat(c.text, 64)
			if (c.kind != "real" && c.kind != "integer") || err != nil || math.IsNaN(f) {
				return 0, b.errAt(c.line, key+"."+name, "%q is not a number", c.text)
			}
			return math.Min(1, math.Max(0, f)), nil
		}
		var ch [4]float64
		for i, n := range []string{"Red Component", "Green Component", "Blue Component", "Alpha Component"} {
			def := -1.0
			if i == 3 {
				def = 1
			}
			f, err := comp(n, def)
			if err != nil {
				return Color{}, false, err
			}
			ch[i] = f
		}
		if cs := v.dict["Color Space"]; cs != nil && cs.text == "P3" {
			b.warn("%s is in Display P3; its components were read as sRGB", key)
		}
		to8 := func(f float64) uint8 { return uint8(math.Round(f * 255)) }
		return Color{R: to8(ch[0]), G: to8(ch[1]), B: to8(ch[2]), A: to8(ch[3])}, true, nil
	}
	for _, k := range itermKeys {
		c, ok, err := colour(k.key)
		if err != nil {
			return err
		}
		if ok {
			b.put(k.role, k.key, c)
		}
	}
	for i := 0; i < 16; i++ {
		k := fmt.Sprintf("Ansi %d Color", i)
		c, ok, err := colour(k)
		if err != nil {
			return err
		}
		if ok {
			b.put(ansiPath(i), k, c)
		}
	}
	if len(b.mapped) == 0 {
		return b.errAt(root.line, "", "no iTerm2 colour keys (\"Background Color\", \"Ansi 0 Color\", …) in this property list")
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

func importTmTheme(b *builder, root *plistNode) error {
	if n := root.dict["name"]; n != nil && n.kind == "string" {
		b.t.Name = n.text
	}
	if a := root.dict["author"]; a != nil && a.kind == "string" {
		b.t.Author = oneLine(a.text)
	}
	settings := root.dict["settings"]
	if settings == nil || settings.kind != "array" {
		return b.errAt(root.line, "settings", "want an <array> of scope rules")
	}
	var rules []tmRule
	for i, item := range settings.array {
		if item.kind != "dict" {
			continue
		}
		s := item.dict["settings"]
		if s == nil || s.kind != "dict" {
			continue
		}
		key := fmt.Sprintf("settings[%d]", i)
		scope := item.dict["scope"]
		if scope == nil {
			for _, g := range tmThemeGlobals {
				v := s.dict[g.key]
				if v == nil {
					continue
				}
				c, err := parseLooseColor(v.text)
				if err != nil {
					return b.errAt(v.line, key+"."+g.key, "%v", err)
				}
				b.put(g.role, g.key, c)
			}
			continue
		}
		fg := s.dict["foreground"]
		if fg == nil {
			continue
		}
		if _, err := parseLooseColor(fg.text); err != nil {
			return b.errAt(fg.line, key+".foreground", "%v", err)
		}
		rules = append(rules, tmRule{index: i, selectors: splitSelectors(scope.text), fg: fg.text, key: key, line: fg.line})
	}
	applyScopeRules(b, rules, tmThemeTargets, "settings")
	return nil
}
