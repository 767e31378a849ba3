package theme

import (
	"fmt"
	"strings"
)

// nvimGroup is one highlight group. fg/bg/sp name catalogue roles ("" for
// none); style is a comma list of nvim_set_hl booleans; font names a
// syntax role whose font style (bold, italic, underline, strikethrough)
// the group takes; link makes the group follow another instead.
type nvimGroup struct {
	name, fg, bg, sp, style, font, link string
}

// Constructors keeping the tables below one line a group.
func nvc(name, fg, bg, style string) nvimGroup {
	return nvimGroup{name: name, fg: fg, bg: bg, style: style}
}
func nvl(name, to string) nvimGroup { return nvimGroup{name: name, link: to} }

// nvs paints a group with a syntax role: its colour and font style.
func nvs(name, role string) nvimGroup {
	return nvimGroup{name: name, fg: "syntax." + role, font: "syntax." + role}
}

// nvu underlines (style) in a role's colour, text colour untouched.
func nvu(name, sp, style string) nvimGroup { return nvimGroup{name: name, sp: sp, style: style} }

// nvimEditor are Neovim's built-in UI groups (:h highlight-groups, 0.10).
// The Vim syntax groups (:h group-name) come from syntaxMap.
var nvimEditor = []nvimGroup{
	nvc("Normal", "ui.text", "ui.background", ""),
	nvc("NormalNC", "ui.text", "ui.background", ""),
	nvc("NormalFloat", "ui.text", "ui.surface", ""),
	nvc("FloatBorder", "ui.border", "ui.surface", ""),
	nvc("FloatTitle", "ui.accent", "ui.surface", "bold"),
	nvl("FloatFooter", "FloatTitle"),
	nvc("ColorColumn", "", "editor.ruler", ""),
	nvc("Conceal", "ui.mutedText", "", ""),
	nvc("Cursor", "terminal.cursorText", "terminal.cursor", ""),
	nvl("lCursor", "Cursor"),
	nvl("CursorIM", "Cursor"),
	nvl("TermCursor", "Cursor"),
	nvc("TermCursorNC", "", "ui.border", ""),
	nvc("CursorColumn", "", "editor.lineHighlight", ""),
	nvc("CursorLine", "", "editor.lineHighlight", ""),
	nvc("Directory", "ui.accent", "", ""),
	nvc("DiffAdd", "", "diff.addedLine", ""),
	nvc("DiffChange", "", "diff.changedLine", ""),
	nvc("DiffDelete", "diff.removed", "diff.removedLine", ""),
	nvc("DiffText", "", "diff.changedText", ""),
	nvc("EndOfBuffer", "editor.whitespace", "", ""),
	nvc("ErrorMsg", "ui.error", "", ""),
	nvc("WarningMsg", "ui.warning", "", ""),
	nvc("MoreMsg", "ui.success", "", ""),
	nvc("ModeMsg", "ui.text", "", "bold"),
	nvl("MsgArea", "Normal"),
	nvl("MsgSeparator", "WinSeparator"),
	nvc("Question", "ui.accent", "", ""),
	nvc("WinSeparator", "ui.border", "", ""),
	nvl("VertSplit", "WinSeparator"),
	nvc("Folded", "ui.mutedText", "ui.surface", ""),
	nvc("FoldColumn", "editor.lineNumber", "editor.gutter", ""),
	nvc("SignColumn", "editor.lineNumber", "editor.gutter", ""),
	nvc("LineNr", "editor.lineNumber", "editor.gutter", ""),
	nvl("LineNrAbove", "LineNr"),
	nvl("LineNrBelow", "LineNr"),
	nvc("CursorLineNr", "editor.lineNumberActive", "editor.lineHighlight", "bold"),
	nvc("CursorLineFold", "editor.lineNumber", "editor.lineHighlight", ""),
	nvc("CursorLineSign", "", "editor.lineHighlight", ""),
	nvc("Search", "ui.text", "editor.findMatchHighlight", ""),
	nvc("CurSearch", "ui.text", "editor.findMatch", "bold"),
	nvl("IncSearch", "CurSearch"),
	nvc("Substitute", "ui.background", "ui.error", ""),
	nvc("MatchParen", "ui.accent", "editor.bracketMatch", "bold"),
	nvl("MatchWord", "MatchParen"),
	nvc("NonText", "editor.whitespace", "", ""),
	nvc("Whitespace", "editor.whitespace", "", ""),
	nvc("SpecialKey", "editor.whitespace", "", ""),
	nvc("Pmenu", "ui.text", "ui.surface", ""),
	nvc("PmenuSel", "terminal.selectionText", "ui.selection", "bold"),
	nvl("PmenuKind", "Pmenu"),
	nvl("PmenuKindSel", "PmenuSel"),
	nvc("PmenuExtra", "ui.mutedText", "ui.surface", ""),
	nvc("PmenuExtraSel", "ui.mutedText", "ui.selection", ""),
	nvc("PmenuSbar", "", "ui.surface", ""),
	nvc("PmenuThumb", "", "editor.scrollbar", ""),
	nvc("PmenuMatch", "ui.accent", "ui.surface", "bold"),
	nvc("PmenuMatchSel", "ui.accent", "ui.selection", "bold"),
	nvc("ComplMatchIns", "ui.mutedText", "", ""),
	nvl("WildMenu", "PmenuSel"),
	nvl("Menu", "Pmenu"),
	nvl("Scrollbar", "PmenuSbar"),
	nvl("Tooltip", "NormalFloat"),
	nvc("QuickFixLine", "", "ui.selection", "bold"),
	nvc("SnippetTabstop", "", "editor.wordHighlight", ""),
	nvu("SpellBad", "diagnostic.error", "undercurl"),
	nvu("SpellCap", "diagnostic.warning", "undercurl"),
	nvu("SpellLocal", "diagnostic.info", "undercurl"),
	nvu("SpellRare", "diagnostic.hint", "undercurl"),
	nvc("StatusLine", "ui.text", "ui.surface", ""),
	nvc("StatusLineNC", "ui.mutedText", "ui.surface", ""),
	nvl("StatusLineTerm", "StatusLine"),
	nvl("StatusLineTermNC", "StatusLineNC"),
	nvc("TabLine", "ui.mutedText", "ui.surface", ""),
	nvc("TabLineFill", "", "ui.surface", ""),
	nvc("TabLineSel", "ui.text", "ui.background", "bold"),
	nvc("WinBar", "ui.text", "ui.background", "bold"),
	nvc("WinBarNC", "ui.mutedText", "ui.background", ""),
	nvc("Title", "ui.accent", "", "bold"),
	nvc("Visual", "", "ui.selection", ""),
	nvc("VisualNOS", "", "editor.inactiveSelection", ""),
	nvc("Todo", "ui.background", "ui.warning", "bold"),
	nvc("Debug", "ui.warning", "", ""),
	nvc("Ignore", "ui.mutedText", "", ""),
	nvc("FloatShadow", "", "editor.shadow", ""),
	nvc("FloatShadowThrough", "", "editor.shadow", ""),
	nvc("healthError", "ui.error", "", ""),
	nvc("healthWarning", "ui.warning", "", ""),
	nvc("healthSuccess", "ui.success", "", ""),
	nvc("NvimInternalError", "ui.background", "ui.error", ""),
	nvc("RedrawDebugNormal", "", "", "reverse"),
	nvc("RedrawDebugClear", "", "ui.warning", ""),
	nvc("RedrawDebugComposed", "", "ui.success", ""),
	nvc("RedrawDebugRecompose", "", "ui.error", ""),
	// The built-in LSP client (:h lsp-highlight).
	nvc("LspReferenceText", "", "editor.wordHighlight", ""),
	nvl("LspReferenceRead", "LspReferenceText"),
	nvc("LspReferenceWrite", "", "editor.wordHighlight", "underline"),
	nvl("LspReferenceTarget", "LspReferenceText"),
	nvc("LspInlayHint", "editor.inlayHint", "editor.inlayHintBackground", ""),
	nvc("LspCodeLens", "editor.inlayHint", "", ""),
	nvc("LspCodeLensSeparator", "ui.border", "", ""),
	nvc("LspSignatureActiveParameter", "ui.accent", "", "bold,underline"),
	nvl("LspInfoBorder", "FloatBorder"),
	// Diff groups of the diff syntax and the 0.10 Added/Changed/Removed
	// are syntax roles (syntaxMap); the gutter signs other plugins read:
	nvc("GitAddSign", "diff.added", "editor.gutter", ""),
	nvc("GitChangeSign", "diff.changed", "editor.gutter", ""),
	nvc("GitDeleteSign", "diff.removed", "editor.gutter", ""),
	nvc("GitChangeDeleteSign", "diff.changed", "editor.gutter", ""),
}

