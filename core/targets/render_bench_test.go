package targets

import (
	"os"
	"testing"

	"cdxtheme/core/theme"
)

// The Neovim colorscheme is rendered again on every live change (issue
// #39): about 1,100 highlight groups. The example theme colours by role;
// One Dark Pro has token rules of its own, so each scoped group is
// resolved through them too. `make bench` prints these.
func BenchmarkRenderNeovim(b *testing.B) {
	for _, name := range []string{"example", "onedark-pro"} {
		raw, err := os.ReadFile("testdata/moved/" + name + ".theme.json")
		if err != nil {
			b.Fatal(err)
		}
		th, err := theme.Parse(raw)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(th, "neovim"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
