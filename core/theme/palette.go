package theme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The palette is the theme's source of colour (version 3): named entries,
// each a colour or a ramp (steps generated in OKLCH from a base colour,
// oklch.go), and roles that name an entry instead of holding a hex follow
// it. The Theme keeps every role's colour resolved in its own field (the
// exporters, contrast checks and Apply read colours only and never see a
// name) and, in Refs, the entry each following role names; every change of
// an entry goes through SetEntry, which moves the roles following it, so
// the two never disagree.

// Limits on what a document's palette may hold (untrusted input: the agent
// writes it). Catppuccin has 26 colours, Radix 12 steps a scale.
const (
	MaxPaletteEntries = 256
	MaxRampSteps      = 24
)

// Ramp is a palette entry that is a scale: steps on Tailwind's 0–1000
// scale (50 lightest … 950 darkest) generated from the entry's base colour
// (Palette[name]); the base is itself the step At (the step whose default
// lightness is nearest the base's when At is 0). Steps and At are kept as
// the document wrote them (nil and 0 when it left them out), so a document
// is written back as it was read.
type Ramp struct {
	Steps []int `json:"steps,omitempty"`
	At    int   `json:"at,omitempty"`
}

// DefaultRampSteps are a ramp's steps when the document names none:
// Tailwind's eleven.
var DefaultRampSteps = []int{50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950}

// StepsOrDefault are the ramp's steps, the defaults when it names none.
func (r Ramp) StepsOrDefault() []int {
	if len(r.Steps) == 0 {
		return DefaultRampSteps
	}
	return r.Steps
}

// IsReference reports whether a role's value in theme.json names a palette
// entry rather than giving a colour: any string that does not start with #.
func IsReference(s string) bool { return !strings.HasPrefix(s, "#") }

// Follows is the palette reference a role follows ("blue", "blue.600"), ""
// when the role holds its own colour or is derived. A role whose colour
// was changed in its field directly, so that it no longer is what its
// reference resolves to, holds its own colour: the field wins, and no
// code path can make a document say one colour and export another.
func (t *Theme) Follows(path string) string {
	ref := t.Refs[path]
	if ref == "" || !t.Has(path) {
		return ""
	}
	if c, err := t.PaletteColor(ref); err != nil || c != t.Color(path) {
		return ""
	}
	return ref
}

// prune forgets the references Follows no longer honours.
func (t *Theme) prune() {
	for p := range t.Refs {
		if t.Follows(p) == "" {
			t.Refs = cloneMap(t.Refs)
			delete(t.Refs, p)
		}
	}
}

// Entry is the palette entry a reference names: "blue.600" is the entry
// "blue" (a ramp), unless the palette has an entry called "blue.600".
func (t *Theme) Entry(ref string) string {
	if _, ok := t.Palette[ref]; ok {
		return ref
	}
	if i := strings.LastIndexByte(ref, '.'); i > 0 {
		return ref[:i]
	}
	return ref
}

// PaletteColor resolves a palette reference: an entry's name gives its
// colour (a ramp's base), "name.step" a step of a ramp. The error names the
// reference and what the palette holds, for the designer to pick from.
func (t *Theme) PaletteColor(ref string) (Color, error) {
	if c, ok := t.Palette[ref]; ok {
		return c, nil
	}
	if i := strings.LastIndexByte(ref, '.'); i > 0 {
		name, step := ref[:i], ref[i+1:]
		if base, ok := t.Palette[name]; ok {
			ramp, isRamp := t.Ramps[name]
			if !isRamp {
				return Color{}, fmt.Errorf("%q: %s is a colour, not a ramp; only a ramp has steps", ref, name)
			}
			n, err := strconv.Atoi(step)
			if err != nil || !slices.Contains(ramp.StepsOrDefault(), n) {
				return Color{}, fmt.Errorf("%q: the ramp %s has no step %q (its steps: %s)", ref, name, step, joinInts(ramp.StepsOrDefault()))
			}
			return ramp.Colors(base)[n], nil
		}
	}
	return Color{}, t.unknownRef(ref)
}

// unknownRef is the error of a name the palette does not hold.
func (t *Theme) unknownRef(ref string) error {
	names := t.PaletteNames()
	if len(names) == 0 {
		if isHex(ref) && (len(ref) == 6 || len(ref) == 8) {
			return fmt.Errorf("%q is not a colour: a colour starts with # (\"#%s\"); a value without # names a palette entry", ref, ref)
		}
		return fmt.Errorf("%q names a palette entry, but the palette is empty (a colour is \"#rrggbb\")", ref)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q is not a palette entry", ref)
	if s := suggest(ref, t.refNames()); s != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", s)
	} else if isHex(ref) && (len(ref) == 6 || len(ref) == 8) {
		fmt.Fprintf(&b, " (a colour starts with #: \"#%s\")", ref)
	}
	shown := names
	if len(shown) > 40 {
		shown = shown[:40]
	}
	fmt.Fprintf(&b, "; the palette has %s", strings.Join(shown, ", "))
	if len(names) > len(shown) {
		fmt.Fprintf(&b, " and %d more", len(names)-len(shown))
	}
	return fmt.Errorf("%s", b.String())
}

