// Package theme holds the CDXTheme theme document (theme.json): parsing with
// validation that reports every problem by JSON path, WCAG contrast checks,
// a watcher for live preview, exporters to editor and terminal formats, and
// installation into those programs' user folders.
package theme

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// FileName is the theme document's name at the workspace root.
const FileName = "theme.json"

// MaxFileSize bounds theme.json: a real theme is a few KiB; a larger file
// (or /dev/zero behind a link) is refused, never read to the end.
const MaxFileSize = 1 << 20

// Version is the theme.json version this package writes. Version 3 made
// the palette the source: a role's value that does not start with # names
// a palette entry (palette.go). Version 1 documents (no "version" field:
// ui, syntax and ansi only) and version 2 documents (roles hold hex values,
// the palette is informational) still load, their roles following the
// palette entry of their exact colour, and are written back as version 3
// (see MarshalJSON), every colour the same.
const Version = 3

// Role names of the required groups, in document order; the catalogue
// (Catalogue) holds every role. The committed JSON Schema
// (schema/theme.schema.json) is generated from the catalogue; a test
// keeps it in step.
var (
	UIRoles     = []string{"background", "surface", "text", "mutedText", "accent", "border", "selection", "error", "warning", "success"}
	SyntaxRoles = []string{"keyword", "string", "comment", "function", "type", "number", "constant", "variable", "operator"}
	ANSINames   = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
		"brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta", "brightCyan", "brightWhite"}
	Appearances = []string{"dark", "light"}
	// Required are the top-level fields a theme must have.
	Required = []string{"name", "appearance", "ui", "syntax", "ansi"}
	// OptionalGroups are the objects of optional roles.
	OptionalGroups = []string{"editor", "diff", "diagnostic", "terminal"}
	// Optional are the optional top-level fields; anything else is
	// reported as unknown.
	Optional = []string{"$schema", "version", "description", "author", "palette", "editor", "diff", "diagnostic", "terminal", "derive", "scheme", "spaces", "targets", "companion"}
)

// Theme is a parsed, valid theme document. It marshals to a version 3
// document (MarshalJSON).
type Theme struct {
	Name        string `json:"name"`
	Appearance  string `json:"appearance"`
	Author      string `json:"author,omitempty"`
	Description string `json:"description,omitempty"`
	// Palette is each palette entry's colour (a ramp's base); Ramps the
	// entries that are ramps (palette.go).
	Palette map[string]Color `json:"palette,omitempty"`
	Ramps   map[string]Ramp  `json:"-"`
	// Refs maps a role path to the palette reference it follows ("blue",
	// "blue.600"); the role's colour field holds the reference resolved.
	// Change it only through Attach, Detach, Set and SetEntry.
	Refs   map[string]string `json:"-"`
	UI     UI                `json:"ui"`
	Syntax Syntax            `json:"syntax"`
	ANSI   [16]Color         `json:"ansi"`
	// Roles are the optional roles the document sets itself, by path
	// ("editor.lineHighlight", "syntax.tag"); the others are derived
	// (Color).
	Roles map[string]Color `json:"-"`
	// Styles are the font styles the document sets, by syntax role path;
	// "" is plain text on purpose (no default italic).
	Styles map[string]FontStyle `json:"-"`
	// Rules are the document's own derivation rules ("derive"), by
	// optional role path; they replace the catalogue's defaults.
	Rules map[string]Rule `json:"-"`
	// Read is the version the document was read as (1, 2 or 3; 0 when
	// built in code).
	Read int `json:"-"`
	// Scheme, Spaces and Targets keep what an import read verbatim
	// (scheme.go, colorspace.go, targets.go).
	Scheme  *Scheme                `json:"scheme,omitempty"`
	Spaces  map[string]SourceColor `json:"spaces,omitempty"`
	Targets *TargetOverrides       `json:"targets,omitempty"`
	// Companion is the theme's other appearance (family.go), nil when it
	// has none.
	Companion *Theme `json:"-"`
}

