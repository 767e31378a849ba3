package themeimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/jsonc"
	"cdxtheme/core/scopes"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// jsonLines finds where a key path of a JSON document (`colors."a.b"`,
// `tokenColors[2].settings.foreground`) is, so a bad value is reported on
// its line. Only an error needs a line, so the document is walked then,
// once, descending only into the objects on the path asked for and
// counting lines as it goes: linear in the file. (A map of every path,
// each line counted from the start, took 64 s for a 3.9 MB theme and a
// copy of a long key for every value below it.)
type jsonLines []byte

// line is the line of path, or of its nearest parent present (a required
// key that is missing is reported where its object is); 0 when unknown.
func (data jsonLines) line(target string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	pos, line, best := 0, 1, 0
	advance := func(off int64) int {
		if off < int64(pos) || off > int64(len(data)) {
			return line
		}
		line += bytes.Count(data[pos:off], []byte("\n"))
		pos = int(off)
		return line
	}
	on := func(path string) bool { // path is target or one of its parents
		if !strings.HasPrefix(target, path) {
			return false
		}
		return path == "" || len(target) == len(path) || target[len(path)] == '.' || target[len(path)] == '['
	}
	// skip reads the rest of a value whose opening delimiter was read.
	skip := func() error {
		for depth := 1; depth > 0; {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
		}
		return nil
	}
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		here := on(path)
		if here && path != "" {
			best = advance(dec.InputOffset() - 1)
			if path == target {
				return errFound
			}
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		if !here {
			return skip()
		}
		switch d {
		case '{':
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				if err := walk(theme.JoinKey(path, key)); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	walk("")
	return best
}

var errFound = errors.New("found")

func jsonSyntaxError(b *builder, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return b.errAt(lineAt(data, se.Offset), "", "invalid JSON: %v", err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return b.errAt(lineAt(data, te.Offset), te.Field, "want %s, got a JSON %s", te.Type, te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return b.errAt(lineAt(data, int64(len(data))), "", "invalid JSON: the file ends too early")
	}
	return b.errAt(0, "", "invalid JSON: %v", err)
}

// stripJSON reads JSON with comments and trailing commas, and also a
// scheme object written to be pasted into an array: tinted-terminal's
// Windows Terminal files are "// Add custom color schemes to the
// "schemes" array" followed by "{…},". The comma after the last object is
// blanked like a trailing comma.
func stripJSON(data []byte) []byte {
	out := jsonc.Strip(data)
	end := len(bytes.TrimRight(out, " \t\r\n"))
	if end > 0 && out[end-1] == ',' {
		if before := bytes.TrimRight(out[:end-1], " \t\r\n"); len(before) > 0 && before[len(before)-1] == '}' {
			out[end-1] = ' '
		}
	}
	return out
}

// detectJSON tells a VS Code theme, a Windows Terminal scheme (or its
// settings.json) and a CDXTheme theme.json apart by their keys.
func detectJSON(name string, data []byte) (string, error) {
	var top map[string]json.RawMessage
	clean := stripJSON(data)
	if err := checkJSONShape(newBuilder(name, "json"), clean); err != nil {
		return "", err
	}
	if err := json.Unmarshal(clean, &top); err != nil || top == nil {
		b := newBuilder(name, "json")
		if err == nil {
			return "", b.errAt(1, "", "want a JSON object")
		}
		return "", jsonSyntaxError(b, clean, err)
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	switch {
	case has("ui") && has("syntax") && has("ansi"):
		return "cdxtheme", nil
	case has("colors") || has("tokenColors"):
		return "vscode", nil
	case has("schemes") || (has("background") && has("purple")) || (has("foreground") && has("black")):
		return "windows-terminal", nil
	}
	return "", &ImportError{File: name, Line: 1, Msg: "a JSON file without \"colors\"/\"tokenColors\" (VS Code) or a Windows Terminal scheme"}
}

// A theme file's JSON is small and shallow: VS Code's largest themes
// have under a thousand colours and a few thousand token rules, nested
// five deep. Decoding a collection into Go values costs up to ~40 times
// its text (1.1 GB for 4 MB of "{},"), so a collection far larger than
// any theme, or nesting far deeper, is refused before anything is
// decoded, by one pass over the tokens.
const (
	jsonMaxMembers = 10000
	jsonMaxDepth   = 64
)

// checkJSONShape refuses a document with a collection of more than
// jsonMaxMembers values or nested deeper than jsonMaxDepth, naming where.
// A syntax error is left to the decoder, which reports it.
func checkJSONShape(b *builder, data []byte) error {
	type level struct {
		object    bool
		expectKey bool
		members   int
		key       string // an object's current key
	}
	var stack []level
	// path names the value the first n levels lead to.
	path := func(n int) string {
		p := ""
		for _, l := range stack[:n] {
			if l.object {
				p = theme.JoinKey(p, l.key)
			} else {
				p = fmt.Sprintf("%s[%d]", p, l.members-1)
			}
		}
		return p
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or a syntax error the decoder reports
		}
		d, isDelim := tok.(json.Delim)
		if isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expectKey = true
			}
			continue
		}
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			if top.object && top.expectKey {
				top.key, _ = tok.(string)
				top.expectKey = false
				if top.members++; top.members > jsonMaxMembers {
					return b.errAt(lineAt(data, dec.InputOffset()), path(n-1), "more than %d keys in one object; a theme file has far fewer", jsonMaxMembers)
				}
				continue
			}
			if !top.object {
				if top.members++; top.members > jsonMaxMembers {
					return b.errAt(lineAt(data, dec.InputOffset()), path(n-1), "more than %d values in one array; a theme file has far fewer", jsonMaxMembers)
				}
			}
			if top.object && !isDelim {
				top.expectKey = true // a scalar value ends the member
			}
		}
		if isDelim { // '{' or '['
			if len(stack) >= jsonMaxDepth {
				return b.errAt(lineAt(data, dec.InputOffset()), path(len(stack)), "nested more than %d deep; a theme file nests a few levels", jsonMaxDepth)
			}
			stack = append(stack, level{object: d == '{', expectKey: d == '{'})
		}
	}
}