// nvimDiagnostics are the diagnostic groups (:h diagnostic-highlights) of
// each level, from the diagnostic roles; Ok has none and takes success.
func nvimDiagnostics() []nvimGroup {
	var out []nvimGroup
	for _, l := range [][2]string{{"Error", "diagnostic.error"}, {"Warn", "diagnostic.warning"}, {"Info", "diagnostic.info"}, {"Hint", "diagnostic.hint"}, {"Ok", "ui.success"}} {
		n, role := l[0], l[1]
		out = append(out,
			nvc("Diagnostic"+n, role, "", ""),
			nvu("DiagnosticUnderline"+n, role, "undercurl"),
			nvc("DiagnosticVirtualText"+n, role, "", "italic"),
			nvl("DiagnosticVirtualLines"+n, "DiagnosticVirtualText"+n),
			nvc("DiagnosticSign"+n, role, "editor.gutter", ""),
			nvc("DiagnosticFloating"+n, role, "ui.surface", ""),
		)
	}
	return append(out,
		nvimGroup{name: "DiagnosticDeprecated", sp: "syntax.deprecated", style: "strikethrough"},
		nvc("DiagnosticUnnecessary", "diagnostic.unnecessary", "", ""),
	)
}

// nvimCaptureExtras are 0.10 captures no syntax role stands for: comment
// annotations and tag delimiters.
var nvimCaptureExtras = []nvimGroup{
	nvc("@comment.error", "diagnostic.error", "", "bold"),
	nvc("@comment.warning", "diagnostic.warning", "", "bold"),
	nvc("@comment.note", "diagnostic.info", "", "bold"),
	nvl("@comment.todo", "Todo"),
	nvs("@tag.delimiter", "punctuation"),
	nvl("@conceal", "Conceal"),
	nvl("@keyword.ternary", "@keyword.conditional.ternary"),
	nvl("@ibl.indent.char", "IblIndent"),
	// pre-0.10 names of these.
	nvl("@text.todo", "@comment.todo"), nvl("@text.note", "@comment.note"),
	nvl("@text.warning", "@comment.warning"), nvl("@text.danger", "@comment.error"),
	nvl("@text.todo.checked", "@markup.list.checked"), nvl("@text.todo.unchecked", "@markup.list.unchecked"),
	nvl("@conditional.ternary", "@keyword.conditional.ternary"),
}

// nvimLSPExtras are semantic token groups (:h lsp-semantic-highlight) of
// types and modifiers outside the LSP standard set, as rust-analyzer and
// lua-language-server send them; the standard ones come from syntaxMap.
var nvimLSPExtras = []nvimGroup{
	nvs("@lsp.type.event", "type"),
	nvs("@lsp.type.builtinType", "builtinType"),
	nvs("@lsp.type.boolean", "boolean"),
	nvs("@lsp.type.builtinConstant", "builtinConstant"),
	nvs("@lsp.type.escapeSequence", "escape"),
	nvs("@lsp.type.formatSpecifier", "escape"),
	nvs("@lsp.type.selfKeyword", "builtinVariable"),
	nvs("@lsp.type.selfTypeKeyword", "builtinType"),
	nvs("@lsp.type.lifetime", "label"),
	nvs("@lsp.type.deriveHelper", "attribute"),
	nvs("@lsp.type.generic", "type"),
	nvs("@lsp.type.punctuation", "punctuation"),
	nvu("@lsp.type.unresolvedReference", "diagnostic.error", "undercurl"),
	nvl("@lsp.type.builtinType.rust", "@lsp.type.builtinType"),
	nvl("@lsp.type.escapeSequence.rust", "@lsp.type.escapeSequence"),
	nvl("@lsp.type.formatSpecifier.rust", "@lsp.type.formatSpecifier"),
	nvl("@lsp.type.lifetime.rust", "@lsp.type.lifetime"),
	nvl("@lsp.type.punctuation.rust", "@lsp.type.punctuation"),
	nvl("@lsp.type.selfKeyword.rust", "@lsp.type.selfKeyword"),
	nvl("@lsp.type.selfTypeKeyword.rust", "@lsp.type.selfTypeKeyword"),
	nvs("@lsp.mod.controlFlow", "keyword"),
	nvs("@lsp.mod.intraDocLink.rust", "link"),
	nvs("@lsp.typemod.function.associated.rust", "method"),
	nvs("@lsp.typemod.generic.injected.rust", "type"),
	nvs("@lsp.typemod.operator.controlFlow.rust", "operator"),
	nvs("@lsp.typemod.keyword.documentation.lua", "tag"),
	nvs("@lsp.typemod.variable.static", "constant"),
	nvs("@lsp.typemod.enum.defaultLibrary", "builtinType"),
	nvs("@lsp.typemod.enumMember.defaultLibrary", "builtinConstant"),
	nvs("@lsp.typemod.method.defaultLibrary", "builtinFunction"),
}

// nvimKinds are the LSP CompletionItemKind names completion menus colour,
// with the role each takes.
var nvimKinds = [][2]string{
	{"Text", "ui.text"}, {"Method", "syntax.method"}, {"Function", "syntax.function"}, {"Constructor", "syntax.constructor"},
	{"Field", "syntax.property"}, {"Variable", "syntax.variable"}, {"Class", "syntax.type"}, {"Interface", "syntax.type"},
	{"Module", "syntax.namespace"}, {"Property", "syntax.property"}, {"Unit", "syntax.number"}, {"Value", "syntax.constant"},
	{"Enum", "syntax.type"}, {"Keyword", "syntax.keyword"}, {"Snippet", "ui.accent"}, {"Color", "syntax.constant"},
	{"File", "ui.text"}, {"Reference", "syntax.variable"}, {"Folder", "ui.accent"}, {"EnumMember", "syntax.constant"},
	{"Constant", "syntax.constant"}, {"Struct", "syntax.type"}, {"Event", "syntax.type"}, {"Operator", "syntax.operator"},
	{"TypeParameter", "syntax.type"},
}