// UI holds the interface colours.
type UI struct {
	Background Color `json:"background"`
	Surface    Color `json:"surface"`
	Text       Color `json:"text"`
	MutedText  Color `json:"mutedText"`
	Accent     Color `json:"accent"`
	Border     Color `json:"border"`
	Selection  Color `json:"selection"`
	Error      Color `json:"error"`
	Warning    Color `json:"warning"`
	Success    Color `json:"success"`
}

// Syntax holds the code highlighting colours.
type Syntax struct {
	Keyword  Color `json:"keyword"`
	String   Color `json:"string"`
	Comment  Color `json:"comment"`
	Function Color `json:"function"`
	Type     Color `json:"type"`
	Number   Color `json:"number"`
	Constant Color `json:"constant"`
	Variable Color `json:"variable"`
	Operator Color `json:"operator"`
}

// Role returns a pointer to the UI colour named role, nil if unknown.
func (u *UI) Role(role string) *Color {
	switch role {
	case "background":
		return &u.Background
	case "surface":
		return &u.Surface
	case "text":
		return &u.Text
	case "mutedText":
		return &u.MutedText
	case "accent":
		return &u.Accent
	case "border":
		return &u.Border
	case "selection":
		return &u.Selection
	case "error":
		return &u.Error
	case "warning":
		return &u.Warning
	case "success":
		return &u.Success
	}
	return nil
}

// Role returns a pointer to the syntax colour named role, nil if unknown.
func (s *Syntax) Role(role string) *Color {
	switch role {
	case "keyword":
		return &s.Keyword
	case "string":
		return &s.String
	case "comment":
		return &s.Comment
	case "function":
		return &s.Function
	case "type":
		return &s.Type
	case "number":
		return &s.Number
	case "constant":
		return &s.Constant
	case "variable":
		return &s.Variable
	case "operator":
		return &s.Operator
	}
	return nil
}

// Problem is one thing wrong with a theme document, at a JSON path such as
// "ui.background" or "ansi[3]".
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// ValidationError lists every problem found in a document.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Validate returns every problem in a theme document; none means Parse
// succeeds.
func Validate(data []byte) []Problem {
	_, probs := decode(data)
	return probs
}

// Parse reads and validates a theme document. An invalid document gives a
// *ValidationError naming every problem.
func Parse(data []byte) (*Theme, error) {
	t, probs := decode(data)
	if len(probs) > 0 {
		return nil, &ValidationError{Problems: probs}
	}
	return t, nil
}

//go:embed testdata/example.theme.json
var exampleJSON []byte

// ExampleJSON is a complete, AA-passing dark theme document, for an empty
// preview and as the sample shown to the agent.
func ExampleJSON() []byte { return bytes.Clone(exampleJSON) }

// Example is ExampleJSON parsed.
func Example() *Theme {
	t, err := Parse(exampleJSON)
	if err != nil {
		panic("theme: embedded example is invalid: " + err.Error())
	}
	return t
}

type decoder struct {
	probs    []Problem
	more     int // problems past the limits, counted and not listed
	unknowns int // unknown fields listed so far
}

// maxProblems bounds what one document makes the decoder list, and the
// "did you mean" search it runs for each unknown key: a theme.json with
// 80,000 unknown keys took a second of Home's listing (issue #36).
// Unknown fields have a smaller share, so that a flood of them cannot hide
// the problems that matter (a required role missing).
const (
	maxProblems = 100
	maxUnknown  = 20
)

