package theme

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"cdxtheme/core/colour"
	"cdxtheme/core/fswrite"
)

// Format is one export target. Files lists the file names it writes, with
// "{slug}" standing for the theme's Slug.
type Format struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Files []string `json:"files"`
	// render writes the family (Theme.Family); a format that holds one
	// theme renders each member (renderEach). It is nil for the formats
	// written by a template of core/targets, which fills it (FillFormat)
	// when the program links that package.
	render func(fam []*Theme) (map[string][]byte, error)
	// external: registered by another package (RegisterFormat), not
	// one of this package's list.
	external bool
}

// Formats are the export formats, in menu order. Those with no render here
// are templates (core/targets/templates/<id>), which fill them in.
var Formats = []Format{
	{ID: "vscode", Name: "VS Code", Files: []string{"package.json", "themes/{slug}-color-theme.json"}, render: nil},
	{ID: "zed", Name: "Zed", Files: []string{"{slug}.json"}, render: nil},
	{ID: "alacritty", Name: "Alacritty", Files: []string{"{slug}.toml"}, render: nil},
	{ID: "kitty", Name: "Kitty", Files: []string{"{slug}.conf"}, render: nil},
	{ID: "ghostty", Name: "Ghostty", Files: []string{"{slug}"}, render: nil},
	{ID: "windows-terminal", Name: "Windows Terminal", Files: []string{"{slug}.json"}, render: nil},
	{ID: "iterm2", Name: "iTerm2", Files: []string{"{slug}.itermcolors"}, render: nil},
	{ID: "css", Name: "CSS custom properties", Files: []string{"{slug}.css"}, render: nil},
	{ID: "base16", Name: "Base16 scheme", Files: []string{"{slug}.yaml"}, render: nil},
	{ID: "base24", Name: "Base24 scheme", Files: []string{"{slug}.yaml"}, render: nil},
	{ID: "helix", Name: "Helix", Files: []string{"{slug}.toml"}, render: nil},
	{ID: "neovim", Name: "Neovim", Files: []string{"colors/{slug}.lua"}, render: nil},
	{ID: "wezterm", Name: "WezTerm", Files: []string{"{slug}.toml"}, render: nil},
	{ID: "foot", Name: "foot", Files: []string{"{slug}.ini"}, render: nil},
	{ID: "tmtheme", Name: "TextMate (bat, delta, Sublime)", Files: []string{"{slug}.tmTheme"}, render: nil},
	{ID: "tmux", Name: "tmux", Files: []string{"{slug}.conf"}, render: nil},
	// Packages to publish (core/packaging fills them).
	{ID: "vsix", Name: "VS Code extension package (.vsix)", Files: []string{"{slug}-1.0.0.vsix"}, render: nil},
	{ID: "zed-extension", Name: "Zed extension", Files: []string{"extension.toml", "themes/{slug}.json", "LICENSE", "README.md"}, render: nil},
}

// FormatByID finds a format; the error lists the valid ids.
func FormatByID(id string) (Format, error) {
	for _, f := range Formats {
		if f.ID == id {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown format %q (want one of %s)", id, strings.Join(FormatIDs(), ", "))
}

// FormatIDs lists the format ids.
func FormatIDs() []string {
	ids := make([]string, len(Formats))
	for i, f := range Formats {
		ids[i] = f.ID
	}
	return ids
}

// renderFormat renders a format for a family without Render's wrapping
// (a package that holds another format's files: the Zed extension).
func RenderFormat(id string, fam []*Theme) (map[string][]byte, error) {
	f, err := FormatByID(id)
	if err != nil {
		return nil, err
	}
	if f.render == nil {
		return nil, fmt.Errorf("%s is written by a template of core/targets, which this program does not include", f.Name)
	}
	return f.render(fam)
}

// Render produces the files of one format: relative path (slash-separated)
// to content. It is pure; nothing is written.
func Render(t *Theme, format string) (map[string][]byte, error) {
	f, err := FormatByID(format)
	if err != nil {
		return nil, err
	}
	if f.render == nil {
		return nil, fmt.Errorf("export %s: written by a template of core/targets, which this program does not include", f.Name)
	}
	files, err := f.render(t.Family())
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", f.Name, err)
	}
	return files, nil
}

// Export renders one format and writes its files into the folder rel
// (slash-separated) below base, returning the paths written, sorted. base
// is the caller's own folder (a workspace, a folder the user named);
// nothing below it is reached through a symlink: a link planted where a
// folder or file goes (export/css → elsewhere, export/kitty/x.conf →
// ~/.bashrc) is refused with an error naming it, and what it points at is
// never touched.
func Export(t *Theme, format, base, rel string) ([]string, error) {
	files, err := Render(t, format)
	if err != nil {
		return nil, err
	}
	dir, err := fswrite.Open(base, rel)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", format, err)
	}
	defer dir.Close()
	var paths []string
	for _, name := range sortedKeys(files) {
		p, err := dir.WriteFile(name, files[name], 0o644)
		if err != nil {
			return paths, fmt.Errorf("export %s: %w", format, err)
		}
		paths = append(paths, filepath.FromSlash(p))
	}
	sort.Strings(paths)
	return paths, nil
}

// Slug is the theme name as a file-name-safe, lower-case, dash-separated
// word ("Harbour Night" → "harbour-night"); "theme" when nothing is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	s := b.String()
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "-")
	}
	if s == "" {
		return "theme"
	}
	return s
}

// readable picks whichever of a and b reads better on bg (e.g. the label
// colour on an accent-coloured button).
func readable(bg, a, b Color) Color {
	if colour.Ratio(a, bg) >= colour.Ratio(b, bg) {
		return a
	}
	return b
}

// seen is a role as it appears on the theme's background: terminals cannot
// draw alpha, so translucent colours are flattened for them.
func (t *Theme) seen(c Color) Color { return c.Over(t.UI.Background.Over(Color{A: 255})) }