func importJSON(b *builder, raw []byte) error {
	data := stripJSON(raw)
	lines := jsonLines(data)
	switch b.format {
	case "cdxtheme":
		t, err := theme.Parse(data)
		if err != nil {
			var ve *theme.ValidationError
			if errors.As(err, &ve) && len(ve.Problems) > 0 {
				p := ve.Problems[0]
				return b.errAt(lines.line(p.Path), p.Path, "%s", p.Message)
			}
			return b.errAt(0, "", "%v", err)
		}
		b.t.Name, b.t.Author, b.t.Description, b.t.Palette = t.Name, t.Author, t.Description, t.Palette
		b.appear = t.Appearance
		for _, p := range theme.RolePaths() {
			if t.Has(p) {
				b.put(p, p, t.Color(p))
			}
		}
		b.t.Styles, b.t.Rules = t.Styles, t.Rules
		b.t.Ramps, b.t.Refs = t.Ramps, t.Refs // after put, which detaches: the roles follow what they followed
		return nil
	case "windows-terminal":
		return importWindowsTerminal(b, data, lines)
	}
	return importVSCode(b, data, lines)
}

// jsonColour reads a JSON string value as a colour, or reports its line.
func (b *builder) jsonColour(lines jsonLines, key string, raw json.RawMessage) (theme.Color, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return theme.Color{}, b.errAt(lines.line(key), key, "want a colour string like \"#1e1e2e\", got %s", theme.JSONKind(raw))
	}
	c, err := colour.ParseLoose(s)
	if err != nil {
		return theme.Color{}, b.errAt(lines.line(key), key, "%v", err)
	}
	return c, nil
}

