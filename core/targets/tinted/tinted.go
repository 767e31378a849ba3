// Package tinted renders tinted-theming template folders (builder
// specification 0.11, tinted-theming/home builder.md) with a theme's
// base16 and base24 slots: any base16/base24 template works as an export
// target. A folder holds templates/config.yaml, naming each template
// (templates/NAME.mustache), the file it writes (a mustache template
// itself) and the scheme systems it supports.
package tinted

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cbroglie/mustache"
	"gopkg.in/yaml.v3"

	"cdxtheme/core/base16"
	"cdxtheme/core/fsread"
	"cdxtheme/core/theme"
)

// Bounds on a folder read from disk: a real template repository's config
// is a few KiB and each template a few tens.
const (
	maxConfig   = 256 << 10
	maxTemplate = 1 << 20
	maxEntries  = 256
	maxOutput   = 8 << 20  // one rendered file
	maxRead     = 16 << 20 // all of a folder's templates
	maxWritten  = 64 << 20 // all the files one render writes
)

// Scheme is a scheme in the builder's common format.
type Scheme struct {
	System      string // "base16" or "base24"
	Name        string
	Slug        string
	Author      string
	Description string
	Variant     string
	Palette     map[string]theme.Color
}

// Systems are the scheme systems a theme is rendered in.
var Systems = []string{"base16", "base24"}

// FromTheme is the theme as a scheme of system: its slots as the scheme
// exports write them.
func FromTheme(t *theme.Theme, system string) Scheme {
	author := t.Author
	if author == "" && t.Scheme != nil {
		author = t.Scheme.Author
	}
	if strings.TrimSpace(author) == "" {
		author = "CDXTheme"
	}
	return Scheme{System: system, Name: t.Name, Slug: theme.Slug(t.Name), Author: author, Description: t.Description,
		Variant: t.Appearance, Palette: base16.Colors(t, system)}
}

var hexRE = regexp.MustCompile(`^#?[0-9a-fA-F]{6}$`)

// ParseScheme reads a scheme file: the common format (system, name, slug,
// author, description, variant, palette) or the legacy one (scheme,
// author, baseXX at the top level).
func ParseScheme(data []byte) (Scheme, error) {
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return Scheme{}, fmt.Errorf("scheme: %w", err)
	}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	s := Scheme{System: str("system"), Name: str("name"), Slug: str("slug"), Author: str("author"),
		Description: str("description"), Variant: str("variant"), Palette: map[string]theme.Color{}}
	pal, _ := raw["palette"].(map[string]any)
	if pal == nil { // legacy
		s.Name = str("scheme")
		pal = map[string]any{}
		for k, v := range raw {
			if strings.HasPrefix(k, "base") {
				pal[k] = v
			}
		}
	}
	for k, v := range pal {
		h, _ := v.(string)
		if !hexRE.MatchString(h) {
			return Scheme{}, fmt.Errorf("scheme: palette %s: %q is not a hex colour", k, v)
		}
		c, err := theme.ParseColor("#" + strings.ToLower(strings.TrimPrefix(h, "#")))
		if err != nil {
			return Scheme{}, err
		}
		s.Palette[k] = c
	}
	if s.System == "" {
		s.System = "base16"
		if _, ok := s.Palette["base10"]; ok {
			s.System = "base24"
		}
	}
	if s.Slug == "" {
		s.Slug = Slugify(s.Name)
	}
	if s.Variant == "" {
		s.Variant = "dark"
	}
	return s, nil
}

