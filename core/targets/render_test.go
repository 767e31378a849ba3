package targets

import (
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/theme"
)

// dump writes every target's files for the example theme and its derived
// companion to $TARGETS_DUMP, for looking at them by hand.
func TestDump(t *testing.T) {
	dir := os.Getenv("TARGETS_DUMP")
	if dir == "" {
		t.Skip("TARGETS_DUMP not set")
	}
	th := theme.Example()
	th.Companion = theme.Counterpart(th)
	for _, m := range Manifests() {
		files, err := m.Render(th.Family())
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			p := filepath.Join(dir, m.ID, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, b, 0o644)
		}
	}
}