// vscodeColourKeys: the workbench keys each UI role is read from, most
// telling first (the first key the theme sets wins).
var vscodeColourKeys = []struct {
	role string
	keys []string
}{
	{"ui.background", []string{"editor.background"}},
	{"ui.text", []string{"editor.foreground", "foreground"}},
	{"ui.surface", []string{"sideBar.background", "editorWidget.background", "activityBar.background", "titleBar.activeBackground", "statusBar.background", "editorGroupHeader.tabsBackground"}},
	{"ui.mutedText", []string{"descriptionForeground", "editorLineNumber.foreground", "tab.inactiveForeground"}},
	{"ui.accent", []string{"focusBorder", "button.background", "textLink.foreground", "activityBarBadge.background", "editorCursor.foreground"}},
	{"ui.border", []string{"widget.border", "editorGroup.border", "panel.border", "sideBar.border", "tab.border", "contrastBorder"}},
	{"ui.selection", []string{"editor.selectionBackground", "selection.background", "list.activeSelectionBackground"}},
	{"ui.error", []string{"errorForeground", "editorError.foreground", "list.errorForeground"}},
	{"ui.warning", []string{"editorWarning.foreground", "list.warningForeground"}},
	{"ui.success", []string{"gitDecoration.addedResourceForeground", "editorGutter.addedBackground"}},
}

// vscodeTargets: the TextMate scope each syntax role's colour is looked up
// for, as VS Code would paint a token of that scope.
var vscodeTargets = []struct{ role, scope string }{
	{"syntax.comment", "comment.line.double-slash"},
	{"syntax.keyword", "keyword.control"},
	{"syntax.operator", "keyword.operator"},
	{"syntax.string", "string.quoted.double"},
	{"syntax.function", "entity.name.function"},
	{"syntax.type", "entity.name.type"},
	{"syntax.number", "constant.numeric"},
	{"syntax.constant", "constant.other"},
	{"syntax.variable", "variable.other.readwrite"},
}

// tmRule is one TextMate scope rule with its foreground.
type tmRule struct {
	index     int
	selectors []string // the plain ones, which roles are read from
	scope     string   // every selector, as the theme writes them
	fg        string
	key       string // where the foreground is, for messages
	line      int
}

// bestRule returns the rule whose selector matches scope most specifically
// (most dot segments); a later rule wins a tie, as in TextMate.
func bestRule(rules []tmRule, scope string) (tmRule, string, bool) {
	var best tmRule
	bestSel, bestLen := "", 0
	for _, r := range rules {
		for _, s := range r.selectors {
			if scope != s && !strings.HasPrefix(scope, s+".") {
				continue
			}
			if n := strings.Count(s, ".") + 1; n >= bestLen {
				best, bestSel, bestLen = r, s, n
			}
		}
	}
	return best, bestSel, bestLen > 0
}

// newTMRule keeps a rule's selectors ("a.b, meta.x c") and the plain
// ones apart; a descendant or excluding selector ("meta.x entity",
// "a - b") describes a context, not the token itself.
func newTMRule(index int, scope string) tmRule {
	r := tmRule{index: index, scope: scope}
	for _, s := range strings.Split(scope, ",") {
		if s = strings.TrimSpace(s); plainSelector(s) {
			r.selectors = append(r.selectors, s)
		}
	}
	return r
}

// written is every selector of the rule as the theme writes it.
func (r tmRule) written() iter.Seq[string] {
	return func(yield func(string) bool) {
		for s := range strings.SplitSeq(r.scope, ",") {
			if s = strings.TrimSpace(s); s != "" && !yield(s) {
				return
			}
		}
	}
}

// name is how a message names the rule: where it is and its selectors.
func (r tmRule) name(what string) string {
	var b strings.Builder
	b.Grow(len(what) + 24 + len(r.scope) + strings.Count(r.scope, ","))
	b.WriteString(what + "[" + strconv.Itoa(r.index) + "] (")
	sep := ""
	for s := range r.written() {
		b.WriteString(sep + s)
		sep = ", "
	}
	return b.String() + ")"
}