// nvimLegacySyntax are the language-specific Vim syntax groups whose
// defaults link to the wrong generic group, as tinted-vim sets them.
var nvimLegacySyntax = []nvimGroup{
	nvs("cOperator", "operator"), nvs("cPreCondit", "macro"),
	nvs("csAttribute", "attribute"), nvs("csClass", "type"), nvs("csContextualStatement", "keyword"), nvs("csModifier", "keyword"),
	nvs("csNewDecleration", "keyword"), nvs("csType", "builtinType"), nvs("csUnspecifiedStatement", "keyword"),
	nvs("cssBraces", "punctuation"), nvs("cssClassName", "type"), nvs("cssColor", "constant"),
	nvs("gitcommitBranch", "constant"), nvs("gitcommitComment", "comment"), nvs("gitcommitDiscarded", "comment"),
	nvs("gitcommitDiscardedFile", "deleted"), nvs("gitcommitDiscardedType", "deleted"), nvs("gitcommitHeader", "keyword"),
	nvc("gitcommitOverflow", "ui.error", "", ""), nvs("gitcommitSelected", "comment"), nvs("gitcommitSelectedFile", "inserted"),
	nvs("gitcommitSelectedType", "inserted"), nvs("gitcommitSummary", "heading"), nvs("gitcommitUnmergedFile", "changed"),
	nvs("gitcommitUnmergedType", "changed"), nvs("gitcommitUntracked", "comment"), nvs("gitcommitUntrackedFile", "changed"),
	nvs("htmlBold", "bold"), nvs("htmlItalic", "italic"), nvs("htmlEndTag", "punctuation"), nvs("htmlTag", "punctuation"),
	nvs("htmlTagName", "tag"), nvs("htmlArg", "attribute"), nvs("htmlH1", "heading"), nvs("htmlLink", "link"),
	nvs("javaOperator", "operator"), nvs("javaScript", "variable"), nvs("javaScriptBraces", "punctuation"), nvs("javaScriptNumber", "number"),
	nvs("jsBuiltins", "builtinFunction"), nvs("jsClassDefinition", "type"), nvs("jsClassFuncName", "method"),
	nvs("jsClassMethodType", "keyword"), nvs("jsExceptions", "builtinType"), nvs("jsFuncCall", "function"), nvs("jsFuncName", "function"),
	nvs("jsFunction", "keyword"), nvs("jsGlobalNodeObjects", "builtinVariable"), nvs("jsGlobalObjects", "builtinType"),
	nvs("jsOperator", "operator"), nvs("jsRegexpString", "regexp"), nvs("jsReturn", "keyword"), nvs("jsStatement", "keyword"),
	nvs("jsThis", "builtinVariable"),
	nvs("mailQuoted1", "quote"), nvs("mailQuoted2", "string"), nvs("mailQuoted3", "type"), nvs("mailQuoted4", "function"),
	nvs("mailQuoted5", "keyword"), nvs("mailQuoted6", "constant"), nvs("mailURL", "link"), nvs("mailEmail", "link"),
	nvs("markdownCode", "code"), nvs("markdownCodeBlock", "code"), nvs("markdownError", "punctuation"),
	nvs("markdownHeadingDelimiter", "heading"), nvs("markdownH1", "heading"), nvs("markdownH2", "heading"), nvs("markdownH3", "heading"),
	nvs("markdownBold", "bold"), nvs("markdownItalic", "italic"), nvs("markdownLinkText", "link"), nvs("markdownUrl", "link"),
	nvs("markdownListMarker", "list"), nvs("markdownBlockquote", "quote"),
	nvs("phpComparison", "operator"), nvs("phpMemberSelector", "operator"), nvs("phpMethodsVar", "property"), nvs("phpParent", "punctuation"),
	nvs("pythonInclude", "keyword"), nvs("pythonOperator", "operator"), nvs("pythonRepeat", "keyword"), nvs("pythonStatement", "keyword"),
	nvs("pythonBuiltin", "builtinFunction"), nvs("pythonDecorator", "attribute"),
	nvs("rubyAttribute", "attribute"), nvs("rubyConstant", "type"), nvs("rubyInterpolationDelimiter", "escape"),
	nvs("rubyRegexp", "regexp"), nvs("rubyStringDelimiter", "string"), nvs("rubySymbol", "constant"),
	nvs("sassClassChar", "type"), nvs("sassInclude", "keyword"), nvs("sassMixinName", "function"), nvs("sassMixing", "keyword"),
	nvs("sassidChar", "constant"),
	nvs("luaFunction", "keyword"), nvs("luaTable", "punctuation"), nvs("luaFunc", "builtinFunction"), nvs("luaConstant", "builtinConstant"),
	nvs("vimCommand", "keyword"), nvs("vimFunction", "function"),
	nvs("xmlTag", "punctuation"), nvs("xmlTagName", "tag"), nvs("xmlAttrib", "attribute"),
	nvs("yamlKey", "property"), nvs("jsonKeyword", "property"), nvs("tomlKey", "property"), nvs("shDerefSimple", "variable"),
}

// nvimLanguageSyntax give the groups of the syntax files Vim and Neovim
// ship the role the VS Code grammars give the same tokens (issue #39: the
// consistency test compares every character); without them a group keeps
// its default link, which often names another role (typescriptBraces →
// Function, typescriptExport → Special, goType → Type for built-ins).
var nvimLanguageSyntax = []nvimGroup{
	// Go (syntax/go.vim)
	nvs("goType", "builtinType"), nvs("goSignedInts", "builtinType"), nvs("goUnsignedInts", "builtinType"),
	nvs("goFloats", "builtinType"), nvs("goComplexes", "builtinType"), nvs("goBuiltins", "builtinFunction"),
	nvs("goPredefinedIdentifiers", "builtinConstant"), nvs("goFormatSpecifier", "escape"),
	// Python (syntax/python.vim); pythonBuiltin is split by nvimSyntaxSplits.
	nvs("pythonExceptions", "builtinType"), nvs("pythonQuotes", "string"), nvs("pythonTripleQuotes", "string"),
	// Rust (syntax/rust.vim)
	nvs("rustType", "builtinType"), nvs("rustSelf", "builtinVariable"), nvs("rustModPath", "namespace"),
	nvs("rustStorage", "keyword"), nvs("rustMacro", "macro"), nvs("rustAttribute", "attribute"), nvs("rustDerive", "attribute"),
	nvs("rustOperator", "operator"), nvs("rustArrowCharacter", "operator"), nvs("rustSigil", "operator"),
	nvs("rustFuncCall", "function"), nvs("rustFuncName", "function"),
	// TypeScript (syntax/typescriptcommon.vim)
	nvs("typescriptImport", "keyword"), nvs("typescriptExport", "keyword"), nvs("typescriptImportType", "keyword"),
	nvs("typescriptExportType", "keyword"), nvs("typescriptCastKeyword", "keyword"), nvs("typescriptModule", "keyword"),
	nvs("typescriptTry", "keyword"), nvs("typescriptExceptions", "keyword"), nvs("typescriptAmbientDeclaration", "keyword"),
	nvs("typescriptAbstract", "keyword"), nvs("typescriptEnumKeyword", "keyword"), nvs("typescriptVariable", "keyword"),
	nvs("typescriptArrowFunc", "keyword"), nvs("typescriptIdentifier", "builtinVariable"),
	nvs("typescriptPredefinedType", "builtinType"), nvs("typescriptTypeReference", "type"), nvs("typescriptClassName", "type"),
	nvs("typescriptInterfaceName", "type"), nvs("typescriptAliasDeclaration", "type"), nvs("typescriptTypeParameter", "type"),
	nvs("typescriptClassHeritage", "type"), nvs("typescriptInterfaceHeritage", "type"),
	nvs("typescriptMember", "property"), nvs("typescriptObjectLabel", "property"), nvs("typescriptFuncName", "function"),
	nvs("typescriptCall", "parameter"), nvs("typescriptFuncArg", "parameter"), nvs("typescriptArrowFuncArg", "parameter"),
	nvs("typescriptParamImpl", "parameter"), nvs("typescriptDestructureVariable", "variable"),
	nvs("typescriptBraces", "punctuation"), nvs("typescriptParens", "punctuation"), nvs("typescriptEndColons", "punctuation"),
	nvs("typescriptTemplateSB", "punctuation"), nvs("typescriptOperator", "operator"), nvs("typescriptKeywordOp", "operator"),
	nvs("typescriptOptionalMark", "operator"), nvs("typescriptNull", "builtinConstant"), nvs("typescriptRegexpString", "regexp"),
	nvs("typescriptTemplate", "string"), nvs("typescriptGlobal", "type"),
	nvs("typescriptStringMethod", "function"), nvs("typescriptArrayMethod", "function"), nvs("typescriptArrayStaticMethod", "function"),
	nvs("typescriptObjectMethod", "function"), nvs("typescriptObjectStaticMethod", "function"), nvs("typescriptNumberMethod", "function"),
	nvs("typescriptMathStaticMethod", "function"), nvs("typescriptJSONStaticMethod", "function"), nvs("typescriptPromiseMethod", "function"),
	nvs("typescriptES6MapMethod", "function"), nvs("typescriptES6SetMethod", "function"), nvs("typescriptFunctionMethod", "function"),
	nvs("typescriptDateMethod", "function"), nvs("typescriptRegExpMethod", "function"), nvs("typescriptGlobalMethod", "function"),
	// Shell (syntax/sh.vim)
	nvs("shQuote", "string"), nvs("bashStatement", "builtinFunction"), nvs("shRedir", "operator"), nvs("shTestOpr", "operator"),
	nvs("shSetList", "variable"), nvs("shVariable", "variable"), nvs("shSnglCase", "punctuation"),
	// Markdown (syntax/markdown.vim)
	nvs("markdownCodeDelimiter", "punctuation"), nvs("markdownOrderedListMarker", "list"), nvs("markdownLinkTextDelimiter", "punctuation"),
	nvs("markdownLinkDelimiter", "punctuation"), nvs("markdownHeadingRule", "heading"), nvs("markdownH4", "heading"),
	nvs("markdownH5", "heading"), nvs("markdownH6", "heading"),
}