func (d *decoder) add(path, format string, args ...any) {
	if len(d.probs) >= maxProblems {
		d.more++
		return
	}
	d.probs = append(d.probs, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// done lists the problems, the count of those left out last.
func (d *decoder) done() []Problem {
	if d.more > 0 {
		d.probs = append(d.probs, Problem{Message: fmt.Sprintf("… and %d more problems", d.more)})
		d.more = 0
	}
	return d.probs
}

func decode(data []byte) (*Theme, []Problem) {
	var d decoder
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 BOM, as some Windows editors write
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		d.add("", "%s", jsonError(data, err))
		return nil, d.probs
	}
	if top == nil {
		d.add("", "want a JSON object, got null")
		return nil, d.probs
	}
	t := &Theme{}
	for _, k := range Required {
		if _, ok := top[k]; !ok {
			d.add(k, "required")
		}
	}
	d.unknown("", top, append(append([]string{}, Required...), Optional...))

	if raw, ok := top["name"]; ok {
		t.Name = d.str("name", raw)
		if strings.TrimSpace(t.Name) == "" && !d.failedAt("name") {
			d.add("name", "must not be empty")
		}
	}
	if raw, ok := top["appearance"]; ok {
		t.Appearance = d.str("appearance", raw)
		if !d.failedAt("appearance") && !contains(Appearances, t.Appearance) {
			d.add("appearance", "%q is not one of %s", t.Appearance, quoteList(Appearances))
		}
	}
	if raw, ok := top["author"]; ok {
		t.Author = d.str("author", raw)
	}
	if raw, ok := top["description"]; ok {
		t.Description = d.str("description", raw)
	}
	if raw, ok := top["$schema"]; ok {
		d.str("$schema", raw)
	}
	if raw, ok := top["palette"]; ok {
		d.palette(t, raw)
	}
	t.Read = 1
	if raw, ok := top["version"]; ok {
		var v int
		if err := json.Unmarshal(raw, &v); err != nil || v < 1 || v > Version {
			if err == nil && v > Version {
				d.add("version", "version %d was written by a newer CDXTheme (this one reads 1 to %d)", v, Version)
			} else {
				d.add("version", "want 1, 2 or 3, got %s", bytes.TrimSpace(raw))
			}
		}
		t.Read = v
	}
	if raw, ok := top["ui"]; ok {
		d.roles(t, "ui", raw, UIRoles, func(r string) *Color { return t.UI.Role(r) })
	}
	for _, g := range OptionalGroups {
		if raw, ok := top[g]; ok {
			d.optionalRoles(t, g, raw)
		}
	}
	if raw, ok := top["syntax"]; ok {
		d.syntax(t, raw)
	}
	if raw, ok := top["ansi"]; ok {
		var arr []json.RawMessage
		if err := json.Unmarshal(raw, &arr); err != nil || arr == nil {
			d.add("ansi", "want an array of 16 colours, got %s", JSONKind(raw))
		} else {
			if len(arr) != 16 {
				d.add("ansi", "want 16 colours, got %d", len(arr))
			}
			for i, el := range arr {
				if i >= 16 {
					break
				}
				if c, ok := d.value(t, fmt.Sprintf("ansi[%d]", i), ANSIPath(i), el); ok {
					t.ANSI[i] = c
				}
			}
		}
	}
	if raw, ok := top["derive"]; ok {
		d.rules(t, raw)
	}
	if raw, ok := top["scheme"]; ok {
		t.Scheme = d.scheme(raw)
	}
	if raw, ok := top["spaces"]; ok {
		t.Spaces = d.spaces(raw)
	}
	if raw, ok := top["targets"]; ok {
		t.Targets = d.targets(raw)
	}
	if raw, ok := top["companion"]; ok {
		d.companion(t, raw)
	}
	if len(d.probs) > 0 {
		return nil, d.done()
	}
	if t.Read < 3 {
		t.attachMatching()
	}
	return t, nil
}

// companion reads the theme's other appearance: a whole document of its
// own, without a companion, its problems under "companion.".
func (d *decoder) companion(t *Theme, raw json.RawMessage) {
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		var inner map[string]json.RawMessage
		if json.Unmarshal(raw, &inner) == nil {
			if _, nested := inner["companion"]; nested {
				d.add("companion.companion", "a companion has no companion of its own")
				return
			}
		}
	}
	c, probs := decode(raw)
	for _, p := range probs {
		p.Path = strings.TrimSuffix("companion."+p.Path, ".")
		d.probs = append(d.probs, p)
	}
	if c != nil {
		checkCompanion(d, t, c)
		t.Companion = c
	}
}

