package theme

import (
	"fmt"
	"strings"
)

// nvimGroup is one highlight group: fg/bg/sp name theme roles ("" for
// none), style is a comma list of nvim_set_hl booleans.
type nvimGroup struct {
	name, fg, bg, sp, style string
}

// nvimGroups are the built-in groups (:h highlight-groups, :h group-name)
// a colorscheme sets, with the roles that paint them.
var nvimGroups = []nvimGroup{
	{name: "Normal", fg: "ui.text", bg: "ui.background"},
	{name: "NormalNC", fg: "ui.text", bg: "ui.background"},
	{name: "NormalFloat", fg: "ui.text", bg: "ui.surface"},
	{name: "FloatBorder", fg: "ui.border", bg: "ui.surface"},
	{name: "Comment", fg: "syntax.comment", style: "italic"},
	{name: "Constant", fg: "syntax.constant"},
	{name: "String", fg: "syntax.string"},
	{name: "Character", fg: "syntax.string"},
	{name: "Number", fg: "syntax.number"},
	{name: "Float", fg: "syntax.number"},
	{name: "Boolean", fg: "syntax.constant"},
	{name: "Identifier", fg: "syntax.variable"},
	{name: "Function", fg: "syntax.function"},
	{name: "Statement", fg: "syntax.keyword"},
	{name: "Conditional", fg: "syntax.keyword"},
	{name: "Repeat", fg: "syntax.keyword"},
	{name: "Label", fg: "syntax.keyword"},
	{name: "Keyword", fg: "syntax.keyword"},
	{name: "Exception", fg: "syntax.keyword"},
	{name: "Operator", fg: "syntax.operator"},
	{name: "PreProc", fg: "syntax.keyword"},
	{name: "Include", fg: "syntax.keyword"},
	{name: "Define", fg: "syntax.keyword"},
	{name: "Macro", fg: "syntax.constant"},
	{name: "Type", fg: "syntax.type"},
	{name: "StorageClass", fg: "syntax.keyword"},
	{name: "Structure", fg: "syntax.type"},
	{name: "Typedef", fg: "syntax.type"},
	{name: "Special", fg: "syntax.constant"},
	{name: "SpecialChar", fg: "syntax.constant"},
	{name: "Delimiter", fg: "syntax.operator"},
	{name: "Tag", fg: "syntax.function"},
	{name: "Underlined", fg: "ui.accent", style: "underline"},
	{name: "Todo", fg: "ui.background", bg: "ui.warning", style: "bold"},
	{name: "Error", fg: "ui.error"},
	{name: "ErrorMsg", fg: "ui.error"},
	{name: "WarningMsg", fg: "ui.warning"},
	{name: "MoreMsg", fg: "ui.success"},
	{name: "ModeMsg", fg: "ui.text", style: "bold"},
	{name: "Question", fg: "ui.accent"},
	{name: "Title", fg: "ui.accent", style: "bold"},
	{name: "Directory", fg: "ui.accent"},
	{name: "LineNr", fg: "ui.mutedText"},
	{name: "CursorLineNr", fg: "ui.text", style: "bold"},
	{name: "CursorLine", bg: "ui.surface"},
	{name: "CursorColumn", bg: "ui.surface"},
	{name: "ColorColumn", bg: "ui.surface"},
	{name: "SignColumn", bg: "ui.background"},
	{name: "FoldColumn", fg: "ui.mutedText", bg: "ui.background"},
	{name: "Folded", fg: "ui.mutedText", bg: "ui.surface"},
	{name: "Visual", bg: "ui.selection"},
	{name: "Search", fg: "ui.background", bg: "ui.warning"},
	{name: "IncSearch", fg: "ui.background", bg: "ui.accent"},
	{name: "CurSearch", fg: "ui.background", bg: "ui.accent"},
	{name: "Substitute", fg: "ui.background", bg: "ui.error"},
	{name: "MatchParen", fg: "ui.accent", style: "bold"},
	{name: "Cursor", fg: "ui.background", bg: "ui.accent"},
	{name: "TermCursor", fg: "ui.background", bg: "ui.accent"},
	{name: "StatusLine", fg: "ui.text", bg: "ui.surface"},
	{name: "StatusLineNC", fg: "ui.mutedText", bg: "ui.surface"},
	{name: "WinSeparator", fg: "ui.border"},
	{name: "VertSplit", fg: "ui.border"},
	{name: "TabLine", fg: "ui.mutedText", bg: "ui.surface"},
	{name: "TabLineSel", fg: "ui.text", bg: "ui.background"},
	{name: "TabLineFill", bg: "ui.surface"},
	{name: "Pmenu", fg: "ui.text", bg: "ui.surface"},
	{name: "PmenuSel", fg: "ui.text", bg: "ui.selection"},
	{name: "PmenuSbar", bg: "ui.surface"},
	{name: "PmenuThumb", bg: "ui.border"},
	{name: "WildMenu", fg: "ui.text", bg: "ui.selection"},
	{name: "NonText", fg: "ui.border"},
	{name: "Whitespace", fg: "ui.border"},
	{name: "EndOfBuffer", fg: "ui.border"},
	{name: "SpecialKey", fg: "ui.border"},
	{name: "Conceal", fg: "ui.mutedText"},
	{name: "DiffAdd", fg: "ui.success"},
	{name: "DiffChange", fg: "ui.warning"},
	{name: "DiffDelete", fg: "ui.error"},
	{name: "DiffText", fg: "ui.background", bg: "ui.warning"},
	{name: "diffAdded", fg: "ui.success"},
	{name: "diffRemoved", fg: "ui.error"},
	{name: "DiagnosticError", fg: "ui.error"},
	{name: "DiagnosticWarn", fg: "ui.warning"},
	{name: "DiagnosticInfo", fg: "ui.accent"},
	{name: "DiagnosticHint", fg: "ui.mutedText"},
	{name: "DiagnosticUnderlineError", sp: "ui.error", style: "undercurl"},
	{name: "DiagnosticUnderlineWarn", sp: "ui.warning", style: "undercurl"},
	{name: "SpellBad", sp: "ui.error", style: "undercurl"},
	{name: "SpellCap", sp: "ui.warning", style: "undercurl"},
	{name: "SpellRare", sp: "ui.accent", style: "undercurl"},
	{name: "SpellLocal", sp: "ui.accent", style: "undercurl"},
}

