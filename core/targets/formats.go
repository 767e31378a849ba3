package targets

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"cdxtheme/core/fswrite"
	"cdxtheme/core/theme"
)

// The registry of export formats: the menu's list, in its order, each
// filled by the template that writes it (register) or by core/packaging,
// then the targets added as data (registerFormat).

// Format is one export target. Files lists the file names it writes, with
// "{slug}" standing for the theme's Slug.
type Format struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Files []string `json:"files"`
	// render writes the family (Theme.Family). It is nil until the
	// template (register) or core/packaging fills it (FillFormat).
	render func(fam []*theme.Theme) (map[string][]byte, error)
	// external: added after the menu's list (registerFormat).
	external bool
}

// Formats are the export formats, in menu order: the templates
// (templates/<id>) and the packages fill the first ones in.
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
func RenderFormat(id string, fam []*theme.Theme) (map[string][]byte, error) {
	f, err := FormatByID(id)
	if err != nil {
		return nil, err
	}
	if f.render == nil {
		return nil, fmt.Errorf("%s is written by core/packaging, which this program does not include", f.Name)
	}
	return f.render(fam)
}

// Render produces the files of one format: relative path (slash-separated)
// to content. It is pure; nothing is written.
func Render(t *theme.Theme, format string) (map[string][]byte, error) {
	f, err := FormatByID(format)
	if err != nil {
		return nil, err
	}
	if f.render == nil {
		return nil, fmt.Errorf("export %s: written by core/packaging, which this program does not include", f.Name)
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
func Export(t *theme.Theme, format, base, rel string) ([]string, error) {
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
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p, err := dir.WriteFile(name, files[name], 0o644)
		if err != nil {
			return paths, fmt.Errorf("export %s: %w", format, err)
		}
		paths = append(paths, filepath.FromSlash(p))
	}
	sort.Strings(paths)
	return paths, nil
}