// nvimSyntaxSplits are tokens Vim's syntax files put in a group of
// another role than the VS Code grammars give them: pythonBuiltin holds
// None and True (constants) and int and str (types) beside len and print
// (functions); python.vim has no docstrings (strings there, documentation
// comments in VS Code and bat); rust.vim's rustOperator holds the keyword
// "as". The colorscheme adds syntax groups of its own for them when the
// filetype's syntax loads (a later keyword, or a later item starting at
// the same place, wins), named cdx<Lang><Role>.
var nvimSyntaxSplits = []struct {
	filetype, group, role string
	kind, args            string // the :syntax command's kind and what follows the group name
}{
	{"python", "cdxPythonConstant", "builtinConstant", "keyword", "False True None NotImplemented Ellipsis __debug__"},
	{"python", "cdxPythonType", "builtinType", "keyword", "bool bytearray bytes classmethod complex dict float frozenset int list memoryview object property set slice staticmethod str super tuple type"},
	// A string that is a statement of its own (first on its line) is a
	// docstring.
	{"python", "cdxPythonDocstring", "commentDoc", "region", `start=+^\s*[rRuU]\=\z('''\|"""\)+ end=+\z1+ keepend`},
	{"rust", "cdxRustAs", "keyword", "keyword", "as"},
}