// nvimCaptures link tree-sitter captures (Neovim 0.8+, where "@" names
// exist) to the groups above.
var nvimCaptures = [][2]string{
	{"@comment", "Comment"}, {"@keyword", "Keyword"}, {"@keyword.function", "Keyword"},
	{"@keyword.return", "Keyword"}, {"@conditional", "Conditional"}, {"@repeat", "Repeat"},
	{"@include", "Include"}, {"@string", "String"}, {"@string.escape", "SpecialChar"},
	{"@character", "Character"}, {"@number", "Number"}, {"@float", "Float"}, {"@boolean", "Boolean"},
	{"@constant", "Constant"}, {"@constant.builtin", "Constant"}, {"@function", "Function"},
	{"@function.call", "Function"}, {"@function.builtin", "Function"}, {"@method", "Function"},
	{"@method.call", "Function"}, {"@constructor", "Type"}, {"@type", "Type"}, {"@type.builtin", "Type"},
	{"@variable", "Identifier"}, {"@parameter", "Identifier"}, {"@property", "Identifier"},
	{"@field", "Identifier"}, {"@operator", "Operator"}, {"@punctuation", "Delimiter"},
	{"@punctuation.bracket", "Delimiter"}, {"@punctuation.delimiter", "Delimiter"}, {"@tag", "Tag"},
}

// renderNeovim writes a Lua colorscheme for Neovim 0.7+: colors/{slug}.lua,
// loaded with :colorscheme {slug}. Neovim draws no alpha, so colours are
// flattened; the 16 ANSI colours go to the built-in terminal.
func renderNeovim(t *Theme) (map[string][]byte, error) {
	slug := Slug(t.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "-- %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "-- Put this file in ~/.config/nvim/colors/ and run :colorscheme %s\n", slug)
	b.WriteString("vim.cmd('highlight clear')\n")
	b.WriteString("if vim.fn.exists('syntax_on') == 1 then vim.cmd('syntax reset') end\n")
	fmt.Fprintf(&b, "vim.o.background = '%s'\n", t.Appearance)
	fmt.Fprintf(&b, "vim.g.colors_name = '%s'\n\n", slug)
	b.WriteString("local hl = function(name, val) vim.api.nvim_set_hl(0, name, val) end\n")
	col := func(role string) string { return t.seen(t.Color(role)).Hex() }
	for _, g := range nvimGroups {
		var parts []string
		if g.fg != "" {
			parts = append(parts, fmt.Sprintf("fg = '%s'", col(g.fg)))
		}
		if g.bg != "" {
			parts = append(parts, fmt.Sprintf("bg = '%s'", col(g.bg)))
		}
		if g.sp != "" {
			parts = append(parts, fmt.Sprintf("sp = '%s'", col(g.sp)))
		}
		if g.style != "" {
			for _, s := range strings.Split(g.style, ",") {
				parts = append(parts, s+" = true")
			}
		}
		fmt.Fprintf(&b, "hl('%s', { %s })\n", g.name, strings.Join(parts, ", "))
	}
	b.WriteString("\nif vim.fn.has('nvim-0.8') == 1 then\n")
	for _, c := range nvimCaptures {
		fmt.Fprintf(&b, "  hl('%s', { link = '%s' })\n", c[0], c[1])
	}
	b.WriteString("end\n\n")
	for i, c := range t.ANSI {
		fmt.Fprintf(&b, "vim.g.terminal_color_%d = '%s'\n", i, t.seen(c).Hex())
	}
	return map[string][]byte{"colors/" + slug + ".lua": []byte(b.String())}, nil
}
