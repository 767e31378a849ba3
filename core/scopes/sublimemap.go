package scopes

import (
	"strings"

	"cdxtheme/core/theme"
)

// sublimeScopes translate the scopes of Sublime Text's grammars, which bat
// (and delta, and Sublime itself) highlight with, into the scopes VS Code's
// grammars give the same token. The two families name many tokens
// differently (Sublime's Rust calls a primitive type storage.type.rust, VS
// Code's entity.name.type.numeric.rust; Sublime's Python calls a docstring
// a comment, VS Code's a string), and a TextMate theme's rules are written
// for one family: VS Code's, in the syntax map and in every imported VS
// Code theme. So the .tmTheme gets, after its own rules, one rule per
// entry: the Sublime selector, painted with whatever the theme's VS Code
// rules give the VS Code scopes (SublimeRules). One colour per token then
// holds across the preview, VS Code and bat, for the syntax map's roles
// and for an imported theme's own rules alike.
//
// Each entry is a token class, never a file: sublime is a comma-separated
// list of Sublime selectors naming the innermost scope Sublime's grammar
// gives the token (bat resolves a rule by the deepest scope it matches, so
// a selector for the innermost scope wins over the theme's broader ones);
// vscode is the scope stack, outermost first from the grammar's root scope
// (theme rules may name it), that VS Code's grammar gives the same token.
// Where one Sublime scope covers tokens VS Code tells apart (Sublime's
// storage.type.rust is both `let` and `u8`), the entry follows the more
// common token, and the comment says so. The grammars are those
// bat ships (Sublime's Packages) and those of VS Code as Shiki bundles them.
var sublimeScopes = []struct{ sublime, vscode string }{
	// Go: a type in a type position; predeclared types and functions.
	{"storage.type.go", "source.go entity.name.type.go"},
	{"support.type.builtin.go", "source.go storage.type.numeric.go"},
	{"support.function.builtin.go", "source.go entity.name.function.support.builtin.go"},
	{"punctuation.definition.numeric.base.go", "source.go keyword.other.unit.hexadecimal.go"},

	// Python: docstrings are strings to VS Code; parameters, CONSTANTS,
	// decorators, format placeholders.
	{"comment.block.documentation.python", "source.python string.quoted.docstring.multi.python"},
	{"comment.block.documentation.python punctuation.definition.comment", "source.python string.quoted.docstring.multi.python punctuation.definition.string.begin.python"},
	{"variable.parameter.python", "source.python meta.function.parameters.python variable.parameter.function.language.python"},
	{"meta.function-call.arguments.python variable.parameter.python", "source.python meta.function-call.arguments.python variable.parameter.function-call.python"},
	{"variable.other.constant.python", "source.python constant.other.caps.python"},
	{"punctuation.separator.decimal.python", "source.python constant.numeric.float.python"},
	{"meta.annotation.python meta.generic-name", "source.python meta.function.decorator.python entity.name.function.decorator.python"},
	{"meta.annotation.python support.function.builtin", "source.python meta.function.decorator.python support.type.python"},
	{"constant.other.placeholder.python, punctuation.section.interpolation.begin.python, punctuation.section.interpolation.end.python", "source.python meta.fstring.python constant.character.format.placeholder.other.python"},
	{"source.python punctuation.definition.character-class.begin.regexp, source.python punctuation.definition.character-class.end.regexp",
		"source.python string.regexp.quoted.single.python meta.character.set.regexp punctuation.character.set.begin.regexp constant.other.set.regexp"},
	{"source.python punctuation.definition.group.begin.regexp, source.python punctuation.definition.group.end.regexp",
		"source.python string.regexp.quoted.single.python support.other.parenthesis.regexp punctuation.parenthesis.begin.regexp"},
	{"source.python keyword.control.anchor.regexp", "source.python string.regexp.quoted.single.python support.other.match.begin.regexp"},
	{"source.python constant.other.character-class.range.regexp", "source.python string.regexp.quoted.single.python meta.character.set.regexp constant.character.set.regexp"},

	// Rust: Sublime's storage.type.rust is let, const and static and also
	// the primitive types and Self. Its context tells them apart where the
	// grammar expects a type (parameters, return type, generic arguments,
	// struct and tuple fields, a cast in parentheses): a type there, the
	// statement keyword elsewhere (a bare cast's type, u32::MAX, takes the
	// keyword's colour).
	{"storage.type.rust", "source.rust keyword.other.rust storage.type.rust"},
	{"meta.function.parameters storage.type.rust, meta.function.return-type storage.type.rust, meta.generic storage.type.rust, " +
		"meta.struct storage.type.rust, meta.group storage.type.rust, meta.function.closure storage.type.rust",
		"source.rust entity.name.type.numeric.rust"},
	{"storage.type.struct.rust", "source.rust keyword.declaration.struct.rust storage.type.rust"},
	{"storage.type.enum.rust", "source.rust keyword.declaration.enum.rust storage.type.rust"},
	{"storage.type.type.rust", "source.rust keyword.declaration.type.rust storage.type.rust"},
	{"storage.type.function.rust", "source.rust keyword.other.fn.rust"},
	{"storage.type.impl.rust", "source.rust keyword.other.rust"},
	{"storage.modifier.rust", "source.rust storage.modifier.visibility.rust"},
	{"support.type.rust, entity.name.impl.rust", "source.rust entity.name.type.rust"},
	{"entity.name.struct.rust", "source.rust entity.name.type.struct.rust"},
	{"entity.name.enum.rust", "source.rust entity.name.type.enum.rust"},
	{"variable.other.member.rust", "source.rust variable.other.rust"},
	{"variable.language.rust", "source.rust variable.language.self.rust"},
	{"support.function.rust", "source.rust meta.function.call.rust entity.name.function.rust"},
	{"constant.other.placeholder.rust", "source.rust string.quoted.double.rust meta.interpolation.rust"},
	{"string.quoted.single.rust", "source.rust string.quoted.single.char.rust"},
	{"string.quoted.single.rust punctuation.definition.string", "source.rust string.quoted.single.char.rust punctuation.definition.char.rust"},
	// Sublime's punctuation.separator.rust is : and -> (VS Code's
	// operators) and also the comma; the : and -> are the more common.
	{"punctuation.separator.rust, punctuation.separator.type.rust", "source.rust keyword.operator.key-value.rust"},
	// Inside parentheses (arguments, tuples) it is mostly the comma.
	{"meta.group punctuation.separator.rust", "source.rust punctuation.comma.rust"},
	{"punctuation.accessor.rust", "source.rust keyword.operator.namespace.rust"},
	{"punctuation.accessor.dot.rust", "source.rust keyword.operator.access.dot.rust"},
	{"punctuation.terminator.rust", "source.rust punctuation.semi.rust"},
	{"meta.annotation.rust punctuation.section.group", "source.rust meta.attribute.rust punctuation.brackets.attribute.rust"},
	{"meta.annotation.rust punctuation.separator.rust, meta.annotation.rust meta.group punctuation.separator.rust", "source.rust meta.attribute.rust punctuation.comma.rust"},
	{"meta.annotation.rust meta.group.rust", "source.rust meta.attribute.rust entity.name.type.rust"},
	{"meta.function.closure.rust punctuation.section.parameters", "source.rust meta.function.call.rust keyword.operator.logical.rust"},
	{"variable.annotation.rust", "source.rust meta.attribute.rust"},
	{"punctuation.definition.annotation.rust", "source.rust meta.attribute.rust punctuation.definition.attribute.rust"},

	// TypeScript: methods of the standard library are calls to VS Code.
	{"support.function.ts, support.function.dom.ts, support.function.json.ts", "source.ts meta.function-call.ts entity.name.function.ts"},
	{"support.variable.property.dom.ts", "source.ts variable.other.property.ts"},
	// A built-in class called is mostly constructed (new Map(), new
	// Error()); Object.entries() is the exception.
	{"meta.function-call.ts support.class", "source.ts new.expr.ts meta.function-call.ts entity.name.function.ts"},
	{"support.constant.json.ts", "source.ts variable.other.constant.object.ts"},
	{"string.regexp.ts", "source.ts string.regexp.ts"},
	{"string.regexp.ts punctuation.definition.string", "source.ts string.regexp.ts punctuation.definition.string.begin.ts"},
	{"source.ts punctuation.definition.group.regexp", "source.ts string.regexp.ts meta.group.regexp punctuation.definition.group.regexp"},
	{"source.ts constant.other.character-class.range.regexp", "source.ts string.regexp.ts constant.other.character-class.set.regexp constant.other.character-class.range.regexp"},

	// Lua: the standard library's tables (string, table, math).
	{"support.constant.builtin.lua", "source.lua support.function.library.lua"},
	{"punctuation.separator.key-value.lua", "source.lua keyword.operator.lua"},

	// Shell: a command's words, options, names and variables.
	{"meta.function-call.arguments.shell", "source.shell meta.argument.shell string.unquoted.argument.shell"},
	{"variable.parameter.option.shell", "source.shell string.unquoted.argument.shell constant.other.option.shell"},
	{"punctuation.definition.parameter.shell", "source.shell string.unquoted.argument.shell constant.other.option.dash.shell"},
	{"variable.function.shell", "source.shell entity.name.function.call.shell entity.name.command.shell"},
	{"support.function.double-brace.begin.shell, support.function.double-brace.end.shell", "source.shell meta.scope.logical-expression.shell punctuation.definition.logical-expression.shell"},
	{"keyword.operator.end-of-options.shell", "source.shell string.unquoted.argument.shell constant.other.option.dash.shell"},
	{"constant.numeric.integer.decimal.file-descriptor.shell", "source.shell meta.argument.shell keyword.operator.redirect.shell"},
	{"meta.group.expansion.parameter.shell punctuation.section.braces", "source.shell meta.parameter-expansion punctuation.section.array.shell"},
	{"variable.language.array.shell", "source.shell meta.parameter-expansion keyword.operator.expansion.shell"},
	{"variable.other.readwrite.shell", "source.shell variable.other.normal.shell"},
	{"punctuation.definition.variable.shell", "source.shell variable.other.normal.shell punctuation.definition.variable.shell"},
	{"string.quoted.double.shell punctuation.section.expansion.parameter",
		"source.shell string.quoted.double.shell punctuation.section.bracket.curly.variable.begin.shell punctuation.definition.variable.shell"},
	{"meta.group.expansion.parameter.shell", "source.shell meta.parameter-expansion variable.other.normal.shell"},
	{"keyword.control.conditional.patterns.end.shell", "source.shell meta.case.shell meta.case.entry.pattern.shell keyword.operator.pattern.case.shell"},

	// JSON (a .json file, a ```json fence): a key is a property name to VS
	// Code, a string to Sublime; the punctuation is named for mappings and
	// sequences there, dictionaries and arrays here.
	{"meta.mapping.key.json string.quoted.double.json", "source.json meta.structure.dictionary.json string.json support.type.property-name.json"},
	{"meta.mapping.key.json punctuation.definition.string.begin.json, meta.mapping.key.json punctuation.definition.string.end.json",
		"source.json meta.structure.dictionary.json string.json support.type.property-name.json punctuation.support.type.property-name.begin.json"},
	{"string.quoted.double.json", "source.json meta.structure.dictionary.json meta.structure.dictionary.value.json string.quoted.double.json"},
	{"punctuation.definition.string.begin.json, punctuation.definition.string.end.json",
		"source.json meta.structure.dictionary.json meta.structure.dictionary.value.json string.quoted.double.json punctuation.definition.string.begin.json"},
	{"punctuation.separator.mapping.key-value.json", "source.json meta.structure.dictionary.json meta.structure.dictionary.value.json punctuation.separator.dictionary.key-value.json"},
	{"punctuation.separator.mapping.pair.json", "source.json meta.structure.dictionary.json meta.structure.dictionary.value.json punctuation.separator.dictionary.pair.json"},
	{"punctuation.separator.sequence.json", "source.json meta.structure.array.json punctuation.separator.array.json"},
	{"punctuation.section.mapping.begin.json, punctuation.section.mapping.end.json", "source.json meta.structure.dictionary.json punctuation.definition.dictionary.begin.json"},
	{"punctuation.section.sequence.begin.json, punctuation.section.sequence.end.json", "source.json meta.structure.array.json punctuation.definition.array.begin.json"},
	{"constant.numeric.integer.decimal.json, constant.numeric.float.decimal.json, punctuation.separator.decimal.json", "source.json meta.structure.dictionary.value.json constant.numeric.json"},
	{"constant.language.json", "source.json meta.structure.dictionary.value.json constant.language.json"},

	// Markdown: the marks of emphasis, code, headings and lists.
	{"punctuation.definition.bold.begin.markdown, punctuation.definition.bold.end.markdown", "text.html.markdown markup.bold.markdown punctuation.definition.bold.markdown"},
	{"punctuation.definition.italic.begin.markdown, punctuation.definition.italic.end.markdown", "text.html.markdown markup.italic.markdown punctuation.definition.italic.markdown"},
	{"punctuation.definition.raw.begin.markdown, punctuation.definition.raw.end.markdown", "text.html.markdown markup.inline.raw.string.markdown punctuation.definition.raw.markdown"},
	{"punctuation.definition.raw.code-fence.begin.markdown, punctuation.definition.raw.code-fence.end.markdown", "text.html.markdown markup.fenced_code.block.markdown punctuation.definition.markdown"},
	{"constant.other.language-name.markdown", "text.html.markdown markup.fenced_code.block.markdown fenced_code.block.language"},
	{"punctuation.definition.heading.begin.markdown", "text.html.markdown markup.heading.markdown punctuation.definition.heading.markdown"},
	{"punctuation.definition.list_item.markdown", "text.html.markdown markup.list.unnumbered.markdown punctuation.definition.list.begin.markdown"},
}