// nvimPlugins are the highlight groups of the common plugins, by the
// names each plugin documents, mostly following the groups above so a
// user's override of one follows through.
func nvimPlugins() []nvimGroup {
	out := []nvimGroup{
		// gitsigns.nvim
		nvc("GitSignsAdd", "diff.added", "editor.gutter", ""),
		nvc("GitSignsChange", "diff.changed", "editor.gutter", ""),
		nvc("GitSignsDelete", "diff.removed", "editor.gutter", ""),
		nvl("GitSignsChangedelete", "GitSignsChange"),
		nvl("GitSignsTopdelete", "GitSignsDelete"),
		nvl("GitSignsUntracked", "GitSignsAdd"),
		nvc("GitSignsAddNr", "diff.added", "", ""),
		nvc("GitSignsChangeNr", "diff.changed", "", ""),
		nvc("GitSignsDeleteNr", "diff.removed", "", ""),
		nvl("GitSignsAddLn", "DiffAdd"),
		nvl("GitSignsChangeLn", "DiffChange"),
		nvl("GitSignsDeleteLn", "DiffDelete"),
		nvc("GitSignsAddInline", "", "diff.addedText", ""),
		nvc("GitSignsChangeInline", "", "diff.changedText", ""),
		nvc("GitSignsDeleteInline", "", "diff.removedText", ""),
		nvl("GitSignsAddLnInline", "GitSignsAddInline"),
		nvl("GitSignsChangeLnInline", "GitSignsChangeInline"),
		nvl("GitSignsDeleteLnInline", "GitSignsDeleteInline"),
		nvl("GitSignsDeleteVirtLn", "DiffDelete"),
		nvl("GitSignsDeleteVirtLnInline", "GitSignsDeleteInline"),
		nvl("GitSignsAddPreview", "DiffAdd"),
		nvl("GitSignsDeletePreview", "DiffDelete"),
		nvc("GitSignsCurrentLineBlame", "editor.inlayHint", "", "italic"),
		nvl("GitSignsStagedAdd", "GitSignsAddNr"),
		nvl("GitSignsStagedChange", "GitSignsChangeNr"),
		nvl("GitSignsStagedDelete", "GitSignsDeleteNr"),
		// vim-gitgutter, vim-signify
		nvl("GitGutterAdd", "GitSignsAdd"), nvl("GitGutterChange", "GitSignsChange"),
		nvl("GitGutterDelete", "GitSignsDelete"), nvl("GitGutterChangeDelete", "GitSignsChange"),
		nvl("SignifySignAdd", "GitSignsAdd"), nvl("SignifySignChange", "GitSignsChange"), nvl("SignifySignDelete", "GitSignsDelete"),
		// telescope.nvim
		nvl("TelescopeNormal", "NormalFloat"),
		nvl("TelescopeBorder", "FloatBorder"),
		nvl("TelescopeTitle", "FloatTitle"),
		nvc("TelescopeSelection", "terminal.selectionText", "ui.selection", ""),
		nvc("TelescopeSelectionCaret", "ui.accent", "ui.selection", "bold"),
		nvc("TelescopeMultiSelection", "ui.accent", "", ""),
		nvc("TelescopeMultiIcon", "ui.accent", "", ""),
		nvc("TelescopeMatching", "ui.accent", "", "bold"),
		nvl("TelescopePromptNormal", "NormalFloat"),
		nvl("TelescopePromptBorder", "FloatBorder"),
		nvl("TelescopePromptTitle", "FloatTitle"),
		nvc("TelescopePromptPrefix", "ui.accent", "ui.surface", ""),
		nvc("TelescopePromptCounter", "ui.mutedText", "ui.surface", ""),
		nvl("TelescopeResultsNormal", "NormalFloat"),
		nvl("TelescopeResultsBorder", "FloatBorder"),
		nvl("TelescopeResultsTitle", "FloatTitle"),
		nvl("TelescopePreviewNormal", "NormalFloat"),
		nvl("TelescopePreviewBorder", "FloatBorder"),
		nvl("TelescopePreviewTitle", "FloatTitle"),
		nvl("TelescopePreviewLine", "Visual"),
		nvl("TelescopePreviewMatch", "Search"),
		// nvim-cmp
		nvc("CmpItemAbbr", "ui.text", "", ""),
		nvs("CmpItemAbbrDeprecated", "deprecated"),
		nvc("CmpItemAbbrMatch", "ui.accent", "", "bold"),
		nvc("CmpItemAbbrMatchFuzzy", "ui.accent", "", ""),
		nvc("CmpItemMenu", "ui.mutedText", "", ""),
		nvc("CmpItemKind", "syntax.type", "", ""),
		nvl("CmpItemKindDefault", "CmpItemKind"),
		nvc("CmpGhostText", "editor.inlayHint", "", "italic"),
		// blink.cmp
		nvl("BlinkCmpMenu", "Pmenu"),
		nvl("BlinkCmpMenuBorder", "FloatBorder"),
		nvl("BlinkCmpMenuSelection", "PmenuSel"),
		nvl("BlinkCmpScrollBarThumb", "PmenuThumb"),
		nvl("BlinkCmpScrollBarGutter", "PmenuSbar"),
		nvl("BlinkCmpLabel", "CmpItemAbbr"),
		nvl("BlinkCmpLabelDeprecated", "CmpItemAbbrDeprecated"),
		nvl("BlinkCmpLabelMatch", "CmpItemAbbrMatch"),
		nvl("BlinkCmpLabelDetail", "CmpItemMenu"),
		nvl("BlinkCmpLabelDescription", "CmpItemMenu"),
		nvl("BlinkCmpKind", "CmpItemKind"),
		nvl("BlinkCmpSource", "CmpItemMenu"),
		nvl("BlinkCmpGhostText", "CmpGhostText"),
		nvl("BlinkCmpDoc", "NormalFloat"),
		nvl("BlinkCmpDocBorder", "FloatBorder"),
		nvl("BlinkCmpDocSeparator", "FloatBorder"),
		nvl("BlinkCmpDocCursorLine", "Visual"),
		nvl("BlinkCmpSignatureHelp", "NormalFloat"),
		nvl("BlinkCmpSignatureHelpBorder", "FloatBorder"),
		nvl("BlinkCmpSignatureHelpActiveParameter", "LspSignatureActiveParameter"),
		// which-key.nvim
		nvc("WhichKey", "ui.accent", "", "bold"),
		nvs("WhichKeyGroup", "keyword"),
		nvc("WhichKeyDesc", "ui.text", "", ""),
		nvc("WhichKeySeparator", "ui.mutedText", "", ""),
		nvc("WhichKeyValue", "ui.mutedText", "", ""),
		nvc("WhichKeyIcon", "ui.accent", "", ""),
		nvl("WhichKeyNormal", "NormalFloat"),
		nvl("WhichKeyFloat", "NormalFloat"),
		nvl("WhichKeyBorder", "FloatBorder"),
		nvl("WhichKeyTitle", "FloatTitle"),
		// nvim-tree.lua
		nvc("NvimTreeNormal", "ui.text", "ui.surface", ""),
		nvl("NvimTreeNormalNC", "NvimTreeNormal"),
		nvc("NvimTreeWinSeparator", "ui.border", "ui.surface", ""),
		nvl("NvimTreeCursorLine", "CursorLine"),
		nvc("NvimTreeRootFolder", "ui.accent", "", "bold"),
		nvl("NvimTreeFolderName", "Directory"),
		nvl("NvimTreeFolderIcon", "Directory"),
		nvc("NvimTreeOpenedFolderName", "ui.accent", "", "bold"),
		nvl("NvimTreeEmptyFolderName", "Directory"),
		nvc("NvimTreeIndentMarker", "editor.indentGuide", "", ""),
		nvc("NvimTreeSpecialFile", "ui.warning", "", "underline"),
		nvc("NvimTreeExecFile", "ui.success", "", "bold"),
		nvs("NvimTreeImageFile", "constant"),
		nvc("NvimTreeSymlink", "terminal.link", "", ""),
		nvc("NvimTreeGitDirty", "diff.changed", "", ""),
		nvc("NvimTreeGitNew", "diff.added", "", ""),
		nvc("NvimTreeGitDeleted", "diff.removed", "", ""),
		nvc("NvimTreeGitStaged", "diff.added", "", ""),
		nvc("NvimTreeGitRenamed", "diff.changed", "", ""),
		nvc("NvimTreeGitMerge", "ui.warning", "", ""),
		nvc("NvimTreeGitIgnored", "ui.mutedText", "", ""),
		nvc("NvimTreeModifiedFile", "diff.changed", "", ""),
		// neo-tree.nvim
		nvl("NeoTreeNormal", "NvimTreeNormal"),
		nvl("NeoTreeNormalNC", "NvimTreeNormal"),
		nvl("NeoTreeEndOfBuffer", "NvimTreeNormal"),
		nvl("NeoTreeWinSeparator", "NvimTreeWinSeparator"),
		nvl("NeoTreeCursorLine", "CursorLine"),
		nvl("NeoTreeRootName", "NvimTreeRootFolder"),
		nvl("NeoTreeDirectoryName", "Directory"),
		nvl("NeoTreeDirectoryIcon", "Directory"),
		nvc("NeoTreeFileName", "ui.text", "", ""),
		nvc("NeoTreeFileNameOpened", "ui.accent", "", ""),
		nvc("NeoTreeFileIcon", "ui.text", "", ""),
		nvl("NeoTreeIndentMarker", "NvimTreeIndentMarker"),
		nvc("NeoTreeExpander", "ui.mutedText", "", ""),
		nvc("NeoTreeDimText", "ui.mutedText", "", ""),
		nvc("NeoTreeDotfile", "ui.mutedText", "", ""),
		nvl("NeoTreeFilterTerm", "TelescopeMatching"),
		nvl("NeoTreeFloatBorder", "FloatBorder"),
		nvl("NeoTreeFloatTitle", "FloatTitle"),
		nvc("NeoTreeTitleBar", "editor.accentText", "ui.accent", "bold"),
		nvl("NeoTreeGitAdded", "NvimTreeGitNew"),
		nvc("NeoTreeGitConflict", "ui.warning", "", "bold"),
		nvl("NeoTreeGitDeleted", "NvimTreeGitDeleted"),
		nvl("NeoTreeGitIgnored", "NvimTreeGitIgnored"),
		nvl("NeoTreeGitModified", "NvimTreeGitDirty"),
		nvl("NeoTreeGitRenamed", "NvimTreeGitRenamed"),
		nvl("NeoTreeGitStaged", "NvimTreeGitStaged"),
		nvl("NeoTreeGitUnstaged", "NvimTreeGitDirty"),
		nvc("NeoTreeGitUntracked", "diff.added", "", "italic"),
		nvl("NeoTreeModified", "NvimTreeModifiedFile"),
		nvl("NeoTreeSymbolicLinkTarget", "NvimTreeSymlink"),
		nvl("NeoTreeTabActive", "TabLineSel"),
		nvl("NeoTreeTabInactive", "TabLine"),
		nvl("NeoTreeTabSeparatorActive", "TabLineSel"),
		nvl("NeoTreeTabSeparatorInactive", "TabLine"),
		// NERDTree
		nvl("NERDTreeDirSlash", "Directory"),
		nvl("NERDTreeExecFile", "NvimTreeExecFile"),
		// indent-blankline.nvim v3 (ibl) and v2
		nvimGroup{name: "IblIndent", fg: "editor.indentGuide", style: "nocombine"},
		nvimGroup{name: "IblWhitespace", fg: "editor.whitespace", style: "nocombine"},
		nvimGroup{name: "IblScope", fg: "editor.indentGuideActive", style: "nocombine"},
		nvl("IndentBlanklineChar", "IblIndent"),
		nvl("IndentBlanklineSpaceChar", "IblWhitespace"),
		nvl("IndentBlanklineContextChar", "IblScope"),
		nvu("IndentBlanklineContextStart", "editor.indentGuideActive", "underline"),
		// mini.nvim
		nvc("MiniStatuslineModeNormal", "editor.accentText", "ui.accent", "bold"),
		nvc("MiniStatuslineModeInsert", "ui.background", "ui.success", "bold"),
		nvc("MiniStatuslineModeVisual", "ui.background", "syntax.keyword", "bold"),
		nvc("MiniStatuslineModeReplace", "ui.background", "ui.error", "bold"),
		nvc("MiniStatuslineModeCommand", "ui.background", "ui.warning", "bold"),
		nvc("MiniStatuslineModeOther", "ui.background", "syntax.type", "bold"),
		nvc("MiniStatuslineDevinfo", "ui.text", "ui.selection", ""),
		nvl("MiniStatuslineFilename", "StatusLine"),
		nvl("MiniStatuslineFileinfo", "StatusLine"),
		nvl("MiniStatuslineInactive", "StatusLineNC"),
		nvl("MiniTablineCurrent", "TabLineSel"),
		nvc("MiniTablineVisible", "ui.text", "ui.surface", ""),
		nvl("MiniTablineHidden", "TabLine"),
		nvc("MiniTablineModifiedCurrent", "diff.changed", "ui.background", "bold"),
		nvc("MiniTablineModifiedVisible", "diff.changed", "ui.surface", ""),
		nvc("MiniTablineModifiedHidden", "diff.changed", "ui.surface", ""),
		nvl("MiniTablineFill", "TabLineFill"),
		nvc("MiniTablineTabpagesection", "editor.accentText", "ui.accent", "bold"),
		nvimGroup{name: "MiniIndentscopeSymbol", fg: "editor.indentGuideActive", style: "nocombine"},
		nvu("MiniCursorword", "ui.text", "underline"),
		nvl("MiniCursorwordCurrent", "MiniCursorword"),
		nvc("MiniJump", "editor.accentText", "ui.accent", ""),
		nvc("MiniJump2dSpot", "ui.warning", "", "bold,nocombine"),
		nvc("MiniJump2dSpotAhead", "ui.accent", "", "nocombine"),
		nvc("MiniJump2dSpotUnique", "ui.success", "", "bold,nocombine"),
		nvc("MiniJump2dDim", "ui.mutedText", "", ""),
		nvc("MiniStarterHeader", "ui.accent", "", "bold"),
		nvc("MiniStarterFooter", "ui.mutedText", "", "italic"),
		nvc("MiniStarterItem", "ui.text", "", ""),
		nvc("MiniStarterItemBullet", "ui.border", "", ""),
		nvc("MiniStarterItemPrefix", "ui.warning", "", "bold"),
		nvs("MiniStarterSection", "keyword"),
		nvc("MiniStarterQuery", "ui.success", "", "bold"),
		nvl("MiniStarterCurrent", "CursorLine"),
		nvc("MiniStarterInactive", "ui.mutedText", "", ""),
		nvc("MiniSurround", "editor.accentText", "ui.accent", ""),
		nvc("MiniTrailspace", "", "ui.error", ""),
		nvl("MiniDiffSignAdd", "GitSignsAdd"),
		nvl("MiniDiffSignChange", "GitSignsChange"),
		nvl("MiniDiffSignDelete", "GitSignsDelete"),
		nvl("MiniDiffOverAdd", "DiffAdd"),
		nvl("MiniDiffOverChange", "DiffText"),
		nvl("MiniDiffOverDelete", "DiffDelete"),
		nvl("MiniDiffOverContext", "DiffChange"),
		nvc("MiniHipatternsFixme", "ui.background", "diagnostic.error", "bold"),
		nvc("MiniHipatternsHack", "ui.background", "diagnostic.warning", "bold"),
		nvc("MiniHipatternsNote", "ui.background", "diagnostic.info", "bold"),
		nvc("MiniHipatternsTodo", "ui.background", "diagnostic.hint", "bold"),
		nvl("MiniFilesNormal", "NormalFloat"),
		nvl("MiniFilesBorder", "FloatBorder"),
		nvc("MiniFilesBorderModified", "diff.changed", "ui.surface", ""),
		nvl("MiniFilesTitle", "FloatTitle"),
		nvc("MiniFilesTitleFocused", "ui.accent", "ui.surface", "bold,underline"),
		nvl("MiniFilesDirectory", "Directory"),
		nvc("MiniFilesFile", "ui.text", "", ""),
		nvl("MiniFilesCursorLine", "CursorLine"),
		nvl("MiniPickNormal", "NormalFloat"),
		nvl("MiniPickBorder", "FloatBorder"),
		nvc("MiniPickBorderBusy", "ui.warning", "ui.surface", ""),
		nvc("MiniPickBorderText", "ui.accent", "ui.surface", "bold"),
		nvc("MiniPickHeader", "ui.accent", "ui.surface", "bold"),
		nvl("MiniPickMatchCurrent", "PmenuSel"),
		nvc("MiniPickMatchMarked", "", "editor.wordHighlight", ""),
		nvl("MiniPickMatchRanges", "TelescopeMatching"),
		nvc("MiniPickPrompt", "ui.text", "ui.surface", ""),
		nvl("MiniPickPreviewLine", "CursorLine"),
		nvl("MiniPickPreviewRegion", "Visual"),
		nvl("MiniNotifyNormal", "NormalFloat"),
		nvl("MiniNotifyBorder", "FloatBorder"),
		nvl("MiniNotifyTitle", "FloatTitle"),
		nvl("MiniClueBorder", "FloatBorder"),
		nvs("MiniClueDescGroup", "keyword"),
		nvc("MiniClueDescSingle", "ui.text", "", ""),
		nvc("MiniClueNextKey", "ui.accent", "", "bold"),
		nvc("MiniClueNextKeyWithPostkeys", "ui.warning", "", "bold"),
		nvc("MiniClueSeparator", "ui.border", "", ""),
		nvl("MiniClueTitle", "FloatTitle"),
		nvc("MiniIconsAzure", "ansi.brightBlue", "", ""),
		nvc("MiniIconsBlue", "ansi.blue", "", ""),
		nvc("MiniIconsCyan", "ansi.cyan", "", ""),
		nvc("MiniIconsGreen", "ansi.green", "", ""),
		nvc("MiniIconsGrey", "ui.mutedText", "", ""),
		nvc("MiniIconsOrange", "ansi.brightRed", "", ""),
		nvc("MiniIconsPurple", "ansi.magenta", "", ""),
		nvc("MiniIconsRed", "ansi.red", "", ""),
		nvc("MiniIconsYellow", "ansi.yellow", "", ""),
		nvc("MiniTestPass", "ui.success", "", "bold"),
		nvc("MiniTestFail", "ui.error", "", "bold"),
		// lazy.nvim
		nvl("LazyNormal", "NormalFloat"),
		nvc("LazyH1", "editor.accentText", "ui.accent", "bold"),
		nvc("LazyH2", "ui.accent", "", "bold"),
		nvc("LazyButton", "ui.text", "editor.hover", ""),
		nvc("LazyButtonActive", "terminal.selectionText", "ui.selection", "bold"),
		nvc("LazySpecial", "ui.accent", "", ""),
		nvs("LazyComment", "comment"),
		nvs("LazyCommit", "constant"),
		nvs("LazyCommitType", "keyword"),
		nvs("LazyCommitIssue", "number"),
		nvc("LazyCommitScope", "ui.text", "", "italic"),
		nvc("LazyDimmed", "ui.mutedText", "", ""),
		nvl("LazyDir", "Directory"),
		nvs("LazyUrl", "link"),
		nvs("LazyValue", "string"),
		nvs("LazyProp", "property"),
		nvs("LazyLocal", "constant"),
		nvc("LazyNoCond", "ui.warning", "", ""),
		nvc("LazyProgressDone", "ui.accent", "", "bold"),
		nvc("LazyProgressTodo", "ui.border", "", ""),
		nvs("LazyReasonPlugin", "type"),
		nvs("LazyReasonEvent", "constant"),
		nvs("LazyReasonKeys", "string"),
		nvs("LazyReasonStart", "function"),
		nvs("LazyReasonSource", "property"),
		nvs("LazyReasonFt", "keyword"),
		nvs("LazyReasonCmd", "operator"),
		nvs("LazyReasonImport", "namespace"),
		nvs("LazyReasonRuntime", "macro"),
		nvs("LazyReasonRequire", "builtinFunction"),
		nvc("LazyTaskError", "ui.error", "", ""),
		nvc("LazyTaskOutput", "ui.text", "", ""),
		// noice.nvim
		nvl("NoiceCmdline", "Normal"),
		nvc("NoiceCmdlineIcon", "ui.accent", "", ""),
		nvc("NoiceCmdlineIconSearch", "ui.warning", "", ""),
		nvl("NoiceCmdlinePopup", "NormalFloat"),
		nvc("NoiceCmdlinePopupBorder", "ui.accent", "ui.surface", ""),
		nvc("NoiceCmdlinePopupBorderSearch", "ui.warning", "ui.surface", ""),
		nvl("NoiceCmdlinePopupTitle", "FloatTitle"),
		nvc("NoiceCmdlinePrompt", "ui.accent", "", "bold"),
		nvl("NoiceConfirm", "NormalFloat"),
		nvl("NoiceConfirmBorder", "FloatBorder"),
		nvl("NoiceMini", "NormalFloat"),
		nvl("NoicePopup", "NormalFloat"),
		nvl("NoicePopupBorder", "FloatBorder"),
		nvl("NoicePopupmenu", "Pmenu"),
		nvl("NoicePopupmenuBorder", "FloatBorder"),
		nvl("NoicePopupmenuMatch", "PmenuMatch"),
		nvl("NoicePopupmenuSelected", "PmenuSel"),
		nvl("NoiceScrollbar", "PmenuSbar"),
		nvl("NoiceScrollbarThumb", "PmenuThumb"),
		nvl("NoiceSplit", "NormalFloat"),
		nvl("NoiceSplitBorder", "FloatBorder"),
		nvc("NoiceVirtualText", "editor.inlayHint", "", "italic"),
		nvc("NoiceLspProgressTitle", "ui.mutedText", "", ""),
		nvc("NoiceLspProgressClient", "ui.accent", "", "bold"),
		nvc("NoiceLspProgressSpinner", "ui.accent", "", ""),
		nvc("NoiceFormatProgressDone", "editor.accentText", "ui.accent", ""),
		nvc("NoiceFormatProgressTodo", "ui.text", "ui.surface", ""),
		// nvim-notify
		nvc("NotifyBackground", "ui.text", "ui.background", ""),
		nvc("NotifyLogTime", "ui.mutedText", "", ""),
		nvc("NotifyLogTitle", "ui.accent", "", "bold"),
		// trouble.nvim (v3 and v2)
		nvl("TroubleNormal", "NvimTreeNormal"),
		nvl("TroubleNormalNC", "NvimTreeNormal"),
		nvc("TroubleText", "ui.text", "", ""),
		nvl("TroublePreview", "Visual"),
		nvc("TroubleFilename", "ui.accent", "", ""),
		nvc("TroubleBasename", "ui.text", "", "bold"),
		nvl("TroubleDirectory", "Directory"),
		nvc("TroubleSource", "ui.mutedText", "", ""),
		nvc("TroubleCode", "ui.mutedText", "", ""),
		nvc("TroublePos", "editor.lineNumber", "", ""),
		nvc("TroubleCount", "editor.accentText", "ui.accent", "bold"),
		nvc("TroubleIndent", "editor.indentGuide", "", ""),
		nvc("TroubleIndentFoldClosed", "ui.accent", "", ""),
		nvc("TroubleIndentFoldOpen", "ui.mutedText", "", ""),
		nvl("TroubleIconDirectory", "Directory"),
		nvl("TroubleFile", "TroubleFilename"),
		nvl("TroubleLocation", "TroublePos"),
		nvl("TroubleFoldIcon", "TroubleIndentFoldClosed"),
		nvl("TroubleError", "DiagnosticError"),
		nvl("TroubleWarning", "DiagnosticWarn"),
		nvl("TroubleInformation", "DiagnosticInfo"),
		nvl("TroubleHint", "DiagnosticHint"),
		// flash.nvim, leap.nvim, hop.nvim
		nvc("FlashBackdrop", "ui.mutedText", "", ""),
		nvc("FlashMatch", "ui.text", "editor.findMatchHighlight", ""),
		nvc("FlashCurrent", "ui.text", "editor.findMatch", "bold"),
		nvc("FlashLabel", "editor.accentText", "ui.accent", "bold"),
		nvl("FlashPrompt", "NormalFloat"),
		nvc("FlashPromptIcon", "ui.accent", "ui.surface", ""),
		nvl("FlashCursor", "Cursor"),
		nvl("LeapBackdrop", "FlashBackdrop"),
		nvl("LeapMatch", "FlashMatch"),
		nvl("LeapLabel", "FlashLabel"),
		nvl("HopNextKey", "FlashLabel"),
		nvc("HopNextKey1", "ui.accent", "", "bold"),
		nvc("HopNextKey2", "syntax.keyword", "", ""),
		nvl("HopUnmatched", "FlashBackdrop"),
		// dashboard-nvim, alpha-nvim, vim-startify
		nvc("DashboardHeader", "ui.accent", "", "bold"),
		nvc("DashboardFooter", "ui.mutedText", "", "italic"),
		nvs("DashboardCenter", "keyword"),
		nvc("DashboardShortCut", "ui.warning", "", ""),
		nvc("DashboardDesc", "ui.text", "", ""),
		nvc("DashboardKey", "ui.warning", "", "bold"),
		nvc("DashboardIcon", "ui.accent", "", ""),
		nvc("DashboardFiles", "ui.text", "", ""),
		nvl("DashboardProjectTitle", "DashboardHeader"),
		nvl("DashboardProjectTitleIcon", "DashboardIcon"),
		nvl("DashboardProjectIcon", "DashboardIcon"),
		nvl("DashboardMruTitle", "DashboardHeader"),
		nvl("DashboardMruIcon", "DashboardIcon"),
		nvl("AlphaHeader", "DashboardHeader"),
		nvl("AlphaButtons", "DashboardCenter"),
		nvl("AlphaShortcut", "DashboardKey"),
		nvl("AlphaFooter", "DashboardFooter"),
		nvc("StartifyBracket", "ui.border", "", ""),
		nvc("StartifyFile", "ui.text", "", ""),
		nvl("StartifyFooter", "DashboardFooter"),
		nvl("StartifyHeader", "DashboardHeader"),
		nvc("StartifyNumber", "ui.warning", "", ""),
		nvc("StartifyPath", "ui.mutedText", "", ""),
		nvs("StartifySection", "keyword"),
		nvl("StartifySelect", "PmenuSel"),
		nvc("StartifySlash", "ui.mutedText", "", ""),
		nvc("StartifySpecial", "ui.accent", "", ""),
		// vim-clap
		nvl("ClapInput", "NormalFloat"),
		nvl("ClapDisplay", "NormalFloat"),
		nvl("ClapPreview", "NormalFloat"),
		nvl("ClapCurrentSelection", "PmenuSel"),
		nvc("ClapNoMatchesFound", "ui.error", "", ""),
		nvc("ClapSpinner", "ui.accent", "", ""),
		// coc.nvim
		nvl("CocErrorSign", "DiagnosticSignError"), nvl("CocWarningSign", "DiagnosticSignWarn"),
		nvl("CocInfoSign", "DiagnosticSignInfo"), nvl("CocHintSign", "DiagnosticSignHint"),
		nvl("CocErrorFloat", "DiagnosticFloatingError"), nvl("CocWarningFloat", "DiagnosticFloatingWarn"),
		nvl("CocInfoFloat", "DiagnosticFloatingInfo"), nvl("CocHintFloat", "DiagnosticFloatingHint"),
		nvl("CocErrorHighlight", "DiagnosticUnderlineError"), nvl("CocWarningHighlight", "DiagnosticUnderlineWarn"),
		nvl("CocInfoHighlight", "DiagnosticUnderlineInfo"), nvl("CocHintHighlight", "DiagnosticUnderlineHint"),
		nvl("CocHighlightText", "LspReferenceText"), nvl("CocHighlightRead", "LspReferenceRead"), nvl("CocHighlightWrite", "LspReferenceWrite"),
		nvc("CocListMode", "editor.accentText", "ui.accent", "bold"), nvc("CocListPath", "ui.mutedText", "ui.surface", ""),
		nvc("CocSessionsName", "ui.text", "", ""),
		nvl("CocInlayHint", "LspInlayHint"),
		// Neogit
		nvc("NeogitDiffAdd", "diff.added", "diff.addedLine", ""),
		nvc("NeogitDiffAddHighlight", "diff.added", "diff.addedText", ""),
		nvl("NeogitDiffAddCursor", "NeogitDiffAddHighlight"),
		nvc("NeogitDiffDelete", "diff.removed", "diff.removedLine", ""),
		nvc("NeogitDiffDeleteHighlight", "diff.removed", "diff.removedText", ""),
		nvl("NeogitDiffDeleteCursor", "NeogitDiffDeleteHighlight"),
		nvc("NeogitDiffContext", "ui.text", "ui.background", ""),
		nvc("NeogitDiffContextHighlight", "ui.text", "editor.lineHighlight", ""),
		nvl("NeogitDiffContextCursor", "NeogitDiffContextHighlight"),
		nvc("NeogitDiffHeader", "ui.accent", "ui.surface", "bold"),
		nvl("NeogitDiffHeaderHighlight", "NeogitDiffHeader"),
		nvl("NeogitDiffHeaderCursor", "NeogitDiffHeader"),
		nvc("NeogitHunkHeader", "ui.mutedText", "ui.surface", ""),
		nvc("NeogitHunkHeaderHighlight", "ui.text", "ui.selection", "bold"),
		nvl("NeogitHunkHeaderCursor", "NeogitHunkHeaderHighlight"),
		// vim-illuminate, nvim-treesitter-context, fidget.nvim, bufferline
		nvl("IlluminatedWordText", "LspReferenceText"),
		nvl("IlluminatedWordRead", "LspReferenceRead"),
		nvl("IlluminatedWordWrite", "LspReferenceWrite"),
		nvc("TreesitterContext", "", "ui.surface", ""),
		nvc("TreesitterContextLineNumber", "editor.lineNumber", "ui.surface", ""),
		nvu("TreesitterContextBottom", "ui.border", "underline"),
		nvc("FidgetTitle", "ui.accent", "", "bold"),
		nvc("FidgetTask", "ui.mutedText", "", ""),
		// rainbow-delimiters.nvim: the bracket-pair colours, in order.
		nvc("RainbowDelimiterYellow", "editor.bracket1", "", ""),
		nvc("RainbowDelimiterViolet", "editor.bracket2", "", ""),
		nvc("RainbowDelimiterBlue", "editor.bracket3", "", ""),
		nvc("RainbowDelimiterCyan", "editor.bracket4", "", ""),
		nvc("RainbowDelimiterGreen", "editor.bracket5", "", ""),
		nvc("RainbowDelimiterRed", "editor.bracket6", "", ""),
		nvc("RainbowDelimiterOrange", "editor.bracket1", "", "bold"),
	}
	for _, l := range [][2]string{{"ERROR", "diagnostic.error"}, {"WARN", "diagnostic.warning"}, {"INFO", "diagnostic.info"}, {"DEBUG", "diagnostic.hint"}, {"TRACE", "syntax.keyword"}} {
		out = append(out,
			nvc("Notify"+l[0]+"Border", l[1], "", ""),
			nvc("Notify"+l[0]+"Icon", l[1], "", ""),
			nvc("Notify"+l[0]+"Title", l[1], "", "bold"),
			nvl("Notify"+l[0]+"Body", "Normal"),
		)
	}
	for _, k := range nvimKinds {
		out = append(out,
			nvc("CmpItemKind"+k[0], k[1], "", ""),
			nvl("BlinkCmpKind"+k[0], "CmpItemKind"+k[0]),
		)
	}
	return out
}

