package turnrun

import (
	"slices"
	"testing"

	"cdxtheme/core/settings"
)

// Claude Code and Codex's Rust adapter resolve to their package installed
// from the app's lockfile (the first-run install), never to `bun x`, whose
// dependencies float; the API key stays Codex's.
func TestBunKindsResolveToTheirLockedPackage(t *testing.T) {
	t.Setenv("CDXTHEME_AGENT", "")
	for _, ag := range settings.Builtins() {
		r := Resolve(settings.Settings{}, ag)
		want := map[string]string{settings.KindClaude: settings.ClaudePackage, settings.KindCodexRS: settings.CodexRSPackage}[ag.Kind]
		if r.Package != want || want != "" && r.Argv != nil {
			t.Errorf("%s resolves with package %q and command %q, want package %q alone", ag.ID, r.Package, r.Argv, want)
		}
		if ag.Kind == settings.KindClaude && !slices.Contains(r.Unset, "OPENAI_API_KEY") {
			t.Errorf("claude is given the OpenAI key: unset %v", r.Unset)
		}
	}
}
