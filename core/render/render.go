// Package render paints a theme as a picture a model (or a person) can
// look at: an editor with a code sample, the UI chrome around it (tabs,
// sidebar, status bar, selection, a diff, diagnostics) and a terminal with
// the 16 ANSI colours. It draws in Go with the bundled Go fonts: no
// browser, no network, the same pixels everywhere.
package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"cdxtheme/core/theme"
)

// The picture's size: a fixed 1200×800, inside the bounds MCP clients and
// models take, and small as a PNG (flat colours compress well).
const (
	Width  = 1200
	Height = 800
)

// MaxPNG bounds the encoded picture; a theme cannot make it larger than
// this (the size is fixed and the content is ours), but a caller that
// hands it on checks against it all the same.
const MaxPNG = 1 << 20

// DefaultLanguage is the code sample shown when none is asked for.
const DefaultLanguage = "go"

// Regions of the picture, for tests and for a caller that wants to point
// at something: each is painted with one role's colour where nothing is
// drawn on top.
var (
	// BackgroundAt is a point of the editor painted only with ui.background.
	BackgroundAt = image.Pt(Width-40, 300)
	// SurfaceAt is a point of the sidebar painted only with ui.surface.
	SurfaceAt = image.Pt(20, 740)
	// TextArea holds the terminal's plain output line, drawn in ui.text.
	TextArea = image.Rect(panelX+16, termY+3*lineH, Width-20, termY+4*lineH)
)

// ANSISwatch is the square painted with ANSI colour i (0..15), solid.
func ANSISwatch(i int) image.Rectangle {
	x := panelX + 16 + (i%8)*(swatch+6)
	y := termY + 5*lineH + (i/8)*(swatch+6)
	return image.Rect(x, y, x+swatch, y+swatch)
}

// Layout constants.
const (
	tabH    = 34
	sideW   = 220
	statusH = 26
	panelY  = 508
	panelX  = sideW
	termY   = panelY + 30
	gutterW = 52
	lineH   = 20
	codeY   = tabH + 10
	swatch  = 26
)

var (
	fontsOnce sync.Once
	fontsErr  error
	monoFace  font.Face
	uiFace    font.Face
)

func faces() error {
	fontsOnce.Do(func() {
		mono, err := opentype.Parse(gomono.TTF)
		if err != nil {
			fontsErr = fmt.Errorf("render: the Go Mono font: %w", err)
			return
		}
		ui, err := opentype.Parse(goregular.TTF)
		if err != nil {
			fontsErr = fmt.Errorf("render: the Go Regular font: %w", err)
			return
		}
		if monoFace, err = opentype.NewFace(mono, &opentype.FaceOptions{Size: 14, DPI: 72, Hinting: font.HintingFull}); err != nil {
			fontsErr = fmt.Errorf("render: %w", err)
			return
		}
		if uiFace, err = opentype.NewFace(ui, &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingFull}); err != nil {
			fontsErr = fmt.Errorf("render: %w", err)
		}
	})
	return fontsErr
}

// painter draws one theme.
type painter struct {
	img *image.RGBA
	t   *theme.Theme
	bg  theme.Color // ui.background as seen (opaque)
}

// faceMu serialises drawing: the faces are shared and keep a glyph cache.
var faceMu sync.Mutex

// Image paints t with a code sample in lang (DefaultLanguage when "").
func Image(t *theme.Theme, lang string) (*image.RGBA, error) {
	if t == nil {
		return nil, fmt.Errorf("render: no theme")
	}
	if lang == "" {
		lang = DefaultLanguage
	}
	l, ok := languages[strings.ToLower(lang)]
	if !ok {
		return nil, fmt.Errorf("render: no code sample in %q (want one of %s)", lang, strings.Join(Languages(), ", "))
	}
	if err := faces(); err != nil {
		return nil, err
	}
	faceMu.Lock()
	defer faceMu.Unlock()
	p := &painter{img: image.NewRGBA(image.Rect(0, 0, Width, Height)), t: t}
	p.bg = t.UI.Background.Over(theme.Color{A: 255})
	p.paint(l)
	return p.img, nil
}

// PNG is Image encoded as PNG.
func PNG(t *theme.Theme, lang string) ([]byte, error) {
	img, err := Image(t, lang)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("render: encode PNG: %w", err)
	}
	if b.Len() > MaxPNG {
		return nil, fmt.Errorf("render: the picture is %d bytes, over %d", b.Len(), MaxPNG)
	}
	return b.Bytes(), nil
}

// role is a role's colour composited over under (what is seen there).
func (p *painter) role(path string, under theme.Color) theme.Color {
	return p.t.Color(path).Over(under)
}

func rgba(c theme.Color) color.RGBA { return color.RGBA{c.R, c.G, c.B, 255} }

func (p *painter) fill(r image.Rectangle, c theme.Color) {
	draw.Draw(p.img, r, image.NewUniform(rgba(c)), image.Point{}, draw.Src)
}