// optionalRoles reads an object of optional colour roles (editor, diff, …).
func (d *decoder) optionalRoles(t *Theme, group string, raw json.RawMessage) {
	obj := d.object(group, raw)
	if obj == nil {
		return
	}
	names := GroupRoles(group)
	for _, r := range names {
		if v, ok := obj[r]; ok {
			if c, ok := d.value(t, group+"."+r, group+"."+r, v); ok {
				t.put(group+"."+r, c)
			}
		}
	}
	d.unknown(group, obj, names)
}

// syntax reads the syntax object: each role is a colour string or an
// object {"color": …, "fontStyle": …}; the first nine roles are required
// and need a colour, the others may give only a font style.
func (d *decoder) syntax(t *Theme, raw json.RawMessage) {
	obj := d.object("syntax", raw)
	if obj == nil {
		return
	}
	names := GroupRoles("syntax")
	for _, r := range names {
		path := "syntax." + r
		v, ok := obj[r]
		required := contains(SyntaxRoles, r)
		if !ok {
			if required {
				d.add(path, "required")
			}
			continue
		}
		if b := bytes.TrimSpace(v); len(b) == 0 || b[0] != '{' {
			if c, ok := d.value(t, path, path, v); ok {
				t.put(path, c)
			}
			continue
		}
		fields := d.object(path, v)
		for _, k := range sortedKeys(fields) {
			switch k {
			case "color":
				if c, ok := d.value(t, path+".color", path, fields[k]); ok {
					t.put(path, c)
				}
			case "fontStyle":
				s := d.str(path+".fontStyle", fields[k])
				if d.failedAt(path + ".fontStyle") {
					continue
				}
				fs, err := ParseFontStyle(s)
				if err != nil {
					d.add(path+".fontStyle", "%v", err)
					continue
				}
				if t.Styles == nil {
					t.Styles = map[string]FontStyle{}
				}
				t.Styles[path] = fs
			default:
				d.unknown(path, map[string]json.RawMessage{k: fields[k]}, []string{"color", "fontStyle"})
			}
		}
		if _, ok := fields["color"]; !ok && required {
			d.add(path+".color", "required")
		}
	}
	d.unknown("syntax", obj, names)
}

// rules reads "derive": role path → a rule replacing the default one.
func (d *decoder) rules(t *Theme, raw json.RawMessage) {
	obj := d.object("derive", raw)
	if obj == nil {
		return
	}
	for _, path := range sortedKeys(obj) {
		at := "derive." + path
		info, ok := RoleByPath(path)
		if !ok {
			if s := suggest(path, RolePaths()); s != "" {
				d.add(at, "not a role (did you mean %q?)", s)
			} else {
				d.add(at, "not a role")
			}
			continue
		}
		if info.Required {
			d.add(at, "%s is required and always set; only optional roles are derived", path)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(obj[path]))
		dec.DisallowUnknownFields()
		var r Rule
		if err := dec.Decode(&r); err != nil {
			d.add(at, "want a rule like {\"from\": \"ui.surface\", \"mix\": \"ui.text\", \"amount\": 0.1, \"alpha\": 0.5}: %v", err)
			continue
		}
		if msg := r.check(); msg != "" {
			d.add(at, "%s", msg)
			continue
		}
		if t.Rules == nil {
			t.Rules = map[string]Rule{}
		}
		t.Rules[path] = r
	}
	// A rule may not lead back to its own role.
	for _, path := range sortedKeys(t.Rules) {
		if cyc := t.cycle(path); cyc != nil {
			d.add("derive."+path, "the rules go round in a circle: %s", strings.Join(cyc, " → "))
		}
	}
}

