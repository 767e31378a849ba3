package theme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cdxtheme/core/jsonc"
)

// jsonKeyLines maps every key path of a JSON document (`colors."a.b"`,
// `tokenColors[2].settings.foreground`) to the line it starts on, so a bad
// value can be reported where it is. maxDepth bounds hostile nesting.
func jsonKeyLines(data []byte) map[string]int {
	lines := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		if depth > 64 {
			return errors.New("too deep")
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if path != "" {
			lines[path] = lineAt(data, dec.InputOffset()-1)
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		switch d {
		case '{':
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				p := joinKey(path, key)
				if err := walk(p, depth+1); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				p := fmt.Sprintf("%s[%d]", path, i)
				if err := walk(p, depth+1); err != nil {
					return err
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	walk("", 0)
	return lines
}

// lineOf is the line of a key path, or of its nearest parent present (a
// required key that is missing is reported where its object is).
func lineOf(lines map[string]int, path string) int {
	for path != "" {
		if l, ok := lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
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

func importJSON(b *builder, raw []byte) error {
	data := stripJSON(raw)
	lines := jsonKeyLines(data)
	switch b.format {
	case "cdxtheme":
		t, err := Parse(data)
		if err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) && len(ve.Problems) > 0 {
				p := ve.Problems[0]
				return b.errAt(lineOf(lines, p.Path), p.Path, "%s", p.Message)
			}
			return b.errAt(0, "", "%v", err)
		}
		b.t.Name, b.t.Author, b.t.Description, b.t.Palette = t.Name, t.Author, t.Description, t.Palette
		b.appear = t.Appearance
		for _, p := range RolePaths() {
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
func (b *builder) jsonColour(lines map[string]int, key string, raw json.RawMessage) (Color, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return Color{}, b.errAt(lines[key], key, "want a colour string like \"#1e1e2e\", got %s", kind(raw))
	}
	c, err := parseLooseColor(s)
	if err != nil {
		return Color{}, b.errAt(lines[key], key, "%v", err)
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
	{"syntax.constant", "constant.language"},
	{"syntax.variable", "variable.other.readwrite"},
}

// tmRule is one TextMate scope rule with its foreground.
type tmRule struct {
	index     int
	selectors []string
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

// splitSelectors keeps the plain scope selectors of a rule ("a.b, c"); a
// descendant or excluding selector ("meta.x entity", "a - b") describes a
// context, not the token itself.
func splitSelectors(scope string) []string {
	var out []string
	for _, s := range strings.Split(scope, ",") {
		s = strings.TrimSpace(s)
		if s != "" && !strings.ContainsAny(s, " \t()|&-") {
			out = append(out, s)
		}
	}
	return out
}

func importVSCode(b *builder, data []byte, lines map[string]int) error {
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
	for _, k := range sortedKeys(top) {
		switch k {
		case "name", "type", "include", "colors", "tokenColors", "semanticTokenColors", "semanticHighlighting", "$schema", "author", "maintainers", "semanticClass":
		default:
			b.warn("%s is not carried (not a colour theme key CDXTheme keeps)", joinKey("", k))
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
	colour := func(k string) (Color, bool, error) {
		raw, ok := doc.Colors[k]
		if !ok || string(raw) == "null" {
			return Color{}, false, nil
		}
		c, err := b.jsonColour(lines, joinKey("colors", k), raw)
		return c, err == nil, err
	}
	for _, m := range vscodeColourKeys {
		for _, k := range m.keys {
			c, ok, err := colour(k)
			if err != nil {
				return err
			}
			if ok {
				b.put(m.role, joinKey("colors", k), c)
				break
			}
		}
	}
	for i, n := range vscodeANSI {
		for _, v := range []struct {
			key  string
			slot int
		}{{"terminal.ansi" + n, i}, {"terminal.ansiBright" + n, i + 8}} {
			c, ok, err := colour(v.key)
			if err != nil {
				return err
			}
			if ok {
				b.put(ansiPath(v.slot), joinKey("colors", v.key), c)
			}
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
			return b.errAt(lines["tokenColors"], "tokenColors", "want an array of {scope, settings}")
		}
		for i, it := range items {
			key := fmt.Sprintf("tokenColors[%d].settings.foreground", i)
			var scope string
			var list []string
			if len(it.Scope) > 0 && json.Unmarshal(it.Scope, &scope) != nil {
				if err := json.Unmarshal(it.Scope, &list); err != nil {
					k := fmt.Sprintf("tokenColors[%d].scope", i)
					return b.errAt(lines[k], k, "want a string or an array of strings")
				}
				scope = strings.Join(list, ",")
			}
			if it.Settings.Foreground == nil {
				continue
			}
			if _, err := parseLooseColor(*it.Settings.Foreground); err != nil {
				return b.errAt(lines[key], key, "%v", err)
			}
			if len(it.Scope) == 0 {
				// A rule without a scope is the old tmTheme-style global
				// setting: the default text colour.
				c, _ := parseLooseColor(*it.Settings.Foreground)
				b.put("ui.text", key, c)
				continue
			}
			rules = append(rules, tmRule{index: i, selectors: splitSelectors(scope), fg: *it.Settings.Foreground, key: key, line: lines[key]})
		}
	}
	applyScopeRules(b, rules, vscodeTargets, "tokenColors")
	keepVSCode(b, doc.Colors, doc.TokenColors, doc.SemanticTokenColors, doc.SemanticHighlighting)
	return nil
}

// keepVSCode stores what no role carries as targets.vscode overrides: the
// workbench colours not read into a role, the token rules and the
// semantic token colours, verbatim, so the VS Code export gives them back.
func keepVSCode(b *builder, colors map[string]json.RawMessage, tokens json.RawMessage, semantic map[string]json.RawMessage, semHi *bool) {
	used := map[string]bool{}
	for _, m := range b.mapped {
		used[m.From] = true
	}
	vs := &VSCodeTarget{SemanticHighlighting: semHi}
	for _, k := range sortedKeys(colors) {
		if used[joinKey("colors", k)] {
			continue
		}
		var v string
		if err := json.Unmarshal(colors[k], &v); err != nil {
			b.warn("%s is %s, not a colour string; not carried", joinKey("colors", k), kind(colors[k]))
			continue
		}
		if vs.Colors == nil {
			vs.Colors = map[string]string{}
		}
		vs.Colors[k] = v
	}
	var rules []json.RawMessage
	if len(tokens) > 0 && json.Unmarshal(tokens, &rules) == nil && len(rules) > 0 {
		vs.TokenColors = compactJSON(tokens)
	}
	if len(semantic) > 0 {
		vs.SemanticTokenColors = map[string]json.RawMessage{}
		for k, v := range semantic {
			vs.SemanticTokenColors[k] = compactJSON(v)
		}
	}
	if vs.Colors == nil && vs.TokenColors == nil && vs.SemanticTokenColors == nil && vs.SemanticHighlighting == nil {
		return
	}
	if b.t.Targets == nil {
		b.t.Targets = &TargetOverrides{}
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
		c, _ := parseLooseColor(r.fg)
		b.put(tg.role, fmt.Sprintf("%s[%d] %q", what, r.index, sel), c)
	}
}

func importWindowsTerminal(b *builder, data []byte, lines map[string]int) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return jsonSyntaxError(b, data, err)
	}
	prefix := ""
	scheme := top
	if raw, ok := top["schemes"]; ok {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return b.errAt(lines["schemes"], "schemes", "want an array of colour schemes")
		}
		if len(list) == 0 {
			return b.errAt(lines["schemes"], "schemes", "the settings hold no colour scheme")
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
		keys = append(keys, struct{ key, role string }{n, ansiPath(i)})
		keys = append(keys, struct{ key, role string }{"bright" + strings.ToUpper(n[:1]) + n[1:], ansiPath(i + 8)})
	}
	known := map[string]bool{"name": true}
	for _, k := range keys {
		known[k.key] = true
	}
	for _, k := range sortedKeys(scheme) {
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
