package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"cdxtheme/core/fsread"
	"cdxtheme/core/theme"
)

// maxSetting bounds a settings file Plan reads to find a setting in; a
// larger one is left to the user (settings files are a few KiB).
const maxSetting = 1 << 20

// settingEdit is the file a line step's change would leave, for Apply to
// write when the user asks it to (InstallPlan.Change).
type settingEdit struct {
	step int
	file PlannedFile
}

// planSettings works out, for each line step, what its file holds now and
// what changing it would write: the step's State, Old, New, Reason and
// Edit. It writes nothing.
func planSettings(plan *InstallPlan) {
	editing := map[string]bool{}
	for i := range plan.Steps {
		st := &plan.Steps[i]
		if st.Kind != "line" {
			continue
		}
		data, was := planSetting(st)
		if !st.Edit {
			continue
		}
		if editing[st.File] {
			// Two changes to one file would each be planned on the bytes
			// of today: the second is left to the user.
			st.Edit, st.State, st.Reason = false, "manual", "another step changes this file; add this yourself after applying"
			continue
		}
		editing[st.File] = true
		plan.edits = append(plan.edits, settingEdit{step: i, file: PlannedFile{
			Path: st.File, Exists: was != "absent", data: data, was: was}})
	}
}

// planSetting fills st's State and returns the file as the change would
// leave it, and what is there now (fileState).
func planSetting(st *theme.Step) ([]byte, string) {
	manual := func(format string, a ...any) ([]byte, string) {
		st.State, st.Reason = "manual", fmt.Sprintf(format, a...)
		return nil, ""
	}
	s := st.Setting
	if st.File == "" || !filepath.IsAbs(st.File) || strings.Contains(st.File, "<") {
		// A relative path, or one naming a part the user picks
		// ("<your profile>.profile"), is no file Apply can find.
		return manual("the file depends on your setup; add the line yourself")
	}
	if s != nil {
		for _, path := range theme.SortedKeys(s.Blockers) {
			if exists(path) {
				return manual("%s", s.Blockers[path])
			}
		}
	}
	b, err := fsread.ReadFile(st.File, maxSetting, fsread.NoFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		switch {
		case s == nil:
			return manual("Apply does not write this file; create it with the line yourself")
		case s.NoCreate != "":
			return manual("%s", s.NoCreate)
		}
		st.State, st.New, st.Edit = "create", oneLine(addOf(s, st.Text)), true
		c := s.Create
		if c == "" {
			c = addOf(s, st.Text) + "\n"
		}
		return []byte(c), "absent"
	case errors.Is(err, fsread.ErrSymlink):
		return manual("%s is a symbolic link; Apply does not change the file it points to, so add the line there yourself", st.File)
	case errors.Is(err, fsread.ErrTooLarge):
		return manual("%s is larger than %s, more than a settings file holds; it was left alone", st.File, fsread.Size(maxSetting))
	case err != nil:
		return manual("%v; it was left alone", err)
	}
	if s == nil {
		if holdsLines(b, st.Text) {
			st.State = "set"
			return nil, ""
		}
		return manual("Apply does not change this file; add the line yourself")
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return manual("%s is not text; it was left alone", st.File)
	}
	var r edited
	switch s.Syntax {
	case "json":
		r, err = editJSON(b, s)
	case "toml":
		r, err = editTOML(b, s)
	case "lines":
		r, err = editLines(b, s, st.Text)
	default:
		err = fmt.Errorf("no editor for %q files", s.Syntax)
	}
	if err != nil {
		return manual("%s %v, so it was left alone; add the line yourself", filepath.Base(st.File), err)
	}
	st.State, st.Old, st.New = r.state, oneLine(r.old), oneLine(r.new)
	if r.state == "set" {
		return nil, ""
	}
	st.Edit = true
	return r.data, digest(b)
}

// addOf is the text that adds s to a file: s.Add, else the step's text.
func addOf(s *theme.Setting, text string) string {
	if s != nil && s.Add != "" {
		return s.Add
	}
	return text
}