// PaletteNames lists the palette's entries, sorted.
func (t *Theme) PaletteNames() []string { return sortedKeys(t.Palette) }

// refNames are every name a role may follow: the entries and each ramp's
// steps.
func (t *Theme) refNames() []string {
	out := t.PaletteNames()
	for _, name := range sortedKeys(t.Ramps) {
		for _, s := range t.Ramps[name].StepsOrDefault() {
			out = append(out, name+"."+strconv.Itoa(s))
		}
	}
	return out
}

// PaletteSwatch is one colour a role can follow: an entry, or a step of a
// ramp entry ("blue.600").
type PaletteSwatch struct {
	Ref   string `json:"ref"`
	Entry string `json:"entry"`
	Color string `json:"color"`
	// Step is the ramp step (0 for an entry's own colour).
	Step int `json:"step,omitempty"`
	// Users are the role paths following this reference.
	Users []string `json:"users"`
}

// Swatches lists the palette as a designer sees it, in order: each entry,
// after a ramp's base its steps ("blue.50" … "blue.950"), each with its
// colour and the roles following it.
func (t *Theme) Swatches() []PaletteSwatch {
	users := map[string][]string{}
	for _, p := range RolePaths() {
		if r := t.Follows(p); r != "" {
			users[r] = append(users[r], p)
		}
	}
	var out []PaletteSwatch
	for _, name := range t.PaletteNames() {
		base := t.Palette[name]
		out = append(out, PaletteSwatch{Ref: name, Entry: name, Color: base.String(), Users: nonNil(users[name])})
		if r, ok := t.Ramps[name]; ok {
			cols := r.Colors(base)
			for _, s := range r.StepsOrDefault() {
				ref := name + "." + strconv.Itoa(s)
				out = append(out, PaletteSwatch{Ref: ref, Entry: name, Step: s, Color: cols[s].String(), Users: nonNil(users[ref])})
			}
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// EntryUsers lists the role paths following a palette entry, its ramp's
// steps included, in document order.
func (t *Theme) EntryUsers(name string) []string {
	var out []string
	for _, p := range RolePaths() {
		if r := t.Follows(p); r != "" && t.Entry(r) == name {
			out = append(out, p)
		}
	}
	return out
}

// put gives a role a colour and keeps what it follows (the resolved colour
// of its reference); Set detaches it instead.
func (t *Theme) put(path string, c Color) bool {
	if p := t.Ref(path); p != nil {
		*p = c
		return true
	}
	if _, ok := RoleByPath(path); !ok {
		return false
	}
	if t.Roles == nil {
		t.Roles = map[string]Color{}
	}
	t.Roles[path] = c
	return true
}

// Attach makes a role follow a palette reference: its colour becomes the
// entry's (or the ramp step's) and moves with it from then on.
func (t *Theme) Attach(path, ref string) error {
	if _, ok := RoleByPath(path); !ok {
		return fmt.Errorf("%s: no such colour role", path)
	}
	c, err := t.PaletteColor(ref)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	t.put(path, c)
	t.Refs = cloneMap(t.Refs) // a shallow copy of t may share the map
	if t.Refs == nil {
		t.Refs = map[string]string{}
	}
	t.Refs[path] = ref
	return nil
}

// Detach makes a role hold its own colour (the one it has now) instead of
// following the palette. It reports whether the role followed an entry.
func (t *Theme) Detach(path string) bool {
	if _, ok := t.Refs[path]; !ok {
		return false
	}
	following := t.Follows(path) != ""
	t.Refs = cloneMap(t.Refs)
	delete(t.Refs, path)
	return following
}

// SetEntry gives a palette entry a colour (a ramp's base: its steps are
// generated again), adding the entry when it is new, and moves every role
// following it. It returns those roles, in document order.
func (t *Theme) SetEntry(name string, c Color) ([]string, error) {
	if _, ok := t.Palette[name]; !ok {
		if err := checkEntryName(name); err != nil {
			return nil, err
		}
		if len(t.Palette) >= MaxPaletteEntries {
			return nil, fmt.Errorf("palette.%s: the palette holds at most %d entries", name, MaxPaletteEntries)
		}
	}
	if _, ok := t.Ramps[name]; ok && c.A != 255 {
		return nil, fmt.Errorf("palette.%s: a ramp's base is opaque (got %s)", name, c)
	}
	t.prune()
	pal := cloneMap(t.Palette) // a shallow copy of t may share the map
	if pal == nil {
		pal = map[string]Color{}
	}
	pal[name] = c
	t.Palette = pal
	return t.follow(name), nil
}

// SetRamp makes a palette entry a ramp with these steps (nil: the default
// eleven) and base step at (0: nearest the base's lightness), or a plain
// colour again (ramp nil); every role following it or its steps moves. A
// role following a step the ramp no longer has keeps its colour, detached.
func (t *Theme) SetRamp(name string, ramp *Ramp) ([]string, error) {
	base, ok := t.Palette[name]
	if !ok {
		return nil, fmt.Errorf("palette.%s: no such palette entry", name)
	}
	if ramp != nil {
		if msg := ramp.check(); msg != "" {
			return nil, fmt.Errorf("palette.%s: %s", name, msg)
		}
		if base.A != 255 {
			return nil, fmt.Errorf("palette.%s: a ramp's base is opaque (got %s)", name, base)
		}
	}
	t.prune()
	ramps := cloneMap(t.Ramps)
	if ramp == nil {
		delete(ramps, name)
	} else {
		if ramps == nil {
			ramps = map[string]Ramp{}
		}
		ramps[name] = Ramp{Steps: slices.Clone(ramp.Steps), At: ramp.At}
	}
	t.Ramps = ramps
	return t.follow(name), nil
}

// follow sets every role following entry name to its colour now; a role
// whose reference no longer resolves keeps its colour and is detached.
func (t *Theme) follow(name string) []string {
	var out []string
	for _, p := range RolePaths() {
		ref := t.Refs[p]
		if ref == "" || t.Entry(ref) != name {
			continue
		}
		c, err := t.PaletteColor(ref)
		if err != nil {
			t.Refs = cloneMap(t.Refs)
			delete(t.Refs, p)
			continue
		}
		if t.Color(p) != c {
			t.put(p, c)
			out = append(out, p)
		}
	}
	return out
}

// RemoveEntry drops a palette entry; the roles following it keep their
// colours, detached. It returns those roles.
func (t *Theme) RemoveEntry(name string) ([]string, error) {
	if _, ok := t.Palette[name]; !ok {
		return nil, fmt.Errorf("palette.%s: no such palette entry", name)
	}
	users := t.EntryUsers(name)
	t.Refs = cloneMap(t.Refs)
	for p, r := range t.Refs {
		if t.Entry(r) == name {
			delete(t.Refs, p)
		}
	}
	t.Palette = cloneMap(t.Palette)
	delete(t.Palette, name)
	if _, ok := t.Ramps[name]; ok {
		t.Ramps = cloneMap(t.Ramps)
		delete(t.Ramps, name)
	}
	return users, nil
}

// checkEntryName refuses names a role could not name: empty, starting
// with # (a colour), or containing a dot (a ramp step's separator).
func checkEntryName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("a palette entry needs a name")
	case strings.HasPrefix(name, "#"):
		return fmt.Errorf("palette.%s: a name starting with # reads as a colour", name)
	case strings.Contains(name, "."):
		return fmt.Errorf("palette.%s: a dot separates a ramp's name from its step; use - or _ in names", name)
	case len(name) > 64:
		return fmt.Errorf("palette.%s: a name is at most 64 characters", name[:64])
	}
	return nil
}

// attachMatching makes every role the document sets follow the palette
// entry holding exactly its colour (the first such name in order), for a
// document written before roles could name entries: its palette was the
// colours its roles were picked from, and editing an entry moved the roles
// holding its colour, which is what following it now does. Colours do not
// change.
func (t *Theme) attachMatching() {
	if len(t.Palette) == 0 {
		return
	}
	byColor := map[Color]string{}
	for _, name := range t.PaletteNames() {
		if checkEntryName(name) != nil {
			continue // a name no reference can spell stays informational
		}
		if _, ok := byColor[t.Palette[name]]; !ok {
			byColor[t.Palette[name]] = name
		}
	}
	for _, p := range RolePaths() {
		if !t.Has(p) || t.Refs[p] != "" {
			continue
		}
		if name, ok := byColor[t.Color(p)]; ok {
			if t.Refs == nil {
				t.Refs = map[string]string{}
			}
			t.Refs[p] = name
		}
	}
}

// check names what is wrong with a ramp's settings, "" when nothing is.
func (r Ramp) check() string {
	if len(r.Steps) > MaxRampSteps {
		return fmt.Sprintf("steps: at most %d steps", MaxRampSteps)
	}
	seen := map[int]bool{}
	for _, s := range r.Steps {
		if s < 1 || s > 999 {
			return fmt.Sprintf("steps: %d is outside 1…999 (steps are on Tailwind's scale: 50 lightest, 950 darkest)", s)
		}
		if seen[s] {
			return fmt.Sprintf("steps: %d twice", s)
		}
		seen[s] = true
	}
	if r.At != 0 && !slices.Contains(r.StepsOrDefault(), r.At) {
		return fmt.Sprintf("at: %d is not one of the steps (%s)", r.At, joinInts(r.StepsOrDefault()))
	}
	return ""
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// decodePalette reads "palette": each entry a colour "#rrggbb" or a ramp
// {"base": "#rrggbb", "steps": [50, …], "at": 500}. An entry is never a
// reference (entries are the source; a name would only move the question).
func (d *decoder) palette(t *Theme, raw json.RawMessage) {
	obj := d.object("palette", raw)
	if obj == nil {
		return
	}
	if len(obj) > MaxPaletteEntries {
		d.add("palette", "%d entries; a palette holds at most %d", len(obj), MaxPaletteEntries)
		return
	}
	t.Palette = make(map[string]Color, len(obj))
	for _, k := range sortedKeys(obj) {
		at := "palette." + k
		v := bytes.TrimSpace(obj[k])
		if len(v) > 0 && v[0] == '{' {
			d.ramp(t, k, obj[k])
			continue
		}
		var s *string
		if json.Unmarshal(v, &s) == nil && s != nil && IsReference(*s) {
			d.add(at, "%q: a palette entry is a colour (\"#rrggbb\") or a ramp ({\"base\": \"#rrggbb\"}), never the name of another entry", *s)
			continue
		}
		if c, ok := d.color(at, obj[k]); ok {
			t.Palette[k] = c
		}
	}
}

func (d *decoder) ramp(t *Theme, name string, raw json.RawMessage) {
	at := "palette." + name
	if strings.Contains(name, ".") {
		d.add(at, "a ramp's name has no dot (a dot separates the name from a step: %q)", "blue.600")
		return
	}
	fields := d.object(at, raw)
	if fields == nil {
		return
	}
	d.unknown(at, fields, []string{"base", "steps", "at"})
	braw, ok := fields["base"]
	if !ok {
		d.add(at+".base", "required (the ramp's key colour, \"#rrggbb\")")
		return
	}
	base, ok := d.color(at+".base", braw)
	if !ok {
		return
	}
	if base.A != 255 {
		d.add(at+".base", "a ramp's base is opaque (got %s)", base)
		return
	}
	var r Ramp
	if s, ok := fields["steps"]; ok {
		if err := json.Unmarshal(s, &r.Steps); err != nil || r.Steps == nil {
			d.add(at+".steps", "want an array of whole numbers like [50, 100, 500, 950], got %s", JSONKind(s))
			return
		}
	}
	if a, ok := fields["at"]; ok {
		if err := json.Unmarshal(a, &r.At); err != nil || r.At == 0 {
			d.add(at+".at", "want the step the base is, like 500, got %s", bytes.TrimSpace(a))
			return
		}
	}
	if msg := r.check(); msg != "" {
		d.add(at, "%s", msg)
		return
	}
	t.Palette[name] = base
	if t.Ramps == nil {
		t.Ramps = map[string]Ramp{}
	}
	t.Ramps[name] = r
}

// value reads a role's value: a colour, or the name of a palette entry the
// role then follows (the palette is read first).
// at is where the value is in the document ("ansi[3]", "syntax.type.color")
// and role the role's path.
func (d *decoder) value(t *Theme, at, role string, raw json.RawMessage) (Color, bool) {
	var s *string
	if json.Unmarshal(raw, &s) == nil && s != nil && IsReference(*s) {
		c, err := t.PaletteColor(*s)
		if err != nil {
			d.add(at, "%v", err)
			return Color{}, false
		}
		if t.Refs == nil {
			t.Refs = map[string]string{}
		}
		t.Refs[role] = *s
		return c, true
	}
	return d.color(at, raw)
}

// paletteJSON is the palette as written: entries by name, a ramp as its
// object.
func (t Theme) paletteJSON() ordered {
	var o ordered
	for _, name := range t.PaletteNames() {
		c := t.Palette[name]
		if r, ok := t.Ramps[name]; ok {
			v := ordered{{"base", c}}
			if len(r.Steps) > 0 {
				v = append(v, orderedKV{"steps", r.Steps})
			}
			if r.At != 0 {
				v = append(v, orderedKV{"at", r.At})
			}
			o = append(o, orderedKV{name, v})
			continue
		}
		o = append(o, orderedKV{name, c})
	}
	return o
}

// roleJSON is a role's value as written: the name it follows, else its
// colour.
func (t Theme) roleJSON(path string) any {
	if r := t.Follows(path); r != "" {
		return r
	}
	return t.Color(path)
}
