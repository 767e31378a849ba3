package themeimport

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/fsread"
	"cdxtheme/core/plist"
	"cdxtheme/core/theme"
)

// MaxImportSize bounds a file to import: real themes are a few kB (a large
// VS Code theme ~300 kB); anything bigger is not a theme.
const MaxImportSize = 4 << 20

// importCaps is the largest file read per format: near what a theme of
// that format can be, since decoding costs up to ~120 bytes per byte
// (yaml.v3's nodes). Real files are far smaller: in testdata/oracle the
// largest VS Code theme is 70 KB, .itermcolors 27 KB, the rest ≤ 2 KB.
// VS Code themes keep the 4 MB cap (the largest published are ~1 MB);
// what they build must still fit a theme.json (finish).
var importCaps = map[string]int{
	"vscode": MaxImportSize, "windows-terminal": MaxImportSize, "cdxtheme": MaxImportSize,
	"iterm2": 1 << 20, "tmtheme": 1 << 20,
	"base16": 256 << 10, "base24": 256 << 10, "alacritty": 256 << 10, "wezterm": 256 << 10,
	"kitty": 256 << 10, "ghostty": 256 << 10, "foot": 256 << 10,
}

// Source formats Import reads, by id (the export format ids where both
// exist).
var ImportFormats = []string{"vscode", "base16", "base24", "iterm2", "tmtheme", "alacritty", "wezterm",
	"windows-terminal", "kitty", "ghostty", "foot", "cdxtheme"}

// Imported is a theme built from another program's file, with the record
// of where every role came from, so nothing is silently invented.
type Imported struct {
	Theme  *theme.Theme `json:"-"`
	Format string       `json:"format"`
	// Mapped roles were copied from one key of the source.
	Mapped []Mapping `json:"mapped"`
	// Derived roles had no key of their own; Rule says how they were made.
	Derived []Derivation `json:"derived"`
	// Warnings are parts of the source that were not used (an include
	// that is not followed, a second scheme in the file, …).
	Warnings []string `json:"warnings,omitempty"`
	// Kept are the parts of the source carried verbatim beside the roles
	// (the scheme's slots, colours' original spaces, per-target
	// overrides), by path.
	Kept []string `json:"kept,omitempty"`
	// Palette lists the palette entries the import derived from the
	// source's colours (import_palette.go), which the roles now follow;
	// empty when the source had a palette of its own.
	Palette []DerivedEntry `json:"palette,omitempty"`
}

// Mapping is a role copied from a source key.
type Mapping struct {
	Role string `json:"role"`
	From string `json:"from"`
}

// Derivation is a role computed from other roles (or a default).
type Derivation struct {
	Role string   `json:"role"`
	From []string `json:"from,omitempty"`
	Rule string   `json:"rule"`
}

