// Package scopes holds each role's names in the token vocabularies of the
// export targets (the syntax map: TextMate scopes, tree-sitter captures,
// LSP semantic tokens, Helix, Zed and Vim names; VS Code's workbench
// colour ids), an imported VS Code theme's token rules, and the TextMate
// selector matcher that resolves them as VS Code does, with Sublime's
// scopes translated to VS Code's. The model (roles, palette, derivation)
// is core/theme's; this package reads it and nothing here is imported by it.
package scopes
