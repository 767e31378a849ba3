package scopes

import (
	"fmt"
	"sync"
	"testing"

	"cdxtheme/core/theme"
)

// Renders run at once (the live path, an export, the preview), each
// theme's rules kept for its tokenColors: more themes than are kept, read
// from several goroutines, each still paints with its own rules, never
// another's.
func TestRulesOfManyThemesAtOnce(t *testing.T) {
	var themes []*theme.Theme
	for i := range 2 * ownCacheSize {
		th := theme.Example()
		th.Targets = &theme.TargetOverrides{VSCode: &theme.VSCodeTarget{TokenColors: fmt.Appendf(nil,
			`[{"scope": "keyword", "settings": {"foreground": "#%06x"}}]`, i+1)}}
		themes = append(themes, th)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for n := range 50 {
				i := (g + n) % len(themes)
				fg, _ := For(themes[i]).Resolve("source.go", "keyword.control.go")
				if want := fmt.Sprintf("#%06x", i+1); fg.Hex() != want {
					t.Errorf("theme %d's keyword is %s, want its own %s", i, fg.Hex(), want)
					return
				}
			}
		})
	}
	wg.Wait()
}