// nvimCocSemantic are coc.nvim's semantic token groups (CocSem_<type>),
// with the syntax role of each token type.
var nvimCocSemantic = [][2]string{
	{"angle", "punctuation"}, {"annotation", "attribute"}, {"attribute", "attribute"}, {"bitwise", "operator"},
	{"boolean", "boolean"}, {"brace", "punctuation"}, {"bracket", "punctuation"}, {"builtinAttribute", "attribute"},
	{"builtinType", "builtinType"}, {"character", "character"}, {"class", "type"}, {"colon", "punctuation"},
	{"comma", "punctuation"}, {"comment", "comment"}, {"comparison", "operator"}, {"concept", "type"},
	{"constParameter", "constant"}, {"dependent", "type"}, {"dot", "punctuation"}, {"enum", "type"},
	{"enumMember", "constant"}, {"escapeSequence", "escape"}, {"event", "type"}, {"formatSpecifier", "escape"},
	{"function", "function"}, {"interface", "type"}, {"keyword", "keyword"}, {"label", "label"},
	{"logical", "operator"}, {"macro", "macro"}, {"method", "method"}, {"modifier", "keyword"},
	{"namespace", "namespace"}, {"number", "number"}, {"operator", "operator"}, {"parameter", "parameter"},
	{"parenthesis", "punctuation"}, {"property", "property"}, {"punctuation", "punctuation"}, {"regexp", "regexp"},
	{"selfKeyword", "builtinVariable"}, {"semicolon", "punctuation"}, {"string", "string"}, {"struct", "type"},
	{"type", "type"}, {"typeAlias", "type"}, {"typeParameter", "type"}, {"unknown", "variable"}, {"variable", "variable"},
}

