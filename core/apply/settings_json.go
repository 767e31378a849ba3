package apply

// JSON with comments, as VS Code, Zed and Windows Terminal keep settings.

import (
	"bytes"
	"cdxtheme/core/install"
	"cdxtheme/core/quote"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// jsonc scans JSON that may hold // and /* */ comments and trailing
// commas, as VS Code's and Zed's settings do, keeping byte offsets so a
// change touches only the value's bytes.
type jsonc struct {
	b []byte
	i int
	// decode says strings are wanted decoded (keys looked up); a scan
	// that only checks the document skips that.
	decode bool
}

type jmember struct {
	key        string
	ks, vs, ve int
}

func (p *jsonc) errf(format string, a ...any) error {
	line := 1 + bytes.Count(p.b[:min(p.i, len(p.b))], []byte("\n"))
	return fmt.Errorf("is not valid JSON (line %d: %s)", line, fmt.Sprintf(format, a...))
}

func (p *jsonc) skip() error {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '/':
			for p.i < len(p.b) && p.b[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '*':
			j := bytes.Index(p.b[p.i+2:], []byte("*/"))
			if j < 0 {
				return p.errf("a comment is not closed")
			}
			p.i += j + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *jsonc) str() (string, error) {
	start, plain := p.i, true
	for p.i++; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '\\':
			p.i++
			plain = false
		case c == '"':
			p.i++
			switch {
			case !p.decode:
				return "", nil
			case plain: // most keys: no escapes to decode
				return string(p.b[start+1 : p.i-1]), nil
			}
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", p.errf("bad string: %v", err)
			}
			return s, nil
		case c < 0x20:
			return "", p.errf("a string holds a control character or runs past its line")
		}
	}
	return "", p.errf("a string is not closed")
}

// maxJSONDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxJSONDepth = 256

func (p *jsonc) value(depth int) error {
	if depth > maxJSONDepth {
		return p.errf("nested too deep")
	}
	if err := p.skip(); err != nil {
		return err
	}
	if p.i >= len(p.b) {
		return p.errf("it ends where a value should be")
	}
	switch c := p.b[p.i]; c {
	case '{':
		_, _, err := p.object(depth, false)
		return err
	case '[':
		p.i++
		for {
			if err := p.skip(); err != nil {
				return err
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				return nil
			}
			if err := p.value(depth + 1); err != nil {
				return err
			}
			if err := p.skip(); err != nil {
				return err
			}
			switch {
			case p.i < len(p.b) && p.b[p.i] == ',':
				p.i++
			case p.i < len(p.b) && p.b[p.i] == ']':
				p.i++
				return nil
			default:
				return p.errf("expected , or ] in a list")
			}
		}
	case '"':
		_, err := p.str()
		return err
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.", p.b[p.i]) >= 0 {
			p.i++
		}
		if p.i == start || !jsonLiteral(p.b[start:p.i]) {
			return p.errf("unexpected %q", p.b[start:max(p.i, start+1)])
		}
		return nil
	}
}

// object scans the object at p.i and returns where its closing brace is
// and, when collect, its members.
func (p *jsonc) object(depth int, collect bool) ([]jmember, int, error) {
	p.i++ // {
	var ms []jmember
	for {
		if err := p.skip(); err != nil {
			return nil, 0, err
		}
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return ms, p.i - 1, nil
		}
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, 0, p.errf("expected a quoted key or }")
		}
		ks := p.i
		dec := p.decode
		p.decode = collect
		key, err := p.str()
		p.decode = dec
		if err != nil {
			return nil, 0, err
		}
		if err := p.skip(); err != nil {
			return nil, 0, err
		}
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, 0, p.errf("expected : after %q", key)
		}
		p.i++
		if err := p.skip(); err != nil {
			return nil, 0, err
		}
		vs := p.i
		if err := p.value(depth + 1); err != nil {
			return nil, 0, err
		}
		if collect {
			ms = append(ms, jmember{key: key, ks: ks, vs: vs, ve: p.i})
		}
		if err := p.skip(); err != nil {
			return nil, 0, err
		}
		switch {
		case p.i < len(p.b) && p.b[p.i] == ',':
			p.i++
		case p.i < len(p.b) && p.b[p.i] == '}':
			p.i++
			return ms, p.i - 1, nil
		default:
			return nil, 0, p.errf("expected , or } after %q", key)
		}
	}
}