// SublimeRules are sublimeScopes as TextMate rules for t: each Sublime
// selector with the foreground and font style VS Code gives its VS Code
// scopes under t's rules — an imported theme's own (TokenRules), else the
// syntax map's — or the text colour and no style where no rule paints
// them. FG and Style are always set: a rule that left either unset would
// let a broader rule of the theme show through in bat.
func SublimeRules(t *theme.Theme) []TokenRule { return For(t).Sublime() }

// Sublime is SublimeRules under r.
func (r *Rules) Sublime() []TokenRule {
	m := &r.built().m
	out := make([]TokenRule, 0, len(sublimeScopes))
	for _, s := range sublimeScopes {
		fg, style := m.resolve(strings.Fields(s.vscode))
		out = append(out, TokenRule{Name: "Sublime grammars: " + s.vscode, Scope: outrank(s.sublime), FG: &fg, Style: &style})
	}
	return out
}

// VSCodeScopeStyle is the foreground and font style VS Code paints a
// TextMate scope stack (outermost first, from the grammar's root scope)
// with under t's token rules: an imported theme's own, else the syntax
// map's. An exporter for another highlighter can ask it what VS Code
// paints a token it knows by VS Code's scopes.
func VSCodeScopeStyle(t *theme.Theme, stack ...string) (theme.Color, string) {
	return For(t).Resolve(stack...)
}

// VSCodeScopeResolver is VSCodeScopeStyle with t's rules read once, for
// an exporter that asks about many stacks (Neovim's language groups).
func VSCodeScopeResolver(t *theme.Theme) func(stack ...string) (theme.Color, string) {
	return For(t).Resolve
}

// outrank gives each one-scope selector of a list its grammar's root as a
// parent ("source X, text X": every Sublime grammar's root scope is
// source.* or text.*). Of two rules for the same single scope bat keeps
// the first, which is the theme's own; a parent makes this one more
// specific, so it wins wherever it applies.
func outrank(list string) string {
	var out []string
	for _, sel := range strings.Split(list, ",") {
		sel = strings.TrimSpace(sel)
		if strings.Contains(sel, " ") {
			out = append(out, sel)
			continue
		}
		out = append(out, "source "+sel, "text "+sel)
	}
	return strings.Join(out, ", ")
}