// Slugify is the builder's: lower case, spaces to dashes, and only letters,
// digits and dashes kept.
func Slugify(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-'):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// slots are the palette names a system's templates see.
func slots(system string) []string {
	n := 16
	if system == "base24" {
		n = 24
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("base%02X", i)
	}
	return out
}

// Context is the builder's variables for a scheme.
func Context(s Scheme) map[string]string {
	ctx := map[string]string{
		"scheme-name":                         s.Name,
		"scheme-author":                       s.Author,
		"scheme-description":                  s.Description,
		"scheme-slug":                         s.Slug,
		"scheme-slug-underscored":             strings.ReplaceAll(s.Slug, "-", "_"),
		"scheme-system":                       s.System,
		"scheme-variant":                      s.Variant,
		"scheme-is-" + s.Variant + "-variant": "true",
	}
	for _, name := range slots(s.System) {
		c, ok := s.Palette[name]
		if !ok {
			continue
		}
		hx := fmt.Sprintf("%02x%02x%02x", c.R, c.G, c.B)
		ctx[name+"-hex"] = hx
		ctx[name+"-hex-bgr"] = hx[4:6] + hx[2:4] + hx[0:2]
		ctx[name+"-hex-r"], ctx[name+"-hex-g"], ctx[name+"-hex-b"] = hx[0:2], hx[2:4], hx[4:6]
		for i, v := range []uint8{c.R, c.G, c.B} {
			ch := "rgb"[i : i+1]
			ctx[name+"-rgb-"+ch] = strconv.Itoa(int(v))
			ctx[name+"-rgb16-"+ch] = strconv.Itoa(int(v) * 257)
			ctx[name+"-dec-"+ch] = strconv.FormatFloat(float64(v)/255, 'f', 8, 64)
		}
	}
	return ctx
}

// escapeHTML is mustache's escaping as tinted's builder does it.
var escapeHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace

// Entry is one template of a folder.
type Entry struct {
	Name     string   `json:"name"`
	Filename string   `json:"filename"`
	Systems  []string `json:"systems"`
	tmpl     *mustache.Template
	file     *mustache.Template
}

// Folder is a loaded template folder.
type Folder struct {
	Dir     string  `json:"dir"`
	Name    string  `json:"name"` // the folder's name, for menus
	Entries []Entry `json:"entries"`
}

type entryConfig struct {
	Filename  string   `yaml:"filename"`
	Systems   []string `yaml:"supported-systems"`
	Extension string   `yaml:"extension"`
	Output    string   `yaml:"output"`
}

// Load reads a template folder: dir/templates/config.yaml and each
// template it names for a system we render (base16, base24); entries for
// other systems (tinted8) are left out.
func Load(dir string) (*Folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(abs, "templates", "config.yaml")
	data, err := fsread.ReadFile(cfgPath, maxConfig, fsread.Follow)
	if err != nil {
		return nil, fmt.Errorf("template folder %s: %w (a tinted-theming template folder has templates/config.yaml)", dir, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", cfgPath, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a map of template names", cfgPath)
	}
	root := doc.Content[0]
	if len(root.Content)/2 > maxEntries {
		return nil, fmt.Errorf("%s: %d templates (at most %d)", cfgPath, len(root.Content)/2, maxEntries)
	}
	f := &Folder{Dir: abs, Name: filepath.Base(abs)}
	seen := map[string]bool{}
	read := 0
	type source struct{ path, text string }
	var sources []source
	for i := 0; i+1 < len(root.Content); i += 2 {
		name := root.Content[i].Value
		if seen[name] {
			return nil, fmt.Errorf("%s: template %q named twice", cfgPath, name)
		}
		seen[name] = true
		var ec entryConfig
		if err := root.Content[i+1].Decode(&ec); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", cfgPath, name, err)
		}
		if len(ec.Systems) == 0 {
			ec.Systems = []string{"base16"}
		}
		var systems []string
		for _, s := range ec.Systems {
			if s == "base16" || s == "base24" {
				systems = append(systems, s)
			}
		}
		if len(systems) == 0 {
			continue
		}
		if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return nil, fmt.Errorf("%s: %q is not a template name", cfgPath, name)
		}
		filename := ec.Filename
		if filename == "" {
			ext := ec.Extension
			if ext != "" && !strings.HasPrefix(ext, ".") {
				ext = "." + ext
			}
			filename = path.Join(ec.Output, "{{ scheme-system }}-{{ scheme-slug }}") + ext
		}
		e := Entry{Name: name, Filename: filename, Systems: systems}
		if e.file, err = mustache.ParseStringRaw(filename, true); err != nil {
			return nil, fmt.Errorf("%s: %s: filename: %w", cfgPath, name, err)
		}
		tp := filepath.Join(abs, "templates", name+".mustache")
		src, err := fsread.ReadFile(tp, maxTemplate, fsread.Follow)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		if read += len(src); read > maxRead {
			return nil, fmt.Errorf("%s: the templates hold more than %d MiB", dir, maxRead>>20)
		}
		f.Entries = append(f.Entries, e)
		sources = append(sources, source{tp, string(src)})
	}
	if len(f.Entries) == 0 {
		return nil, fmt.Errorf("%s: no template for base16 or base24", cfgPath)
	}
	// Parsed once every source is read and the folder is known to be
	// within bounds.
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.tmpl, err = mustache.ParseStringPartials(sources[i].text, noPartials{}); err != nil {
			return nil, fmt.Errorf("%s: %w", sources[i].path, err)
		}
		e.tmpl.Escape(escapeHTML)
	}
	return f, nil
}