// text draws s with its baseline at (x, y) and returns the x after it.
func (p *painter) text(face font.Face, x, y int, s string, c theme.Color) int {
	d := font.Drawer{Dst: p.img, Src: image.NewUniform(rgba(c)), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
	return d.Dot.X.Round()
}

func advance(face font.Face, s string) int { return font.MeasureString(face, s).Round() }

func (p *painter) paint(l language) {
	bg := p.bg
	surface := p.role("ui.surface", bg)
	border := p.role("ui.border", bg)
	text := p.role("ui.text", bg)
	muted := p.role("ui.mutedText", bg)
	accent := p.role("ui.accent", bg)

	p.fill(p.img.Bounds(), bg)

	// Tabs.
	p.fill(image.Rect(0, 0, Width, tabH), surface)
	x := sideW
	for i, name := range []string{"palette" + ext(l), "theme.json", "README.md"} {
		w := advance(uiFace, name) + 32
		if i == 0 {
			p.fill(image.Rect(x, 0, x+w, tabH), bg)
			p.fill(image.Rect(x, 0, x+w, 2), accent)
			p.text(uiFace, x+16, 22, name, text)
		} else {
			p.text(uiFace, x+16, 22, name, muted)
		}
		p.fill(image.Rect(x+w, 0, x+w+1, tabH), border)
		x += w + 1
	}
	p.fill(image.Rect(0, tabH-1, Width, tabH), border)

	// Sidebar: a file tree with the git decorations a theme colours.
	p.fill(image.Rect(0, tabH, sideW, Height-statusH), surface)
	p.fill(image.Rect(sideW-1, tabH, sideW, Height-statusH), border)
	p.text(uiFace, 14, tabH+22, "EXPLORER", muted)
	files := []struct{ name, role string }{
		{"palette" + ext(l), ""}, {"theme.json", "ui.warning"}, {"swatches.json", "ui.success"},
		{"legacy.conf", "ui.error"}, {"README.md", ""}, {"LICENSE", "ui.mutedText"},
	}
	for i, f := range files {
		y := tabH + 36 + i*24
		c := text
		if i == 0 {
			p.fill(image.Rect(0, y, sideW-1, y+24), p.role("ui.selection", surface))
			c = p.role("terminal.selectionText", p.role("ui.selection", surface))
		} else if f.role != "" {
			c = p.role(f.role, surface)
		}
		p.text(uiFace, 28, y+17, f.name, c)
	}

	p.code(l)
	p.diff()
	p.terminal()

	// Status bar, with the branch on an accent badge.
	sy := Height - statusH
	p.fill(image.Rect(0, sy, Width, Height), surface)
	p.fill(image.Rect(0, sy, Width, sy+1), border)
	p.fill(image.Rect(0, sy+1, 80, Height), accent)
	p.text(uiFace, 14, sy+18, "main", p.role("editor.accentText", accent))
	p.text(uiFace, 96, sy+18, "1 error  1 warning", muted)
	right := "Ln 14, Col 9   UTF-8   " + strings.ToUpper(l.name())
	p.text(uiFace, Width-advance(uiFace, right)-16, sy+18, right, muted)
}

func ext(l language) string {
	switch l.name() {
	case "python":
		return ".py"
	case "rust":
		return ".rs"
	case "typescript":
		return ".ts"
	case "c":
		return ".c"
	}
	return ".go"
}

func (l language) name() string {
	for k, v := range languages {
		if v.sample == l.sample {
			return k
		}
	}
	return ""
}

// code draws the sample with its gutter, the current line, a selection,
// the cursor and an error squiggle with its message.
func (p *painter) code(l language) {
	bg := p.bg
	gutter := p.role("editor.gutter", bg)
	p.fill(image.Rect(sideW, tabH, sideW+gutterW, panelY), gutter)
	lines := strings.Split(l.sample, "\n")
	const current, selected = 13, 8
	for i, line := range lines {
		y := codeY + i*lineH
		if y+lineH > panelY-104 {
			break
		}
		lineBG := bg
		if i == current {
			lineBG = p.role("editor.lineHighlight", bg)
			p.fill(image.Rect(sideW+gutterW, y, Width, y+lineH), lineBG)
		}
		num := fmt.Sprint(i + 1)
		numRole := "editor.lineNumber"
		if i == current {
			numRole = "editor.lineNumberActive"
		}
		p.text(monoFace, sideW+gutterW-10-advance(monoFace, num), y+15, num, p.role(numRole, gutter))
		x := sideW + gutterW + 14
		line = strings.ReplaceAll(line, "\t", "    ")
		toks := l.lex(line)
		squiggled := false
		if i == selected {
			// Select the line's text after its indent.
			ind := len(line) - len(strings.TrimLeft(line, " "))
			sx := x + advance(monoFace, line[:ind])
			p.fill(image.Rect(sx, y, x+advance(monoFace, line), y+lineH), p.role("ui.selection", bg))
			lineBG = p.role("ui.selection", bg)
		}
		for _, tk := range toks {
			c := p.role("ui.text", lineBG)
			if tk.role != "" {
				c = p.role(tk.role, lineBG)
			}
			start := x
			x = p.text(monoFace, x, y+15, tk.text, c)
			if tk.text == `"unnamed"` {
				p.squiggle(start, x, y+18, p.role("diagnostic.error", lineBG))
				squiggled = true
			}
		}
		if i == current {
			// The cursor, a bar at the end of the line's indent.
			cx := sideW + gutterW + 14 + advance(monoFace, "    ")
			p.fill(image.Rect(cx, y+2, cx+2, y+lineH-2), p.role("terminal.cursor", lineBG))
		}
		if squiggled {
			squiggled = false
			p.text(uiFace, x+24, y+15, "unnamed string: give it a name", p.role("diagnostic.error", lineBG))
		}
	}
}

func (p *painter) squiggle(x0, x1, y int, c theme.Color) {
	for x := x0; x < x1; x++ {
		dy := 0
		if (x/2)%2 == 1 {
			dy = 1
		}
		p.img.SetRGBA(x, y+dy, rgba(c))
	}
}

// diff draws three lines of a unified diff: removed, added, unchanged.
func (p *painter) diff() {
	bg := p.bg
	top := panelY - 96
	p.fill(image.Rect(sideW, top-8, Width, top-7), p.role("ui.border", bg))
	rows := []struct{ sign, text, line, mark string }{
		{" ", `    hex: 0x1e1e2e,`, "", ""},
		{"-", `    name: "base",`, "diff.removedLine", "diff.removed"},
		{"+", `    name: "mantle",`, "diff.addedLine", "diff.added"},
		{"~", `    weight: 0.75,`, "diff.changedLine", "diff.changed"},
	}
	for i, r := range rows {
		y := top + i*lineH
		lineBG := bg
		if r.line != "" {
			lineBG = p.role(r.line, bg)
			p.fill(image.Rect(sideW, y, Width, y+lineH), lineBG)
		}
		signC := p.role("ui.mutedText", lineBG)
		if r.mark != "" {
			signC = p.role(r.mark, lineBG)
		}
		p.text(monoFace, sideW+gutterW-24, y+15, r.sign, signC)
		p.text(monoFace, sideW+gutterW+14, y+15, r.text, p.role("ui.text", lineBG))
	}
}

// terminal draws the panel: a prompt, coloured output, the ANSI names in
// their colours and the 16 swatches, and a block cursor.
func (p *painter) terminal() {
	bg := p.bg
	surface := p.role("ui.surface", bg)
	p.fill(image.Rect(panelX, panelY, Width, panelY+1), p.role("ui.border", bg))
	p.fill(image.Rect(panelX, panelY+1, Width, panelY+26), surface)
	x := p.text(uiFace, panelX+16, panelY+18, "TERMINAL", p.role("ui.text", surface))
	p.fill(image.Rect(panelX+16, panelY+24, x, panelY+26), p.role("ui.accent", surface))
	p.text(uiFace, x+24, panelY+18, "PROBLEMS  2", p.role("ui.mutedText", surface))
	ansi := func(i int) theme.Color { return p.t.ANSI[i].Over(bg) }
	y := termY + 15
	x = p.text(monoFace, panelX+16, y, "designer@studio", ansi(2))
	x = p.text(monoFace, x, y, ":", p.role("ui.text", bg))
	x = p.text(monoFace, x, y, "~/themes", ansi(4))
	p.text(monoFace, x, y, "$ git status --short", p.role("ui.text", bg))
	y += lineH
	x = p.text(monoFace, panelX+16, y, " M ", ansi(1))
	x = p.text(monoFace, x, y, "theme.json   ", p.role("ui.text", bg))
	x = p.text(monoFace, x, y, "?? ", ansi(1))
	p.text(monoFace, x, y, "swatches.json", p.role("ui.text", bg))
	y += lineH
	x = panelX + 16
	for i := 0; i < 8; i++ {
		x = p.text(monoFace, x, y, theme.ANSINames[i]+" ", ansi(i))
	}
	for i := 8; i < 16; i++ {
		x = p.text(monoFace, x, y, strings.TrimPrefix(theme.ANSINames[i], "bright")+" ", ansi(i))
	}
	y += lineH
	p.text(monoFace, panelX+16, y, "All 16 colours: normal row, then bright.", p.role("ui.text", bg))
	y += lineH
	for i := 0; i < 16; i++ {
		p.fill(ANSISwatch(i), ansi(i))
	}
	// The prompt again, with a block cursor over the next character.
	y = ANSISwatch(8).Max.Y + 6 + 15
	x = p.text(monoFace, panelX+16, y, "$ ", p.role("ui.text", bg))
	cur := p.role("terminal.cursor", bg)
	w := advance(monoFace, "m")
	p.fill(image.Rect(x, y-13, x+w, y+4), cur)
	p.text(monoFace, x, y, "m", p.role("terminal.cursorText", cur))
	p.text(monoFace, x+w, y, "ake export", p.role("terminal.dimForeground", bg))
}