// edited is what an editor found: state "set", "change" or "add", the
// setting as it is (old) and will be (new), and the file after.
type edited struct {
	state, old, new string
	data            []byte
}

// holdsLines reports whether b has each line of text, ignoring the
// indentation.
func holdsLines(b []byte, text string) bool {
	have := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(text, "\n") {
		if !have[strings.TrimSpace(l)] {
			return false
		}
	}
	return true
}

// oneLine is a setting shown on one line: runs of white space become one
// space, and a long one is cut.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

// eolOf is the file's line ending.
func eolOf(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func withEOL(s, eol string) string { return strings.ReplaceAll(s, "\n", eol) }

func splice(b []byte, from, to int, with string) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(with))
	out = append(out, b[:from]...)
	out = append(out, with...)
	return append(out, b[to:]...)
}

// ---- JSON with comments (VS Code, Zed, Windows Terminal) ----

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
func editJSON(b []byte, s *theme.Setting) (edited, error) {
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
		line := jsonQuote(last) + ": " + s.Value
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
			line := jsonQuote(key) + ": " + s.Value
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
func checkJSON(b []byte, s *theme.Setting) error {
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

// ---- TOML, a top-level key (Helix) ----

// editTOML sets the top-level key s.Path[0] (before any [table], where a
// key of the same name is another setting) to the string s.Value.
func editTOML(b []byte, s *theme.Setting) (edited, error) {
	var before map[string]any
	if err := toml.Unmarshal(b, &before); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	var want map[string]any
	if len(s.Path) != 1 || toml.Unmarshal([]byte("v = "+s.Value), &want) != nil {
		return edited{}, errors.New("names no setting")
	}
	key := s.Path[0]
	var p unstable.Parser
	p.Reset(b)
	found := false
	var kv, val unstable.Range
	var cur string
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable {
			break
		}
		if e.Kind != unstable.KeyValue {
			continue
		}
		it := e.Key()
		var parts []string
		for it.Next() {
			parts = append(parts, string(it.Node().Data))
		}
		if len(parts) != 1 || parts[0] != key {
			continue
		}
		v := e.Value()
		if v.Kind != unstable.String {
			return edited{}, fmt.Errorf("sets %s to a %s, not a name", key, strings.ToLower(v.Kind.String()))
		}
		found, kv, val, cur = true, e.Raw, v.Raw, string(v.Data)
	}
	if err := p.Error(); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	var out []byte
	r := edited{state: "add", new: addOf(s, key+" = "+s.Value)}
	if found {
		old := string(b[kv.Offset : kv.Offset+kv.Length])
		if cur == want["v"] {
			return edited{state: "set", old: old, new: old}, nil
		}
		out = splice(b, int(val.Offset), int(val.Offset+val.Length), s.Value)
		r = edited{state: "change", old: old, new: string(out[kv.Offset : int(val.Offset)+len(s.Value)])}
	} else {
		out = append([]byte(withEOL(r.new, eolOf(b))+eolOf(b)), b...)
	}
	// Exactly one setting changed, and the file still parses.
	var after map[string]any
	if err := toml.Unmarshal(out, &after); err != nil || after[key] != want["v"] {
		return edited{}, errors.New("could not be changed safely")
	}
	delete(after, key)
	delete(before, key)
	if !reflect.DeepEqual(before, after) {
		return edited{}, errors.New("could not be changed safely")
	}
	r.data = out
	return r, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// ---- one setting a line (ghostty, kitty, bat, gitconfig, …) ----

var sectionHeader = regexp.MustCompile(`^\s*\[\s*([^\]]*?)\s*\]\s*(?:[#;].*)?$`)

// editLines finds the setting's line by s.Match and replaces its "v"
// group with s.Value, or inserts s.Add where s.Insert says.
func editLines(b []byte, s *theme.Setting, text string) (edited, error) {
	if !s.TOML {
		return editLineSyntax(b, s, text)
	}
	var before map[string]any
	if err := toml.Unmarshal(b, &before); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	r, err := editLineSyntax(b, s, text)
	if err == nil && r.data != nil {
		var after map[string]any
		if toml.Unmarshal(r.data, &after) != nil {
			return edited{}, errors.New("could not be changed safely")
		}
	}
	return r, err
}

func editLineSyntax(b []byte, s *theme.Setting, text string) (edited, error) {
	re, err := regexp.Compile(s.Match)
	if err != nil {
		return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
	}
	vi := re.SubexpIndex("v")
	eol := eolOf(b)
	type hit struct{ start, vs, ve, end int }
	var hits []hit
	section, header, before := "", -1, -1
	var beforeRe, conflictRe *regexp.Regexp
	conflict := ""
	if s.Conflict != "" {
		if conflictRe, err = regexp.Compile(s.Conflict); err != nil {
			return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
		}
	}
	if s.Insert == "before" {
		if beforeRe, err = regexp.Compile(s.Before); err != nil {
			return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
		}
	}
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end, next = len(b)-start, len(b)
		}
		end += start
		line := strings.TrimSuffix(string(b[start:end]), "\r")
		if s.Sectioned {
			if m := sectionHeader.FindStringSubmatch(line); m != nil {
				section = m[1]
				if header < 0 && strings.EqualFold(section, s.Section) {
					header = next
				}
			}
		}
		if !s.Sectioned || strings.EqualFold(section, s.Section) {
			if loc := re.FindStringSubmatchIndex(line); loc != nil {
				vs, ve := loc[0], loc[1]
				if vi > 0 && loc[2*vi] >= 0 {
					vs, ve = loc[2*vi], loc[2*vi+1]
				}
				hits = append(hits, hit{start, start + vs, start + ve, start + len(line)})
			}
		}
		if conflictRe != nil && conflictRe.MatchString(line) && !re.MatchString(line) {
			conflict = line
		}
		if beforeRe != nil && beforeRe.MatchString(line) {
			before = start
		}
		start = next
	}
	if conflict != "" {
		return edited{}, errors.New(orDefault(s.ConflictWhy, "sets it in a way Apply does not change"))
	}
	if len(hits) > 1 && s.Multi == "one" {
		return edited{}, fmt.Errorf("sets it on %d lines", len(hits))
	}
	add := withEOL(addOf(s, text), eol)
	if len(hits) > 0 {
		h := hits[len(hits)-1]
		old := string(b[h.start:h.end])
		if unquote(string(b[h.vs:h.ve])) == unquote(s.Value) {
			return edited{state: "set", old: old, new: old}, nil
		}
		out := splice(b, h.vs, h.ve, s.Value)
		return edited{state: "change", old: old, new: string(out[h.start : h.end-(h.ve-h.vs)+len(s.Value)]), data: out}, nil
	}
	tail := func() []byte { // b, ending with a line end
		out := append([]byte(nil), b...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, eol...)
		}
		return out
	}
	var out []byte
	switch s.Insert {
	case "top":
		out = append([]byte(add+eol), b...)
	case "section":
		if header >= 0 {
			pre := b[:header]
			if len(pre) > 0 && pre[len(pre)-1] != '\n' {
				pre = append(append([]byte(nil), pre...), eol...)
			}
			out = append(append(append([]byte(nil), pre...), add+eol...), b[header:]...)
		} else {
			out = append(tail(), withEOL(s.Header, eol)+eol+add+eol...)
		}
	case "before":
		if before < 0 {
			return edited{}, errors.New(orDefault(s.BeforeWhy, "has no place Apply knows to put it"))
		}
		out = splice(b, before, before, add+eol)
	default:
		out = append(tail(), add+eol...)
	}
	return edited{state: "add", new: addOf(s, text), data: out}, nil
}

// unquote drops one pair of quotes around a value, so `--theme=x` and
// `--theme="x"` are the same setting.
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