// jsonLiteral reports whether b is true, false, null or a JSON number
// (json.Valid does the same at many times the cost, per number).
func jsonLiteral(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// scanJSONC checks the whole document and returns where its top-level
// object starts; -1 for a document of nothing but white space.
func scanJSONC(b []byte) (int, error) {
	p := &jsonc{b: b}
	if bytes.HasPrefix(b, []byte("\uFEFF")) { // a byte order mark, as Windows editors write
		p.i = 3
	}
	if err := p.skip(); err != nil {
		return 0, err
	}
	if p.i == len(b) {
		if len(bytes.TrimSpace(b)) == 0 {
			return -1, nil
		}
		return 0, p.errf("it holds only comments")
	}
	if b[p.i] != '{' {
		return 0, p.errf("the settings are not an object")
	}
	root := p.i
	if err := p.value(0); err != nil {
		return 0, err
	}
	if err := p.skip(); err != nil {
		return 0, err
	}
	if p.i != len(b) {
		return 0, p.errf("there is text after the settings")
	}
	return root, nil
}

// editJSON sets s.Path to s.Value, changing only the old value's bytes, or
// inserting the member first in its object.
func editJSON(b []byte, s *install.Setting) (edited, error) {
	root, err := scanJSONC(b)
	if err != nil {
		return edited{}, err
	}
	if len(s.Path) == 0 {
		return edited{}, errors.New("names no setting")
	}
	last := s.Path[len(s.Path)-1]
	if root < 0 { // an empty file is an empty object to VS Code
		if len(s.Path) > 1 {
			return edited{}, fmt.Errorf("is empty, with no %q object", strings.Join(s.Path[:len(s.Path)-1], "."))
		}
		line := quote.JSON(last) + ": " + s.Value
		return edited{state: "add", new: line, data: []byte(withEOL("{\n    "+line+"\n}\n", eolOf(b)))}, nil
	}
	eol := eolOf(b)
	obj := root
	path := s.Path
	for k := 0; k < len(path); k++ {
		key := path[k]
		p := &jsonc{b: b, i: obj}
		ms, closing, err := p.object(0, true)
		if err != nil {
			return edited{}, err
		}
		at := -1
		for j, m := range ms {
			if m.key == key {
				at = j // the last one is the one that counts
			}
		}
		if at < 0 && k < len(path)-1 {
			return edited{}, fmt.Errorf("has no %q object to put the setting in", strings.Join(path[:k+1], "."))
		}
		if at < 0 {
			line := quote.JSON(key) + ": " + s.Value
			base := indentAt(b, obj)
			indent := base + "    "
			if len(ms) > 0 {
				if in, ok := ownLineIndent(b, ms[0].ks); ok {
					indent = in
				}
			}
			ins := eol + indent + line
			switch {
			case len(ms) > 0:
				ins += ","
			case !bytes.ContainsAny(b[obj+1:closing], "\n"):
				ins += eol + base
			}
			out := splice(b, obj+1, obj+1, ins)
			if err := checkJSON(out, s); err != nil {
				return edited{}, err
			}
			return edited{state: "add", new: line, data: out}, nil
		}
		m := ms[at]
		if k == len(path)-1 && b[m.vs] == '{' && s.Within != "" && k == len(s.Path)-1 {
			// A setting by mode (Zed's {"mode", "light", "dark"}):
			// the entry for the theme's appearance changes.
			path = append(slices.Clone(path), s.Within)
		}
		if k < len(path)-1 {
			if b[m.vs] != '{' {
				return edited{}, fmt.Errorf("has %q that is not an object", strings.Join(path[:k+1], "."))
			}
			obj = m.vs
			continue
		}
		old := string(b[m.ks:m.ve])
		if sameJSON(b[m.vs:m.ve], s.Value) {
			return edited{state: "set", old: old, new: old}, nil
		}
		out := splice(b, m.vs, m.ve, s.Value)
		if err := checkJSON(out, s); err != nil {
			return edited{}, err
		}
		return edited{state: "change", old: old, new: string(out[m.ks : m.vs+len(s.Value)]), data: out}, nil
	}
	return edited{}, errors.New("names no setting")
}

// checkJSON makes sure an edit left valid settings (it cannot fail unless
// the editor is wrong: then the file is left alone).
func checkJSON(b []byte, s *install.Setting) error {
	if _, err := scanJSONC(b); err != nil {
		return fmt.Errorf("could not be changed safely (%v)", err)
	}
	return nil
}

// sameJSON reports whether raw (maybe with comments inside) is the JSON
// value want.
func sameJSON(raw []byte, want string) bool {
	var a, b any
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && reflect.DeepEqual(a, b)
}

// indentAt is the white space that starts the line holding offset i.
func indentAt(b []byte, i int) string {
	ls := bytes.LastIndexByte(b[:i], '\n') + 1
	j := ls
	for j < i && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return string(b[ls:j])
}

// ownLineIndent is the indentation before offset i when only white space
// precedes it on its line.
func ownLineIndent(b []byte, i int) (string, bool) {
	ls := bytes.LastIndexByte(b[:i], '\n') + 1
	pre := b[ls:i]
	if len(bytes.Trim(pre, " \t")) != 0 || ls == 0 {
		return "", false
	}
	return string(pre), true
}