// plainSelector reports whether s is one scope name. VS Code's selector
// tokenizer (vscode-textmate's matcher) reads a name as [\w.:][\w.:-]*, so
// a hyphen inside a name ("constant.other.character-class.regexp") is part
// of it; only a "-" that starts a token — "a - b", "a -b", "-b" — excludes.
func plainSelector(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			r == '_', r == '.', r == ':', r == '-':
		default:
			return false
		}
	}
	return true
}

func importVSCode(b *builder, data []byte, lines jsonLines) error {
	var doc struct {
		Name                 string                     `json:"name"`
		Type                 string                     `json:"type"`
		Include              string                     `json:"include"`
		Colors               map[string]json.RawMessage `json:"colors"`
		TokenColors          json.RawMessage            `json:"tokenColors"`
		SemanticTokenColors  map[string]json.RawMessage `json:"semanticTokenColors"`
		SemanticHighlighting *bool                      `json:"semanticHighlighting"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return jsonSyntaxError(b, data, err)
	}
	var top map[string]json.RawMessage
	json.Unmarshal(data, &top)
	for _, k := range slices.Sorted(maps.Keys(top)) {
		switch k {
		case "name", "type", "include", "colors", "tokenColors", "semanticTokenColors", "semanticHighlighting", "$schema", "author", "maintainers", "semanticClass":
		default:
			b.warn("%s is not carried (not a colour theme key CDXTheme keeps)", theme.JoinKey("", k))
		}
	}
	b.t.Name = doc.Name
	switch doc.Type {
	case "light", "hcLight":
		b.appear = "light"
	case "dark", "hc", "hcDark":
		b.appear = "dark"
	}
	if doc.Include != "" {
		b.warn("%q is included by the theme but not read (only the file itself is imported)", doc.Include)
	}
	colourOf := func(k string) (theme.Color, bool, error) {
		raw, ok := doc.Colors[k]
		if !ok || string(raw) == "null" {
			return theme.Color{}, false, nil
		}
		c, err := b.jsonColour(lines, theme.JoinKey("colors", k), raw)
		return c, err == nil, err
	}
	for _, m := range vscodeColourKeys {
		for _, k := range m.keys {
			c, ok, err := colourOf(k)
			if err != nil {
				return err
			}
			if ok {
				b.put(m.role, theme.JoinKey("colors", k), c)
				break
			}
		}
	}
	for i, n := range theme.VSCodeANSI {
		for _, v := range []struct {
			key  string
			slot int
		}{{"terminal.ansi" + n, i}, {"terminal.ansiBright" + n, i + 8}} {
			c, ok, err := colourOf(v.key)
			if err != nil {
				return err
			}
			if ok {
				b.put(theme.ANSIPath(v.slot), theme.JoinKey("colors", v.key), c)
			}
		}
	}

	// Every other role the export writes to a key of its own (cursor,
	// links, git decorations, line numbers, …): the first such key the
	// theme sets gives the role, so a role set in a theme survives an
	// export and an import (issue #39). Syntax roles come from the token
	// rules below, ANSI from the terminal keys above.
	for _, k := range scopes.VSCodeColorKeys() {
		if k.Alpha > 0 || k.Clear || strings.HasPrefix(k.Role, "syntax.") || strings.HasPrefix(k.Role, "ansi.") {
			continue
		}
		if info, _ := theme.RoleByPath(k.Role); info.Required {
			continue // the curated keys above; the table's fallbacks are looser
		}
		c, ok, err := colourOf(k.Key)
		if err != nil {
			return err
		}
		if ok {
			b.put(k.Role, theme.JoinKey("colors", k.Key), c)
		}
	}

	var rules []tmRule
	if len(doc.TokenColors) > 0 && doc.TokenColors[0] == '"' {
		b.warn("tokenColors names another file; it is not read, so the syntax colours are derived")
	} else if len(doc.TokenColors) > 0 && string(doc.TokenColors) != "null" {
		var items []struct {
			Scope    json.RawMessage `json:"scope"`
			Settings struct {
				Foreground *string `json:"foreground"`
				Background *string `json:"background"`
			} `json:"settings"`
		}
		if err := json.Unmarshal(doc.TokenColors, &items); err != nil {
			return b.errAt(lines.line("tokenColors"), "tokenColors", "want an array of {scope, settings}")
		}
		for i, it := range items {
			key := fmt.Sprintf("tokenColors[%d].settings.foreground", i)
			var scope string
			var list []string
			if len(it.Scope) > 0 && json.Unmarshal(it.Scope, &scope) != nil {
				if err := json.Unmarshal(it.Scope, &list); err != nil {
					k := fmt.Sprintf("tokenColors[%d].scope", i)
					return b.errAt(lines.line(k), k, "want a string or an array of strings")
				}
				scope = strings.Join(list, ",")
			}
			if it.Settings.Foreground == nil {
				continue
			}
			if _, err := colour.ParseLoose(*it.Settings.Foreground); err != nil {
				return b.errAt(lines.line(key), key, "%v", err)
			}
			if len(it.Scope) == 0 {
				// A rule without a scope is the old tmTheme-style global
				// setting: the default text colour.
				c, _ := colour.ParseLoose(*it.Settings.Foreground)
				b.put("ui.text", key, c)
				continue
			}
			r := newTMRule(i, scope)
			r.fg, r.key = *it.Settings.Foreground, key
			rules = append(rules, r)
		}
	}
	applyScopeRules(b, rules, vscodeTargets, "tokenColors")
	applyRoleRules(b, rules, "tokenColors")
	keepVSCode(b, doc.Colors, doc.TokenColors, doc.SemanticTokenColors, doc.SemanticHighlighting)
	warnRulesByRole(b, rules, "tokenColors")
	return nil
}

// applyRoleRules gives every syntax role not yet read the colour the
// theme's rules paint most of the role's TextMate scopes with (syntaxMap),
// so the targets that colour by role — tree-sitter captures, Vim groups,
// Helix and Zed keys — paint a token as the theme's own rules do. The
// role's general scopes vote; its scopes of one language (a grammar's own
// spelling, storage.type.string.go) only when no general one matched, and
// a rule for a narrower scope (markup.inline.raw.markdown for
// markup.inline.raw) stands in when no rule covers the scope itself.
func applyRoleRules(b *builder, rules []tmRule, what string) {
	if len(rules) == 0 {
		return
	}
	for _, m := range scopes.SyntaxTextMate() {
		role := "syntax." + m.Role
		if b.set[role] {
			continue
		}
		if fg, from, ok := voteRules(rules, m.TextMate, false, what); ok {
			c, _ := colour.ParseLoose(fg)
			b.put(role, from, c)
		} else if fg, from, ok := voteRules(rules, m.TextMate, true, what); ok {
			c, _ := colour.ParseLoose(fg)
			b.put(role, from, c)
		}
	}
}

// voteRules is the colour most of scopes get from rules, and the rule
// that gave it first; scopes of one language count only when language is
// set.
func voteRules(rules []tmRule, scopes []string, language bool, what string) (fg, from string, ok bool) {
	type vote struct {
		n    int
		from string
	}
	votes := map[string]*vote{}
	best := ""
	for _, scope := range scopes {
		if strings.ContainsAny(scope, " ") || languageScope(scope) != language {
			continue // a descendant selector names a context, not a token
		}
		r, sel, ok := bestRule(rules, scope)
		if !ok {
			if r, sel, ok = narrowerRule(rules, scope); !ok {
				continue
			}
		}
		v := votes[r.fg]
		if v == nil {
			v = &vote{from: fmt.Sprintf("%s[%d] %q", what, r.index, sel)}
			votes[r.fg] = v
		}
		v.n++
		if best == "" || v.n > votes[best].n {
			best = r.fg
		}
	}
	if best == "" {
		return "", "", false
	}
	return best, votes[best].from, true
}

// narrowerRule is the first rule with a selector inside scope
// (markup.inline.raw.markdown inside markup.inline.raw).
func narrowerRule(rules []tmRule, scope string) (tmRule, string, bool) {
	for _, r := range rules {
		for _, s := range r.selectors {
			if strings.HasPrefix(s, scope+".") {
				return r, s, true
			}
		}
	}
	return tmRule{}, "", false
}

// languageScope reports whether a scope names one grammar's token
// (ends in the grammar's name).
func languageScope(scope string) bool {
	i := strings.LastIndexByte(scope, '.')
	switch scope[i+1:] {
	case "go", "rust", "python", "ts", "js", "lua", "shell", "markdown":
		return true
	}
	return false
}

// warnRulesByRole names the token rules no role was read from: VS Code
// and the TextMate programs (bat, Sublime) get them as they are, the
// targets that colour by role do not. Neovim paints its language groups
// by the rules themselves (their scopes, targets.Manifest.Scopes): of
// the rules no role was read from, the ones that name none of those
// scopes are named again, as what Neovim leaves out.
func warnRulesByRole(b *builder, rules []tmRule, what string) {
	used := map[int]bool{}
	for _, m := range b.mapped {
		var i int
		if _, err := fmt.Sscanf(m.From, what+"[%d]", &i); err == nil {
			used[i] = true
		}
	}
	var neovim *targets.Manifest
	for _, m := range targets.Manifests() {
		if m.ID == "neovim" {
			neovim = m
		}
	}
	reachesNeovim := func(r tmRule) bool {
		for sel := range r.written() {
			if neovim != nil && neovim.Selects(sel) {
				return true
			}
		}
		return false
	}
	var names, notNeovim []string
	for _, r := range rules {
		if !used[r.index] {
			name := r.name(what)
			names = append(names, name)
			if !reachesNeovim(r) {
				notNeovim = append(notNeovim, name)
			}
		}
	}
	if len(names) == 0 {
		return
	}
	b.warn("%d token rules reach VS Code and the TextMate programs (bat, Sublime) as they are, but Vim, Helix and Zed colour by role and no role was read from them: %s",
		len(names), firstNames(names, 12))
	if len(notNeovim) > 0 {
		b.warn("%d of those rules name no scope of Neovim's language groups (Neovim paints those groups by the theme's own rules, the rest by role), so Neovim leaves them out: %s",
			len(notNeovim), firstNames(notNeovim, 12))
	}
}

// firstNames lists the first n names and says how many more there are.
func firstNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, "; ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], "; "), len(names)-n)
}

// keepVSCode stores what no role carries as targets.vscode overrides: the
// workbench colours not read into a role, the token rules and the
// semantic token colours, verbatim, so the VS Code export gives them back.
func keepVSCode(b *builder, colors map[string]json.RawMessage, tokens json.RawMessage, semantic map[string]json.RawMessage, semHi *bool) {
	// A key read into the role the export paints it with is left to the
	// role; one read into another role (gitDecoration.addedResourceForeground
	// gives ui.success but is painted with diff.added) stays verbatim, or
	// the export would change it.
	painter := map[string]scopes.VSCodeColorKey{}
	for _, k := range scopes.VSCodeColorKeys() {
		painter[k.Key] = k
	}
	used := map[string]bool{}
	for _, m := range b.mapped {
		if key, ok := strings.CutPrefix(m.From, "colors."); ok {
			key, _ = strconv.Unquote(key)
			if key == "" {
				key, _ = strings.CutPrefix(m.From, "colors.")
			}
			if p, ok := painter[key]; ok && p.Role == m.Role && p.Alpha == 0 && !p.Clear {
				used[theme.JoinKey("colors", key)] = true
			} else if !ok && m.Role != "" {
				used[theme.JoinKey("colors", key)] = true
			}
		}
	}
	vs := &theme.VSCodeTarget{SemanticHighlighting: semHi}
	for _, k := range slices.Sorted(maps.Keys(colors)) {
		if used[theme.JoinKey("colors", k)] {
			continue
		}
		var v string
		if err := json.Unmarshal(colors[k], &v); err != nil {
			b.warn("%s is %s, not a colour string; not carried", theme.JoinKey("colors", k), theme.JSONKind(colors[k]))
			continue
		}
		if vs.Colors == nil {
			vs.Colors = map[string]string{}
		}
		vs.Colors[k] = v
	}
	var rules []json.RawMessage
	if len(tokens) > 0 && json.Unmarshal(tokens, &rules) == nil && len(rules) > 0 {
		vs.TokenColors = theme.CompactJSON(tokens)
	}
	if len(semantic) > 0 {
		vs.SemanticTokenColors = map[string]json.RawMessage{}
		for k, v := range semantic {
			vs.SemanticTokenColors[k] = theme.CompactJSON(v)
		}
	}
	if vs.Colors == nil && vs.TokenColors == nil && vs.SemanticTokenColors == nil && vs.SemanticHighlighting == nil {
		return
	}
	if b.t.Targets == nil {
		b.t.Targets = &theme.TargetOverrides{}
	}
	b.t.Targets.VSCode = vs
	b.kept = append(b.kept, fmt.Sprintf("targets.vscode: %d colors no role carries, %d tokenColors rules, %d semanticTokenColors, verbatim",
		len(vs.Colors), len(rules), len(vs.SemanticTokenColors)))
}

// applyScopeRules sets each target role from the rule TextMate would pick.
func applyScopeRules(b *builder, rules []tmRule, targets []struct{ role, scope string }, what string) {
	for _, tg := range targets {
		r, sel, ok := bestRule(rules, tg.scope)
		if !ok {
			continue
		}
		c, _ := colour.ParseLoose(r.fg)
		b.put(tg.role, fmt.Sprintf("%s[%d] %q", what, r.index, sel), c)
	}
}

func importWindowsTerminal(b *builder, data []byte, lines jsonLines) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return jsonSyntaxError(b, data, err)
	}
	prefix := ""
	scheme := top
	if raw, ok := top["schemes"]; ok {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return b.errAt(lines.line("schemes"), "schemes", "want an array of colour schemes")
		}
		if len(list) == 0 {
			return b.errAt(lines.line("schemes"), "schemes", "the settings hold no colour scheme")
		}
		scheme, prefix = list[0], "schemes[0]."
		if len(list) > 1 {
			var names []string
			for _, s := range list[1:] {
				var n string
				json.Unmarshal(s["name"], &n)
				names = append(names, strconv.Quote(n))
			}
			b.warn("the file holds %d schemes; the first was imported, not %s", len(list), strings.Join(names, ", "))
		}
	}
	if raw, ok := scheme["name"]; ok {
		json.Unmarshal(raw, &b.t.Name)
	}
	keys := []struct{ key, role string }{
		{"background", "ui.background"}, {"foreground", "ui.text"},
		{"cursorColor", "terminal.cursor"}, {"selectionBackground", "ui.selection"},
	}
	wt := []string{"black", "red", "green", "yellow", "blue", "purple", "cyan", "white"}
	for i, n := range wt {
		keys = append(keys, struct{ key, role string }{n, theme.ANSIPath(i)})
		keys = append(keys, struct{ key, role string }{"bright" + strings.ToUpper(n[:1]) + n[1:], theme.ANSIPath(i + 8)})
	}
	known := map[string]bool{"name": true}
	for _, k := range keys {
		known[k.key] = true
	}
	for _, k := range slices.Sorted(maps.Keys(scheme)) {
		if !known[k] {
			b.warn("%s%s is not carried (the theme has no role for it)", prefix, k)
		}
	}
	for _, k := range keys {
		raw, ok := scheme[k.key]
		if !ok {
			continue
		}
		c, err := b.jsonColour(lines, prefix+k.key, raw)
		if err != nil {
			return err
		}
		b.put(k.role, prefix+k.key, c)
	}
	return nil
}
