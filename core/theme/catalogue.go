package theme

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cdxtheme/core/colour"
)

// The role catalogue: every colour role a theme document carries, with the
// object it lives in, a label and help for the UI, and — for the optional
// roles — the rule that derives it from other roles when the theme does not
// set it. It is the one table the validator, the JSON Schema, AGENTS.md,
// the importers' derived report, the contrast checks and the UI's colour
// editor are built from; exporters ask a theme for a role's colour and
// never hold a rule of their own.

// Rule derives an optional role: start from From; when Best is set, take
// whichever of From and Best reads better on On; when Mix is set, move
// Amount (0..1) of the way toward Mix; when Alpha is set (0 < Alpha < 1),
// scale the opacity by it. A theme can replace a role's default rule with
// its own in the document's "derive" object.
type Rule struct {
	From   string  `json:"from"`
	Best   string  `json:"best,omitempty"`
	On     string  `json:"on,omitempty"`
	Mix    string  `json:"mix,omitempty"`
	Amount float64 `json:"amount,omitempty"`
	Alpha  float64 `json:"alpha,omitempty"`
}

// Inputs are the role paths a rule reads.
func (r Rule) Inputs() []string {
	out := []string{r.From}
	for _, p := range []string{r.Best, r.On, r.Mix} {
		if p != "" && !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// String states the rule in words, as the UI and the import report show it.
func (r Rule) String() string {
	s := r.From
	if r.Best != "" {
		s = fmt.Sprintf("whichever of %s and %s reads better on %s", r.From, r.Best, r.On)
	}
	if r.Mix != "" {
		s = fmt.Sprintf("%s mixed %s toward %s", s, pct(r.Amount), r.Mix)
	}
	if r.Alpha > 0 && r.Alpha < 1 {
		s = fmt.Sprintf("%s at %s opacity", s, pct(r.Alpha))
	}
	if r.Best == "" && r.Mix == "" && !(r.Alpha > 0 && r.Alpha < 1) {
		s = "same as " + s
	}
	return s
}

func pct(f float64) string { return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64) + "%" }

// apply computes the rule with get giving each input's colour and seen
// flattening a colour onto the theme background.
func (r Rule) apply(get func(string) Color, seen func(Color) Color) Color {
	c := get(r.From)
	if r.Best != "" {
		on := seen(get(r.On))
		if b := get(r.Best); colour.Ratio(seen(b), on) > colour.Ratio(seen(c), on) {
			c = b
		}
	}
	if r.Mix != "" {
		c = Mix(seen(c), seen(get(r.Mix)), r.Amount)
	}
	if r.Alpha > 0 && r.Alpha < 1 {
		c.A = uint8(math.Round(float64(c.A) * r.Alpha))
	}
	return c
}

// FontStyle is a syntax role's font style: any of "bold", "italic",
// "underline", "strikethrough", space-separated in that order, or "" for
// plain text — the spelling TextMate and VS Code themes use.
type FontStyle string

// FontStyles are the words a FontStyle is made of, in canonical order.
var FontStyles = []string{"bold", "italic", "underline", "strikethrough"}

// ParseFontStyle reads a space-separated list of FontStyles words in any
// order (duplicates allowed) into the canonical form.
func ParseFontStyle(s string) (FontStyle, error) {
	have := map[string]bool{}
	for _, w := range strings.Fields(s) {
		if !contains(FontStyles, w) {
			return "", fmt.Errorf("%q is not a font style (want any of %s, space-separated)", w, quoteList(FontStyles))
		}
		have[w] = true
	}
	var out []string
	for _, w := range FontStyles {
		if have[w] {
			out = append(out, w)
		}
	}
	return FontStyle(strings.Join(out, " ")), nil
}

// Has reports whether the style includes a word ("bold", …).
func (f FontStyle) Has(word string) bool { return contains(strings.Fields(string(f)), word) }

// RoleInfo describes one role of the catalogue.
type RoleInfo struct {
	// Path is "group.name", e.g. "editor.lineHighlight" or "ansi.red".
	Path string `json:"path"`
	// Group is the document object the role lives in (ui, editor, diff,
	// diagnostic, terminal, syntax, ansi).
	Group string `json:"group"`
	// Section is the heading a colour editor files the role under.
	Section string `json:"section"`
	Label   string `json:"label"`
	Help    string `json:"help"`
	// Required roles must be in every document and have no Rule.
	Required bool `json:"required"`
	// Rule derives the role when a theme does not set it (and has no
	// rule of its own for it); RuleText is Rule in words.
	Rule     *Rule  `json:"rule,omitempty"`
	RuleText string `json:"ruleText,omitempty"`
	// Styled roles (the syntax layer) take a font style; FontStyle is the
	// default when the theme sets none.
	Styled    bool      `json:"styled"`
	FontStyle FontStyle `json:"fontStyle,omitempty"`
}

// Groups are the document objects that hold roles, in document order.
var Groups = []string{"ui", "editor", "diff", "diagnostic", "terminal", "syntax", "ansi"}

func same(from string) *Rule { return &Rule{From: from} }
func alpha(from string, a float64) *Rule {
	return &Rule{From: from, Alpha: a}
}
func mix(from, toward string, amount float64) *Rule {
	return &Rule{From: from, Mix: toward, Amount: amount}
}

type roleDef struct {
	name, section, label, help string
	rule                       *Rule
	style                      FontStyle
}

// catalogue is the table itself, by group. The ui and ansi groups and
// the first nine syntax roles are required; everything else is optional.
var catalogue = []struct {
	group string
	roles []roleDef
}{
	{"ui", []roleDef{
		{"background", "Core", "Background", "Main editor and window background.", nil, ""},
		{"surface", "Core", "Surface", "Panels, sidebars, tab bars, status bar, popups.", nil, ""},
		{"text", "Core", "Text", "Main foreground text.", nil, ""},
		{"mutedText", "Core", "Muted text", "Secondary text: descriptions, placeholders, inactive tabs.", nil, ""},
		{"accent", "Core", "Accent", "Focus, links, buttons, badges; the cursor unless terminal.cursor is set.", nil, ""},
		{"border", "Core", "Border", "Separators and outlines.", nil, ""},
		{"selection", "Core", "Selection", "Selected-text background (translucent is fine).", nil, ""},
		{"error", "Core", "Error", "Errors, deleted lines, failures.", nil, ""},
		{"warning", "Core", "Warning", "Warnings, modified lines, search hits.", nil, ""},
		{"success", "Core", "Success", "Success, added lines, passed tests.", nil, ""},
	}},
	{"editor", []roleDef{
		{"lineHighlight", "Editor", "Current line", "Background of the line the cursor is on.", same("ui.surface"), ""},
		{"gutter", "Editor", "Gutter", "Background of the line-number gutter.", same("ui.background"), ""},
		{"lineNumber", "Editor", "Line numbers", "Line numbers in the gutter.", same("ui.mutedText"), ""},
		{"lineNumberActive", "Editor", "Current line number", "The cursor line's number.", same("ui.text"), ""},
		{"indentGuide", "Editor", "Indent guides", "Vertical indentation guides.", same("ui.border"), ""},
		{"indentGuideActive", "Editor", "Active indent guide", "The guide of the block the cursor is in.", mix("ui.border", "ui.mutedText", 0.5), ""},
		{"whitespace", "Editor", "Whitespace", "Rendered spaces, tabs and end-of-line marks.", same("ui.border"), ""},
		{"ruler", "Editor", "Rulers", "Column rulers.", same("ui.border"), ""},
		{"inactiveSelection", "Editor", "Inactive selection", "Selection in an unfocused editor.", alpha("ui.selection", 0.6), ""},
		{"wordHighlight", "Editor", "Symbol occurrences", "Other occurrences of the symbol under the cursor.", alpha("ui.accent", 0.18), ""},
		{"findMatch", "Search", "Current match", "Background of the current find/search match.", alpha("ui.warning", 0.3), ""},
		{"findMatchHighlight", "Search", "Other matches", "Background of the other find/search matches.", alpha("ui.warning", 0.15), ""},
		{"bracketMatch", "Brackets", "Matching bracket", "Background behind the bracket matching the one at the cursor.", alpha("ui.accent", 0.3), ""},
		{"bracket1", "Brackets", "Bracket pair 1", "Outermost bracket-pair colour.", same("ansi.yellow"), ""},
		{"bracket2", "Brackets", "Bracket pair 2", "Second bracket-pair colour.", same("ansi.magenta"), ""},
		{"bracket3", "Brackets", "Bracket pair 3", "Third bracket-pair colour.", same("ansi.blue"), ""},
		{"bracket4", "Brackets", "Bracket pair 4", "Fourth bracket-pair colour.", same("ansi.cyan"), ""},
		{"bracket5", "Brackets", "Bracket pair 5", "Fifth bracket-pair colour.", same("ansi.green"), ""},
		{"bracket6", "Brackets", "Bracket pair 6", "Sixth bracket-pair colour.", same("ansi.red"), ""},
		{"accentText", "Editor", "Text on accent", "Labels on accent-coloured buttons and badges.", &Rule{From: "ui.background", Best: "ui.text", On: "ui.accent"}, ""},
		{"hover", "Editor", "Hover", "Background of a hovered list row, tab or button.", alpha("ui.selection", 0.5), ""},
		{"scrollbar", "Editor", "Scrollbar", "Scrollbar and minimap slider thumb.", alpha("ui.mutedText", 0.3), ""},
		{"shadow", "Editor", "Shadow", "Shadow under popups and widgets.", alpha("ansi.black", 0.4), ""},
		{"inlayHint", "Editor", "Inlay hints", "Text of inline type and parameter hints.", same("ui.mutedText"), ""},
		{"inlayHintBackground", "Editor", "Inlay hint background", "Background of inline hints.", alpha("ui.surface", 0.8), ""},
	}},
	{"diff", []roleDef{
		{"added", "Diff & merge", "Added", "Added lines in gutters, file lists and diff signs.", same("ui.success"), ""},
		{"removed", "Diff & merge", "Removed", "Removed lines in gutters, file lists and diff signs.", same("ui.error"), ""},
		{"changed", "Diff & merge", "Changed", "Changed lines in gutters, file lists and diff signs.", same("ui.warning"), ""},
		{"addedLine", "Diff & merge", "Added line background", "Background of a whole added line in a diff.", alpha("diff.added", 0.14), ""},
		{"removedLine", "Diff & merge", "Removed line background", "Background of a whole removed line in a diff.", alpha("diff.removed", 0.14), ""},
		{"changedLine", "Diff & merge", "Changed line background", "Background of a whole changed line in a diff.", alpha("diff.changed", 0.14), ""},
		{"addedText", "Diff & merge", "Added text", "Background of the added characters inside a changed line.", alpha("diff.added", 0.3), ""},
		{"removedText", "Diff & merge", "Removed text", "Background of the removed characters inside a changed line.", alpha("diff.removed", 0.3), ""},
		{"changedText", "Diff & merge", "Changed text", "Background of the changed characters inside a changed line.", alpha("diff.changed", 0.3), ""},
		{"mergeCurrent", "Diff & merge", "Merge: current", "Background of our side of a merge conflict.", alpha("diff.added", 0.2), ""},
		{"mergeCurrentHeader", "Diff & merge", "Merge: current header", "Header line of our side of a conflict.", alpha("diff.added", 0.45), ""},
		{"mergeIncoming", "Diff & merge", "Merge: incoming", "Background of their side of a merge conflict.", alpha("ui.accent", 0.2), ""},
		{"mergeIncomingHeader", "Diff & merge", "Merge: incoming header", "Header line of their side of a conflict.", alpha("ui.accent", 0.45), ""},
		{"mergeBase", "Diff & merge", "Merge: common base", "Background of the common ancestor in a conflict.", alpha("ui.mutedText", 0.2), ""},
		{"mergeBaseHeader", "Diff & merge", "Merge: base header", "Header line of the common ancestor.", alpha("ui.mutedText", 0.4), ""},
	}},
	{"diagnostic", []roleDef{
		{"error", "Diagnostics", "Error", "Error squiggles, gutter signs and messages.", same("ui.error"), ""},
		{"warning", "Diagnostics", "Warning", "Warning squiggles, signs and messages.", same("ui.warning"), ""},
		{"info", "Diagnostics", "Info", "Information diagnostics.", same("ui.accent"), ""},
		{"hint", "Diagnostics", "Hint", "Hints and suggestions.", same("ui.mutedText"), ""},
		{"unnecessary", "Diagnostics", "Unused code", "Code a language server marks unused or unreachable.", alpha("ui.text", 0.55), ""},
	}},
	{"terminal", []roleDef{
		{"cursor", "Cursor & terminal", "Cursor", "Text cursor (caret) in editors and terminals.", same("ui.accent"), ""},
		{"cursorText", "Cursor & terminal", "Cursor text", "The character under a block cursor.", &Rule{From: "ui.background", Best: "ui.text", On: "terminal.cursor"}, ""},
		{"selectionText", "Cursor & terminal", "Selected text", "Text drawn on the selection.", same("ui.text"), ""},
		{"bold", "Cursor & terminal", "Bold text", "Bold text in terminals.", same("ui.text"), ""},
		{"link", "Cursor & terminal", "Links", "Hyperlinks and URLs.", same("ui.accent"), ""},
		{"dimForeground", "Cursor & terminal", "Dim text", "Faint (SGR 2) text.", mix("ui.text", "ui.background", 0.34), ""},
		{"dimBlack", "Dim ANSI colours", "Dim black", "ANSI black drawn faint.", mix("ansi.black", "ui.background", 0.34), ""},
		{"dimRed", "Dim ANSI colours", "Dim red", "ANSI red drawn faint.", mix("ansi.red", "ui.background", 0.34), ""},
		{"dimGreen", "Dim ANSI colours", "Dim green", "ANSI green drawn faint.", mix("ansi.green", "ui.background", 0.34), ""},
		{"dimYellow", "Dim ANSI colours", "Dim yellow", "ANSI yellow drawn faint.", mix("ansi.yellow", "ui.background", 0.34), ""},
		{"dimBlue", "Dim ANSI colours", "Dim blue", "ANSI blue drawn faint.", mix("ansi.blue", "ui.background", 0.34), ""},
		{"dimMagenta", "Dim ANSI colours", "Dim magenta", "ANSI magenta drawn faint.", mix("ansi.magenta", "ui.background", 0.34), ""},
		{"dimCyan", "Dim ANSI colours", "Dim cyan", "ANSI cyan drawn faint.", mix("ansi.cyan", "ui.background", 0.34), ""},
		{"dimWhite", "Dim ANSI colours", "Dim white", "ANSI white drawn faint.", mix("ansi.white", "ui.background", 0.34), ""},
	}},
	{"syntax", []roleDef{
		{"keyword", "Syntax", "Keywords", "Control flow, declarations, storage and modifiers.", nil, ""},
		{"string", "Syntax", "Strings", "String literals.", nil, ""},
		{"comment", "Syntax", "Comments", "Comments.", nil, "italic"},
		{"function", "Syntax", "Functions", "Function names, declared and called.", nil, ""},
		{"type", "Syntax", "Types", "Types, classes, interfaces, structs.", nil, ""},
		{"number", "Syntax", "Numbers", "Numeric literals.", nil, ""},
		{"constant", "Syntax", "Constants", "Constants and enum-like values.", nil, ""},
		{"variable", "Syntax", "Variables", "Variables and identifiers.", nil, ""},
		{"operator", "Syntax", "Operators", "Operators.", nil, ""},
		{"punctuation", "Syntax", "Punctuation", "Delimiters, brackets, separators.", same("syntax.operator"), ""},
		{"property", "Syntax", "Properties", "Object fields, members, struct keys.", same("syntax.variable"), ""},
		{"parameter", "Syntax", "Parameters", "Function parameters.", same("syntax.variable"), ""},
		{"builtinVariable", "Syntax", "Built-in variables", "self, this, super.", same("syntax.keyword"), ""},
		{"builtinConstant", "Syntax", "Built-in constants", "true, false, nil, null, None.", same("syntax.constant"), ""},
		{"boolean", "Syntax", "Booleans", "Boolean literals.", same("syntax.builtinConstant"), ""},
		{"character", "Syntax", "Characters", "Character literals.", same("syntax.string"), ""},
		{"escape", "Syntax", "Escapes", "Escape sequences inside strings.", same("syntax.constant"), ""},
		{"regexp", "Syntax", "Regular expressions", "Regular-expression literals.", same("syntax.string"), ""},
		{"method", "Syntax", "Methods", "Method names.", same("syntax.function"), ""},
		{"builtinFunction", "Syntax", "Built-in functions", "Functions of the language's standard library.", same("syntax.function"), ""},
		{"macro", "Syntax", "Macros", "Macros and preprocessor definitions.", same("syntax.constant"), ""},
		{"constructor", "Syntax", "Constructors", "Constructor calls and definitions.", same("syntax.type"), ""},
		{"builtinType", "Syntax", "Built-in types", "int, string, bool and other primitive types.", same("syntax.type"), ""},
		{"namespace", "Syntax", "Namespaces", "Modules, packages, namespaces.", same("syntax.type"), ""},
		{"label", "Syntax", "Labels", "Goto and loop labels.", same("syntax.keyword"), ""},
		{"tag", "Syntax", "Tags", "Markup tags (HTML, XML, JSX).", same("syntax.keyword"), ""},
		{"attribute", "Syntax", "Attributes", "Tag attributes, decorators, annotations.", same("syntax.constant"), ""},
		{"commentDoc", "Syntax", "Doc comments", "Documentation comments.", same("syntax.comment"), "italic"},
		{"heading", "Markup", "Headings", "Markup headings.", same("syntax.function"), "bold"},
		{"bold", "Markup", "Bold", "Markup bold (strong) text.", same("ui.text"), "bold"},
		{"italic", "Markup", "Italic", "Markup italic (emphasis) text.", same("ui.text"), "italic"},
		{"link", "Markup", "Links", "Markup link text and URLs.", same("terminal.link"), "underline"},
		{"quote", "Markup", "Quotes", "Block quotes.", same("ui.mutedText"), "italic"},
		{"code", "Markup", "Inline code", "Inline and fenced code in markup.", same("syntax.string"), ""},
		{"list", "Markup", "List markers", "Bullets and numbers of markup lists.", same("ui.accent"), ""},
		{"inserted", "Markup", "Diff: inserted", "Inserted lines in a diff file (+).", same("diff.added"), ""},
		{"deleted", "Markup", "Diff: deleted", "Deleted lines in a diff file (-).", same("diff.removed"), ""},
		{"changed", "Markup", "Diff: changed", "Changed lines in a diff file (!).", same("diff.changed"), ""},
		{"invalid", "Markup", "Invalid", "Code the grammar marks invalid.", same("diagnostic.error"), ""},
		{"deprecated", "Markup", "Deprecated", "Deprecated symbols.", same("ui.mutedText"), "strikethrough"},
	}},
	{"ansi", func() []roleDef {
		out := make([]roleDef, len(ANSINames))
		for i, n := range ANSINames {
			out[i] = roleDef{name: n, section: "ANSI colours", label: fmt.Sprintf("%d %s", i, ansiLabel(n)), help: fmt.Sprintf("Terminal colour %d.", i)}
		}
		return out
	}()},
}

func ansiLabel(n string) string {
	if rest, ok := strings.CutPrefix(n, "bright"); ok {
		return "bright " + strings.ToLower(rest)
	}
	return n
}

// The catalogue indexed; built in a variable initialiser (not init) so
// tables of other files that look roles up during their own
// initialisation see it.
var catalogueRoles, catalogueIndex, groupRoles = buildCatalogue()

func buildCatalogue() ([]RoleInfo, map[string]int, map[string][]string) {
	var roles []RoleInfo
	index := map[string]int{}
	groups := map[string][]string{}
	for _, g := range catalogue {
		for _, d := range g.roles {
			info := RoleInfo{
				Path: g.group + "." + d.name, Group: g.group, Section: d.section, Label: d.label, Help: d.help,
				Required: d.rule == nil, Rule: d.rule, Styled: g.group == "syntax", FontStyle: d.style,
			}
			if d.rule != nil {
				info.RuleText = d.rule.String()
			}
			index[info.Path] = len(roles)
			roles = append(roles, info)
			groups[g.group] = append(groups[g.group], d.name)
		}
	}
	return roles, index, groups
}

// Catalogue returns every role in document order, with its default rule
// and font style: what a colour editor lists and what "derive" may change.
func Catalogue() []RoleInfo {
	out := make([]RoleInfo, len(catalogueRoles))
	copy(out, catalogueRoles)
	for i := range out {
		if out[i].Rule != nil {
			r := *out[i].Rule
			out[i].Rule = &r
		}
	}
	return out
}

// RoleByPath finds a role of the catalogue.
func RoleByPath(path string) (RoleInfo, bool) {
	i, ok := catalogueIndex[path]
	if !ok {
		return RoleInfo{}, false
	}
	return catalogueRoles[i], true
}

// RolePaths lists every role of a theme by path, in document order:
// "ui.background" … "editor.lineHighlight" … "syntax.keyword" …
// "ansi.brightWhite". Contrast checks, importers and checkpoint
// comparisons use these names.
func RolePaths() []string {
	out := make([]string, len(catalogueRoles))
	for i, r := range catalogueRoles {
		out[i] = r.Path
	}
	return out
}

// CorePaths lists the required roles: the ones every document holds.
func CorePaths() []string {
	var out []string
	for _, r := range catalogueRoles {
		if r.Required {
			out = append(out, r.Path)
		}
	}
	return out
}

// GroupRoles lists the role names of one document object, in order.
func GroupRoles(group string) []string { return append([]string(nil), groupRoles[group]...) }