// ImportError is bad input: the file, the line (0 when unknown) and the
// key it concerns.
type ImportError struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *ImportError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ReadImportFile reads a file to import: a regular file (a FIFO or device
// is refused before it could block; a symlink the user names is followed),
// at most MaxImportSize bytes, also if it grows while read. fsread holds
// those checks for every hostile read; this only names the import.
func ReadImportFile(path string) ([]byte, error) {
	data, err := fsread.ReadFile(path, MaxImportSize, fsread.Follow)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	return data, nil
}

// Import builds a theme from the content of a file in one of
// ImportFormats; name is the file's name (its extension picks the format,
// else the content does) and is used in error messages.
func Import(name string, data []byte) (*Imported, error) {
	if len(data) > MaxImportSize {
		return nil, &ImportError{File: name, Msg: fmt.Sprintf("%d bytes; a theme file is at most %d", len(data), MaxImportSize)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	format, err := detect(name, data)
	if err != nil {
		return nil, err
	}
	if max := importCaps[format]; len(data) > max {
		return nil, &ImportError{File: name, Msg: fmt.Sprintf("%d KB; %s themes are a few KB and at most %d KB is read", len(data)>>10, format, max>>10)}
	}
	b := newBuilder(name, format)
	switch format {
	case "vscode", "windows-terminal", "cdxtheme":
		err = importJSON(b, data)
	case "base16", "base24":
		err = importScheme(b, data)
	case "iterm2", "tmtheme":
		err = importPlist(b, data)
	case "alacritty", "wezterm":
		err = importTOML(b, data)
	case "kitty", "ghostty", "foot":
		err = importConf(b, data)
	}
	if err != nil {
		return nil, err
	}
	return b.finish()
}

// detect picks the source format from the extension, then the content.
func detect(name string, data []byte) (string, error) {
	ext := strings.ToLower(filepath.Ext(name))
	text := string(data)
	trim := strings.TrimSpace(text)
	switch ext {
	case ".json", ".jsonc", ".code-theme":
		return detectJSON(name, data)
	case ".yaml", ".yml":
		return detectScheme(data), nil
	case ".itermcolors":
		return "iterm2", nil
	case ".tmtheme":
		return "tmtheme", nil
	case ".toml":
		return detectTOML(text), nil
	case ".ini":
		return "foot", nil
	case ".conf":
		if looksGhostty(text) {
			return "ghostty", nil
		}
		return "kitty", nil
	}
	switch {
	case plist.IsBinary(data):
		return "iterm2", nil
	case strings.HasPrefix(trim, "{") || strings.HasPrefix(trim, "//") || strings.HasPrefix(trim, "/*"):
		return detectJSON(name, data)
	case strings.HasPrefix(trim, "<"):
		if strings.Contains(text, "<key>settings</key>") && !strings.Contains(text, "Background Color") {
			return "tmtheme", nil
		}
		return "iterm2", nil
	case lineMatches(text, func(l string) bool { return strings.HasPrefix(l, "[colors.primary]") }):
		return "alacritty", nil
	case lineMatches(text, func(l string) bool { return strings.HasPrefix(l, "regular0=") || strings.HasPrefix(l, "regular0 =") }):
		return "foot", nil
	case lineMatches(text, func(l string) bool { return strings.HasPrefix(l, "[colors]") }):
		return detectTOML(text), nil
	case strings.Contains(text, "base00"):
		return detectScheme(data), nil
	case looksGhostty(text):
		return "ghostty", nil
	case lineMatches(text, func(l string) bool { f := strings.Fields(l); return len(f) == 2 && f[0] == "background" }):
		return "kitty", nil
	}
	return "", &ImportError{File: name, Msg: "not a theme format CDXTheme imports (want " + strings.Join(ImportFormats, ", ") + ")"}
}

func lineMatches(text string, f func(line string) bool) bool {
	for l := range strings.Lines(text) { // no slice of every line: 64 MB for 4 MB of newlines
		if f(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

// looksGhostty: Ghostty writes "key = value" and its palette as
// "palette = N=#rrggbb"; kitty writes "key value".
func looksGhostty(text string) bool {
	return lineMatches(text, func(l string) bool {
		k, _, ok := strings.Cut(l, "=")
		k = strings.TrimSpace(k)
		return ok && (k == "palette" || k == "background" || k == "foreground")
	})
}

// builder assembles an imported theme and records each role's origin.
type builder struct {
	file     string
	format   string
	t        theme.Theme
	set      map[string]bool
	mapped   []Mapping
	derived  []Derivation
	warnings []string
	kept     []string
	appear   string // "dark"/"light" when the source says so
	unshown  int    // warnings past maxWarnings
}

func newBuilder(file, format string) *builder {
	return &builder{file: file, format: format, set: map[string]bool{}}
}

// errAt is an error at a line and key. The key and the message quote the
// file, which may hold a 4 MB key or value: both are clipped so the error
// stays a line a person reads.
func (b *builder) errAt(line int, key, format string, args ...any) error {
	return &ImportError{File: b.file, Line: line, Key: clip(key, 120), Msg: clip(fmt.Sprintf(format, args...), 300)}
}

// clip cuts s to at most n bytes (at a character boundary), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("… (%d bytes more)", len(s)-i)
}

// put copies a source colour into a role, once: the first key that gives a
// role wins, so callers list keys in order of preference.
func (b *builder) put(role, from string, c theme.Color) {
	if b.set[role] {
		return
	}
	b.t.Set(role, c)
	b.set[role] = true
	b.mapped = append(b.mapped, Mapping{Role: role, From: from})
}

// derive fills a role that no key gave.
func (b *builder) derive(role, rule string, c theme.Color, from ...string) {
	if b.set[role] {
		return
	}
	b.t.Set(role, c)
	b.set[role] = true
	b.derived = append(b.derived, Derivation{Role: role, From: from, Rule: rule})
}

// maxWarnings bounds the warnings an import reports: a file of 30,000
// unknown lines is not 30,000 lines for a person to read.
const maxWarnings = 100

func (b *builder) warn(format string, args ...any) {
	if len(b.warnings) >= maxWarnings {
		b.unshown++
		return
	}
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

func (b *builder) get(role string) theme.Color { return b.t.Color(role) }

// used are the source keys a role was read from.
func (b *builder) used() map[string]bool {
	u := map[string]bool{}
	for _, m := range b.mapped {
		u[m.From] = true
	}
	return u
}

// notCarried names source keys that hold a colour no role took, in one
// warning, so nothing is dropped silently.
func (b *builder) notCarried(keys []string) {
	if len(keys) > 0 {
		b.warn("not carried (no role takes them, or another key gave the role): %s", strings.Join(keys, ", "))
	}
}

// finish derives every role the source did not give, from the roles it
// did, in an order where each rule's inputs are already set, then checks
// the result is a valid theme.
func (b *builder) finish() (*Imported, error) {
	if !b.set["ui.background"] {
		switch {
		case b.set["ui.text"] && !theme.IsDark(b.get("ui.text")):
			b.derive("ui.background", "the source has no background; its text is light, so a dark default", theme.Color{R: 0x1e, G: 0x1e, B: 0x1e, A: 255}, "ui.text")
		case b.set["ui.text"]:
			b.derive("ui.background", "the source has no background; its text is dark, so a light default", theme.Color{R: 0xff, G: 0xff, B: 0xff, A: 255}, "ui.text")
		case b.appear == "light":
			b.derive("ui.background", "the source has no background; the default light background", theme.Color{R: 0xff, G: 0xff, B: 0xff, A: 255})
		default:
			b.derive("ui.background", "the source has no background; the default dark background", theme.Color{R: 0x1e, G: 0x1e, B: 0x1e, A: 255})
		}
	}
	bg := b.get("ui.background").Over(theme.Color{A: 255})
	dark := theme.IsDark(bg)
	if b.appear != "" {
		b.t.Appearance = b.appear
	} else if dark {
		b.t.Appearance = "dark"
	} else {
		b.t.Appearance = "light"
	}
	if !b.set["ui.text"] {
		switch {
		case b.set["ansi.white"] && dark:
			b.derive("ui.text", "the ANSI white", b.get("ansi.white"), "ansi.white")
		case dark:
			b.derive("ui.text", "the source has no foreground; near-white on a dark background", theme.Color{R: 0xd4, G: 0xd4, B: 0xd4, A: 255}, "ui.background")
		default:
			b.derive("ui.text", "the source has no foreground; near-black on a light background", theme.Color{R: 0x1f, G: 0x1f, B: 0x1f, A: 255}, "ui.background")
		}
	}
	text := b.get("ui.text").Over(bg)
	mixRule := func(role string, f float64, of, into string) {
		b.derive(role, fmt.Sprintf("%d%% of %s mixed into %s", int(f*100+0.5), of, into),
			theme.Mix(b.get(into).Over(bg), b.get(of).Over(bg), f), into, of)
	}
	// The ANSI colours first: terminal sources give only these, and the
	// syntax and status roles below fall back to them.
	fromUI := []struct{ ansi, role string }{
		{"ansi.red", "ui.error"}, {"ansi.green", "ui.success"}, {"ansi.yellow", "ui.warning"},
		{"ansi.blue", "ui.accent"}, {"ansi.blue", "syntax.function"}, {"ansi.magenta", "syntax.keyword"},
		{"ansi.cyan", "syntax.type"}, {"ansi.green", "syntax.string"}, {"ansi.yellow", "syntax.number"},
	}
	for _, m := range fromUI {
		if !b.set[m.ansi] && b.set[m.role] {
			b.derive(m.ansi, "same as "+m.role+" (the source has no terminal colours)", b.get(m.role), m.role)
		}
	}
	if !b.set["ansi.black"] {
		if dark {
			mixRule("ansi.black", 0.12, "ui.text", "ui.background")
		} else {
			b.derive("ansi.black", "same as ui.text (a light theme's black)", text, "ui.text")
		}
	}
	if !b.set["ansi.white"] {
		if dark {
			b.derive("ansi.white", "same as ui.text", text, "ui.text")
		} else {
			mixRule("ansi.white", 0.15, "ui.text", "ui.background")
		}
	}
	defaults := map[string]theme.Color{ // xterm's palette, only when nothing in the source gives a hue
		"ansi.red": {R: 0xcd, G: 0x31, B: 0x31, A: 255}, "ansi.green": {R: 0x0d, G: 0xbc, B: 0x79, A: 255}, "ansi.yellow": {R: 0xe5, G: 0xe5, B: 0x10, A: 255},
		"ansi.blue": {R: 0x24, G: 0x72, B: 0xc8, A: 255}, "ansi.magenta": {R: 0xbc, G: 0x3f, B: 0xbc, A: 255}, "ansi.cyan": {R: 0x11, G: 0xa8, B: 0xcd, A: 255},
	}
	for i := 1; i <= 6; i++ {
		p := theme.ANSIPath(i)
		if !b.set[p] {
			b.derive(p, "the source gives no "+theme.ANSINames[i]+"; VS Code's default terminal "+theme.ANSINames[i], defaults[p])
		}
	}
	for i := 0; i < 8; i++ {
		br := theme.ANSIPath(i + 8)
		if b.set[br] {
			continue
		}
		base := b.get(theme.ANSIPath(i)).Over(bg)
		if i == 0 {
			mixRule(br, 0.3, "ui.text", "ansi.black")
			continue
		}
		toward := theme.Color{R: 0xff, G: 0xff, B: 0xff, A: 255}
		if !dark {
			toward = theme.Color{A: 255}
		}
		b.derive(br, fmt.Sprintf("%s moved 20%% toward %s", theme.ANSIPath(i), map[bool]string{true: "white", false: "black"}[dark]), theme.Mix(base, toward, 0.2), theme.ANSIPath(i))
	}
	same := func(role, from string) {
		if !b.set[role] {
			b.derive(role, "same as "+from, b.get(from), from)
		}
	}
	same("ui.error", "ansi.red")
	same("ui.warning", "ansi.yellow")
	same("ui.success", "ansi.green")
	same("ui.accent", "ansi.blue")
	if !b.set["ui.surface"] {
		mixRule("ui.surface", 0.06, "ui.text", "ui.background")
	}
	if !b.set["ui.border"] {
		mixRule("ui.border", 0.18, "ui.text", "ui.background")
	}
	if !b.set["ui.mutedText"] {
		mixRule("ui.mutedText", 0.35, "ui.background", "ui.text")
	}
	if !b.set["ui.selection"] {
		mixRule("ui.selection", 0.25, "ui.accent", "ui.background")
	} else {
		b.readableSelection(bg, text)
	}
	same("syntax.keyword", "ansi.magenta")
	same("syntax.string", "ansi.green")
	same("syntax.function", "ansi.blue")
	same("syntax.type", "ansi.cyan")
	same("syntax.number", "ansi.yellow")
	same("syntax.constant", "syntax.number")
	same("syntax.variable", "ui.text")
	same("syntax.operator", "ui.text")
	same("syntax.comment", "ui.mutedText")

	// The optional roles the source did not give stay derived: the
	// document keeps no colour for them, and the report names the rule.
	for _, info := range theme.Catalogue() {
		if !info.Required && !b.set[info.Path] {
			r, _ := b.t.RuleFor(info.Path)
			b.derived = append(b.derived, Derivation{Role: info.Path, From: r.Inputs(), Rule: r.String()})
		}
	}

	if strings.TrimSpace(b.t.Name) == "" {
		base := filepath.Base(b.file)
		b.t.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if strings.TrimSpace(b.t.Name) == "" {
			b.t.Name = "Imported theme"
		}
	}
	b.t.Name = theme.OneLine(b.t.Name)
	// The result goes through the same validation as a theme.json the agent
	// writes, so an importer bug cannot produce an invalid document.
	doc, err := theme.EncodeJSON(&b.t)
	if err != nil {
		return nil, err
	}
	if len(doc) > theme.MaxFileSize {
		// Kept verbatim (a VS Code theme's token rules), the source can
		// build a theme.json larger than a workspace loads.
		return nil, &ImportError{File: b.file, Msg: fmt.Sprintf("the theme built is %d KB; a theme.json is at most %d KB", len(doc)>>10, theme.MaxFileSize>>10)}
	}
	t, err := theme.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("import %s: the built theme is invalid: %w", b.file, err)
	}
	if b.unshown > 0 {
		b.warnings = append(b.warnings, fmt.Sprintf("… and %d more warnings", b.unshown))
	}
	var pal []DerivedEntry
	if len(t.Palette) == 0 {
		pal = derivePalette(t)
	}
	return &Imported{Theme: t, Format: b.format, Mapped: b.mapped, Derived: b.derived, Warnings: b.warnings, Kept: b.kept, Palette: pal}, nil
}

// readableSelection keeps ui.text readable on the selection a terminal
// gave. A terminal draws its selection with a text colour of its own (often
// white on black, or the reverse), so its selection can leave the editor's
// text at 1:1 on it. Then the editor's selection becomes the terminal's
// selection mixed into the background, as much of it as keeps ui.text at AA
// (the contrast check's target), and a terminal selection text that would
// fail on that becomes ui.text. Both are said in the warnings.
func (b *builder) readableSelection(bg, text theme.Color) {
	src := b.get("ui.selection")
	sel := src.Over(bg)
	// Only a terminal that draws its selection with a text colour of its
	// own, one that reads there better than ui.text: any other source's
	// selection is its author's choice for ui.text, kept as given (a VS
	// Code theme sets terminal.selectionForeground too, and its editor
	// selection is its own).
	if b.format == "vscode" || !b.set["terminal.selectionText"] || colour.Ratio(text, sel) >= contrast.AA {
		return
	}
	if own := b.get("terminal.selectionText").Over(sel); own == text || colour.Ratio(own, sel) <= colour.Ratio(text, sel) {
		return
	}
	// The most of the source's selection that still passes. When not even
	// a 5 % tint does, ui.text barely reads on the background itself: the
	// contrast table says so, and the source's selection stays.
	var best theme.Color
	var bestF, bestR float64
	for i := 19; i >= 1 && bestF == 0; i-- {
		f := float64(i) / 20
		c := theme.Mix(bg, sel, f)
		if r := colour.Ratio(text, c); r >= contrast.AA {
			best, bestF, bestR = c, f, r
		}
	}
	if bestF == 0 {
		return
	}
	// Translucent selections are seen over text the editor draws on top,
	// so a tint is enough; an opaque mix is exact in every target.
	b.t.Set("ui.selection", best)
	b.warn("the source's selection %s leaves ui.text at %.2f:1; ui.selection is %s instead (%d%% of it mixed into the background), ui.text reads at %.2f:1 on it",
		src.Hex(), colour.Ratio(text, sel), best.Hex(), int(bestF*100+0.5), bestR)
	if st := b.get("terminal.selectionText"); colour.Ratio(st.Over(best), best) < contrast.AA {
		b.t.Set("terminal.selectionText", b.get("ui.text"))
		b.warn("the terminal's selection text %s fails on that selection; terminal.selectionText is ui.text (%s)", st.Hex(), b.get("ui.text").Hex())
	}
}

// lineAt is the 1-based line of a byte offset.
func lineAt(data []byte, off int64) int {
	if off < 0 {
		return 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// Document is the imported theme as a theme.json document.
func (imp *Imported) Document() ([]byte, error) { return theme.EncodeJSON(imp.Theme) }

// Rename gives the imported theme another name (--name, or the name the
// user typed); an empty name keeps the source's.
func (imp *Imported) Rename(name string) {
	if n := theme.OneLine(name); n != "" {
		imp.Theme.Name = n
	}
}

// DropTargets removes the per-target overrides the import kept, naming
// each dropped key in Warnings: for a user who wants the theme driven by
// its roles alone.
func (imp *Imported) DropTargets() {
	if imp.Theme.Targets == nil {
		return
	}
	for _, k := range imp.Theme.Targets.Keys() {
		imp.Warnings = append(imp.Warnings, k+" is not carried (dropped with the overrides)")
	}
	imp.Theme.Targets = nil
	var kept []string
	for _, k := range imp.Kept {
		if !strings.HasPrefix(k, "targets.") {
			kept = append(kept, k)
		}
	}
	imp.Kept = kept
}
