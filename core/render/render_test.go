package render

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

func at(img image.Image, p image.Point) theme.Color {
	r, g, b, _ := img.At(p.X, p.Y).RGBA()
	return theme.Color{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 255}
}

// has reports whether c is painted anywhere in r (glyphs are antialiased,
// but their stems are solid).
func has(img image.Image, r image.Rectangle, c theme.Color) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if at(img, image.Pt(x, y)) == c {
				return true
			}
		}
	}
	return false
}

// The picture shows the theme's own colours where a model (or a test)
// looks for them: the background, the surface, the text, the 16 ANSI
// colours; and it changes when the theme does.
func TestThePictureShowsTheThemesColours(t *testing.T) {
	for _, doc := range []string{"example", "light"} {
		th := theme.Example()
		if doc == "light" {
			th.Appearance = "light"
			th.UI.Background = theme.Color{R: 0xfa, G: 0xf7, B: 0xf0, A: 255}
			th.UI.Surface = theme.Color{R: 0xee, G: 0xe8, B: 0xdc, A: 255}
			th.UI.Text = theme.Color{R: 0x20, G: 0x1c, B: 0x18, A: 255}
			th.ANSI[4] = theme.Color{R: 0x12, G: 0x34, B: 0xab, A: 255}
		}
		b, err := PNG(th, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > MaxPNG {
			t.Errorf("%s: PNG of %d bytes, over %d", doc, len(b), MaxPNG)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: the PNG does not decode: %v", doc, err)
		}
		if got := img.Bounds().Size(); got != image.Pt(Width, Height) {
			t.Errorf("%s: size %v, want %dx%d", doc, got, Width, Height)
		}
		if got := at(img, BackgroundAt); got != th.UI.Background {
			t.Errorf("%s: background at %v is %s, want %s", doc, BackgroundAt, got, th.UI.Background)
		}
		if got := at(img, SurfaceAt); got != th.UI.Surface {
			t.Errorf("%s: surface at %v is %s, want %s", doc, SurfaceAt, got, th.UI.Surface)
		}
		if !has(img, TextArea, th.UI.Text) {
			t.Errorf("%s: no pixel of ui.text %s in the terminal's text line %v", doc, th.UI.Text, TextArea)
		}
		for i, c := range th.ANSI {
			sw := ANSISwatch(i)
			mid := image.Pt((sw.Min.X+sw.Max.X)/2, (sw.Min.Y+sw.Max.Y)/2)
			if got := at(img, mid); got != c.Over(th.UI.Background) {
				t.Errorf("%s: ANSI %d swatch is %s, want %s", doc, i, got, c)
			}
		}
	}
}

// Every offered language has a sample that paints its keywords in the
// keyword colour; an unknown one is an error naming the offered ones.
func TestLanguages(t *testing.T) {
	th := theme.Example()
	for _, lang := range Languages() {
		img, err := Image(th, lang)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		code := image.Rect(sideW+gutterW, codeY, Width, panelY-110)
		if !has(img, code, th.Syntax.Keyword) || !has(img, code, th.Syntax.String) {
			t.Errorf("%s: the code sample shows no keyword or string colour", lang)
		}
	}
	if _, err := Image(th, "cobol"); err == nil || !strings.Contains(err.Error(), "go") {
		t.Errorf("an unknown language: %v", err)
	}
	if _, err := Image(nil, ""); err == nil {
		t.Error("no theme rendered without an error")
	}
}

// A translucent background is seen over black, as the contrast check
// measures it.
func TestTranslucentColoursAreComposited(t *testing.T) {
	th := theme.Example()
	th.UI.Background = theme.Color{R: 0xff, G: 0xff, B: 0xff, A: 0x80}
	img, err := Image(th, "go")
	if err != nil {
		t.Fatal(err)
	}
	want := th.UI.Background.Over(theme.Color{A: 255})
	if got := at(img, BackgroundAt); got != want {
		t.Errorf("translucent background painted %s, want %s", got, want)
	}
}

// RENDER_OUT=dir writes one picture per language, to look at.
func TestWritePreview(t *testing.T) {
	out := os.Getenv("RENDER_OUT")
	if out == "" {
		t.Skip("set RENDER_OUT to a folder to write the pictures")
	}
	for _, lang := range Languages() {
		b, err := PNG(theme.Example(), lang)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, lang+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