// check names what is wrong with a rule, "" when nothing is.
func (r Rule) check() string {
	for _, f := range []struct{ name, path string }{{"from", r.From}, {"best", r.Best}, {"on", r.On}, {"mix", r.Mix}} {
		if f.path == "" {
			if f.name == "from" {
				return "from: required (the role the rule starts from)"
			}
			continue
		}
		if _, ok := RoleByPath(f.path); !ok {
			if s := suggest(f.path, RolePaths()); s != "" {
				return fmt.Sprintf("%s: %q is not a role (did you mean %q?)", f.name, f.path, s)
			}
			return fmt.Sprintf("%s: %q is not a role", f.name, f.path)
		}
	}
	if (r.Best == "") != (r.On == "") {
		return "best and on go together: whichever of from and best reads better on on"
	}
	if r.Mix != "" && (r.Amount <= 0 || r.Amount > 1) {
		return "amount: want a fraction above 0 and at most 1 (how far toward mix)"
	}
	if r.Mix == "" && r.Amount != 0 {
		return "amount without mix"
	}
	if r.Alpha < 0 || r.Alpha > 1 {
		return "alpha: want an opacity between 0 and 1"
	}
	return ""
}

// cycle returns the loop of rules starting at path, nil when there is none.
// A depth-first walk that visits each role once: a role already walked
// without finding path cannot lead back to it later (issue #36: copying the
// trail on every branch took time exponential in the rules' length).
func (t *Theme) cycle(path string) []string {
	visited := map[string]bool{}
	var trail []string
	var walk func(p string) bool
	walk = func(p string) bool {
		if len(trail) > 0 && p == path {
			trail = append(trail, p)
			return true
		}
		if visited[p] || t.Has(p) {
			return false
		}
		visited[p] = true
		r, ok := t.RuleFor(p)
		if !ok {
			return false
		}
		trail = append(trail, p)
		for _, in := range r.Inputs() {
			if walk(in) {
				return true
			}
		}
		trail = trail[:len(trail)-1]
		return false
	}
	if walk(path) {
		return trail
	}
	return nil
}

func (d *decoder) failedAt(path string) bool {
	return len(d.probs) > 0 && d.probs[len(d.probs)-1].Path == path
}

func (d *decoder) roles(t *Theme, path string, raw json.RawMessage, names []string, field func(string) *Color) {
	obj := d.object(path, raw)
	if obj == nil {
		return
	}
	for _, r := range names {
		v, ok := obj[r]
		if !ok {
			d.add(path+"."+r, "required")
			continue
		}
		if c, ok := d.value(t, path+"."+r, path+"."+r, v); ok {
			*field(r) = c
		}
	}
	d.unknown(path, obj, names)
}

func (d *decoder) unknown(path string, obj map[string]json.RawMessage, known []string) {
	for _, k := range sortedKeys(obj) {
		if contains(known, k) {
			continue
		}
		if d.unknowns >= maxUnknown || len(d.probs) >= maxProblems {
			d.more++
			continue
		}
		d.unknowns++
		p := k
		if path != "" {
			p = path + "." + k
		}
		if s := suggest(k, known); s != "" {
			d.add(p, "unknown field (did you mean %q?)", s)
		} else {
			d.add(p, "unknown field (known: %s)", strings.Join(known, ", "))
		}
	}
}

func (d *decoder) str(path string, raw json.RawMessage) string {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		d.add(path, "want a string, got %s", JSONKind(raw))
		return ""
	}
	return *s
}

func (d *decoder) object(path string, raw json.RawMessage) map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		d.add(path, "want an object, got %s", JSONKind(raw))
		return nil
	}
	return obj
}

func (d *decoder) color(path string, raw json.RawMessage) (Color, bool) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		d.add(path, "want a colour string like \"#1e1e2e\", got %s", JSONKind(raw))
		return Color{}, false
	}
	c, err := ParseColor(*s)
	if err != nil {
		d.add(path, "%v", err)
		return Color{}, false
	}
	return c, true
}

// kind names a JSON value's type for messages.
func JSONKind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonError turns a decoder error into "line L, column C: ..." so a user
// can find the broken spot.
func jsonError(data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		return fmt.Sprintf("want a JSON object, got %s", e.Value)
	}
	if off < 0 {
		return "invalid JSON: " + err.Error()
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n') - 1
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, err)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// suggest returns the known name closest to s when it is plausibly a typo
// (case-insensitive match or edit distance <= 2).
func suggest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if strings.EqualFold(s, k) {
			return k
		}
		if d := distance(strings.ToLower(s), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
