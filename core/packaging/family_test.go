package packaging

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"cdxtheme/core/companion"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// The .vsix of a theme with a companion holds both colour themes.
func TestVSIXHoldsTheFamily(t *testing.T) {
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	slug, cslug := theme.Slug(th.Name), theme.Slug(th.Companion.Name)
	files, err := targets.Render(th, "vsix")
	if err != nil {
		t.Fatal(err)
	}
	data := files[slug+"-"+theme.VSCodeVersion+".vsix"]
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	for _, want := range []string{"extension/themes/" + slug + "-color-theme.json", "extension/themes/" + cslug + "-color-theme.json"} {
		if !strings.Contains(strings.Join(names, "\n"), want) {
			t.Errorf("the .vsix lacks %s: %v", want, names)
		}
	}
}