// nvimTables are every group the export writes: plain groups for any
// Neovim, and the "@" groups (tree-sitter captures and LSP semantic
// tokens), which exist from 0.8 on.
func nvimTables() (plain, at []nvimGroup) {
	plain = append(plain, nvimEditor...)
	for _, m := range syntaxMap {
		for _, g := range m.vim {
			plain = append(plain, nvs(g, m.role))
		}
	}
	plain = append(plain, nvimDiagnostics()...)
	plain = append(plain, nvimLegacySyntax...)
	plain = append(plain, nvimLanguageSyntax...)
	for _, k := range nvimSyntaxSplits {
		plain = append(plain, nvs(k.group, k.role))
	}
	plain = append(plain, nvimPlugins()...)
	for _, c := range nvimCocSemantic {
		plain = append(plain, nvs("CocSem_"+c[0], c[1]))
	}
	// Tree-sitter: the 0.10 captures in the role's colour and style, the
	// names they replaced as links to them.
	for _, m := range syntaxMap {
		for _, c := range m.captures {
			at = append(at, nvs(c, m.role))
		}
	}
	at = append(at, nvimCaptureExtras...)
	for _, m := range syntaxMap {
		for _, o := range m.old {
			old, cur, _ := strings.Cut(o, "=")
			at = append(at, nvl(old, cur))
		}
	}
	// LSP semantic tokens: "type" → @lsp.type.type, "variable.readonly"
	// → @lsp.typemod.variable.readonly, "*.deprecated" → @lsp.mod.deprecated.
	for _, m := range syntaxMap {
		for _, sel := range m.semantic {
			typ, mod, hasMod := strings.Cut(sel, ".")
			name := "@lsp.type." + typ
			switch {
			case hasMod && typ == "*":
				name = "@lsp.mod." + mod
			case hasMod:
				name = "@lsp.typemod." + typ + "." + mod
			}
			at = append(at, nvs(name, m.role))
		}
	}
	at = append(at, nvimLSPExtras...)
	return plain, at
}

