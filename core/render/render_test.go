package render

import (
	"os"
	"testing"

	"cdxtheme/core/theme"
)

func TestWritePreview(t *testing.T) {
	out := os.Getenv("RENDER_OUT")
	if out == "" {
		t.Skip()
	}
	for _, lang := range Languages() {
		b, err := PNG(theme.Example(), lang)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(out+"/"+lang+".png", b, 0o644)
		t.Log(lang, len(b))
	}
}
