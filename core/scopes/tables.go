package scopes

// The exported faces of the token tables (syntaxmap.go, vscodemap.go), for
// the templates of core/targets and the importers: copies, so no caller
// can change the one table every export and import reads.

// VSCodeColorKey is a workbench colour key and the role the export paints
// it with: at Alpha (0 for opaque), or Clear (transparent).
type VSCodeColorKey struct {
	Key, Role string
	Alpha     float64
	Clear     bool
}

// VSCodeColorKeys is the export's table of workbench colour keys.
func VSCodeColorKeys() []VSCodeColorKey {
	out := make([]VSCodeColorKey, len(vscodeColorKeys))
	for i, k := range vscodeColorKeys {
		out[i] = VSCodeColorKey{Key: k.key, Role: k.role, Alpha: k.alpha, Clear: k.clear}
	}
	return out
}

// SyntaxScopes is a syntax role (without "syntax.") and the TextMate
// scopes the exports paint with it.
type SyntaxScopes struct {
	Role     string
	TextMate []string
}

// SyntaxTextMate is the table of syntax roles to TextMate scopes, in the
// order the exports write them.
func SyntaxTextMate() []SyntaxScopes {
	out := make([]SyntaxScopes, len(syntaxMap))
	for i, m := range syntaxMap {
		out[i] = SyntaxScopes{Role: m.role, TextMate: m.textmate}
	}
	return out
}