// nvimLine is one group as a Lua nvim_set_hl call.
func nvimLine(t *Theme, g nvimGroup) string {
	if g.link != "" {
		return fmt.Sprintf("hl('%s', { link = '%s' })", g.name, g.link)
	}
	col := func(role string) string { return t.seen(t.Color(role)).Hex() }
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
	var attrs []string
	if g.style != "" {
		attrs = strings.Split(g.style, ",")
	}
	if g.font != "" {
		attrs = append(attrs, strings.Fields(string(t.Style(g.font)))...)
	}
	seen := map[string]bool{}
	for _, a := range attrs {
		if !seen[a] {
			seen[a] = true
			parts = append(parts, a+" = true")
		}
	}
	return fmt.Sprintf("hl('%s', { %s })", g.name, strings.Join(parts, ", "))
}

// renderNeovim writes a Lua colorscheme for Neovim 0.7+: colors/{slug}.lua,
// loaded with :colorscheme {slug}. Neovim draws no alpha, so colours are
// flattened; the 16 ANSI colours go to the built-in terminal.
func renderNeovim(t *Theme) (map[string][]byte, error) {
	slug := Slug(t.Name)
	plain, at := nvimTables()
	var b strings.Builder
	fmt.Fprintf(&b, "-- %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "-- Put this file in ~/.config/nvim/colors/ and run :colorscheme %s\n", slug)
	b.WriteString("vim.cmd('highlight clear')\n")
	b.WriteString("if vim.fn.exists('syntax_on') == 1 then vim.cmd('syntax reset') end\n")
	fmt.Fprintf(&b, "vim.o.background = '%s'\n", t.Appearance)
	fmt.Fprintf(&b, "vim.g.colors_name = '%s'\n\n", slug)
	b.WriteString("local hl = function(name, val) vim.api.nvim_set_hl(0, name, val) end\n")
	for _, g := range plain {
		b.WriteString(nvimLine(t, g) + "\n")
	}
	// "@" names are refused (W18) before 0.8, which has tree-sitter
	// captures and LSP semantic tokens.
	b.WriteString("\nif vim.fn.has('nvim-0.8') == 1 then\n")
	for _, g := range at {
		b.WriteString("  " + nvimLine(t, g) + "\n")
	}
	b.WriteString("end\n\n")
	b.WriteString(nvimSplitsLua(slug))
	for i, c := range t.ANSI {
		fmt.Fprintf(&b, "vim.g.terminal_color_%d = '%s'\n", i, t.seen(c).Hex())
	}
	return map[string][]byte{"colors/" + slug + ".lua": []byte(b.String())}, nil
}

// nvimSplitsLua defines nvimSyntaxSplits' groups whenever a filetype's
// syntax loads, and at once in buffers whose syntax is loaded.
func nvimSplitsLua(slug string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "local splits = vim.api.nvim_create_augroup('%s_syntax', { clear = true })\n", slug)
	fts := map[string]bool{}
	for _, k := range nvimSyntaxSplits {
		if fts[k.filetype] {
			continue
		}
		fts[k.filetype] = true
		fmt.Fprintf(&b, "local function split_%s()\n", k.filetype)
		for _, s := range nvimSyntaxSplits {
			if s.filetype == k.filetype {
				fmt.Fprintf(&b, "  vim.cmd([==[syntax %s %s %s]==])\n", s.kind, s.group, s.args)
			}
		}
		b.WriteString("end\n")
		fmt.Fprintf(&b, "vim.api.nvim_create_autocmd('Syntax', { group = splits, pattern = '%s', callback = split_%s })\n", k.filetype, k.filetype)
		fmt.Fprintf(&b, "for _, buf in ipairs(vim.api.nvim_list_bufs()) do\n  if vim.api.nvim_buf_is_loaded(buf) and vim.b[buf].current_syntax == '%s' then vim.api.nvim_buf_call(buf, split_%s) end\nend\n", k.filetype, k.filetype)
	}
	b.WriteString("\n")
	return b.String()
}