// noPartials refuses partials: the builder gives templates none, and a
// partial must not read files outside the folder.
type noPartials struct{}

func (noPartials) Get(name string) (string, error) {
	return "", fmt.Errorf("partial %q: tinted templates have no partials", name)
}

// Render renders every entry for every scheme whose system it supports:
// output path (slash-separated, relative) → content. Two files with one
// name are an error, as the specification requires.
func (f *Folder) Render(schemes []Scheme) (map[string][]byte, error) {
	out := map[string][]byte{}
	from := map[string]string{}
	written := 0
	for _, s := range schemes {
		ctx := Context(s)
		for _, e := range f.Entries {
			if !contains(e.Systems, s.System) {
				continue
			}
			name, err := e.file.Render(ctx)
			if err != nil {
				return nil, fmt.Errorf("template %s: filename: %w", e.Name, err)
			}
			name, err = cleanName(name)
			if err != nil {
				return nil, fmt.Errorf("template %s: %w", e.Name, err)
			}
			body, err := e.tmpl.Render(ctx)
			if err != nil {
				return nil, fmt.Errorf("template %s: %w", e.Name, err)
			}
			if len(body) > maxOutput {
				return nil, fmt.Errorf("template %s: output of %d bytes (at most %d)", e.Name, len(body), maxOutput)
			}
			if written += len(body); written > maxWritten {
				return nil, fmt.Errorf("the templates write more than %d MiB", maxWritten>>20)
			}
			if prev, dup := from[name]; dup {
				return nil, fmt.Errorf("templates %s and %s both write %s", prev, e.Name, name)
			}
			from[name] = e.Name
			out[name] = []byte(body)
		}
	}
	return out, nil
}

// RenderTheme renders the folder for a theme and its companion, each in
// base16 and base24.
func (f *Folder) RenderTheme(t *theme.Theme) (map[string][]byte, error) {
	var schemes []Scheme
	for _, m := range t.Family() {
		for _, sys := range Systems {
			schemes = append(schemes, FromTheme(m, sys))
		}
	}
	return f.Render(schemes)
}

// cleanName keeps a rendered file name inside the output folder.
func cleanName(name string) (string, error) {
	n := path.Clean(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/"))
	if n == "." || n == "" || path.IsAbs(n) || n == ".." || strings.HasPrefix(n, "../") || strings.ContainsAny(n, "\x00:") {
		return "", fmt.Errorf("file name %q leaves the output folder", name)
	}
	return n, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Files lists the names Render would write for a theme, sorted.
func Files(files map[string][]byte) []string {
	out := make([]string, 0, len(files))
	for k := range files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
