package scopes

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// oneDarkPro is the example theme with One Dark Pro's 275 token rules, as
// an import keeps them.
func oneDarkPro(b *testing.B) *theme.Theme {
	raw, err := os.ReadFile("../theme/testdata/oracle/vscode/OneDark-Pro.json")
	if err != nil {
		b.Fatal(err)
	}
	var doc struct {
		TokenColors json.RawMessage `json:"tokenColors"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	th := theme.Example()
	th.Targets = &theme.TargetOverrides{VSCode: &theme.VSCodeTarget{TokenColors: doc.TokenColors}}
	return th
}

// The matcher built from an imported theme's rules, then asked about
// every stack of the Sublime translation: what a .tmTheme export does.
func BenchmarkSublimeRulesOfAnImport(b *testing.B) {
	th := oneDarkPro(b)
	for b.Loop() {
		SublimeRules(th)
	}
}

// One stack resolved under an imported theme's rules, the matcher built
// once (Neovim's language groups ask some 300).
func BenchmarkResolveAStack(b *testing.B) {
	m := For(oneDarkPro(b))
	stack := strings.Fields("source.python meta.function-call.arguments.python variable.parameter.function-call.python")
	b.ReportAllocs()
	for b.Loop() {
		m.Resolve(stack...)
	}
}
