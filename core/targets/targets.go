// Package targets holds export targets as data: each is a folder under
// templates/ with a manifest (manifest.toml: the file it writes, where it
// installs on each system, the steps that switch the program to the theme,
// what the format cannot carry) and a Go text/template rendered from a View
// of the theme. Importing the package registers every target with
// core/theme, so Export, Apply and the CLI list them beside the formats
// written in Go.
package targets

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/template"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

//go:embed templates
var embedded embed.FS

// Manifest describes one target.
type Manifest struct {
	ID   string `toml:"id"`
	Name string `toml:"name"`
	// File is the name each theme of the family gets ("{slug}" is its
	// slug; slash-separated).
	File string `toml:"file"`
	// Template is the template file in the target's folder
	// (default "template.tmpl").
	Template string `toml:"template"`
	// FamilyFiles are files written once for the family beside the
	// theme files (VS Code's package.json), each from its own template
	// executed on the first theme's view.
	FamilyFiles []FamilyFile `toml:"family_files"`
	// Family says the file holds the whole family (the theme and its
	// companion), named after the theme: the template renders once, its
	// .Family listing both.
	Family bool `toml:"family"`
	// Data is a TOML file in the target's folder holding the target's
	// tables (which role paints which key, contrast preferences): the
	// template reads it as {{data}}, so derivation rules stay data.
	Data string `toml:"data"`
	// Syntax names the file's language (json, toml, yaml, vimscript, …):
	// which quote helper its template must use.
	Syntax string `toml:"syntax"`
	// Limits says what the format cannot carry (alpha, font styles,
	// roles with no key).
	Limits string `toml:"limits"`
	// Docs is where the format is documented: what the schema check
	// follows when the program is not installable here.
	Docs    string   `toml:"docs"`
	Install *Install `toml:"install"`
	// Replaces says the template writes a format core/theme wrote in Go,
	// byte for byte (moved_test.go): core/theme keeps the format's place in
	// the menu and its install target, and the template fills it.
	Replaces bool `toml:"replaces"`

	tmpl *template.Template
	data map[string]any
	// scopes, scopeNames: Scopes and every scope name in them with each
	// dot-prefix, read once.
	scopesOnce sync.Once
	scopes     []string
	stacks     [][]string // scopes, each split into its scope names
	scopeNames map[string]bool
}

// FamilyFile is one file of FamilyFiles.
type FamilyFile struct {
	Name     string `toml:"name"`
	Template string `toml:"template"`
	tmpl     *template.Template
}

// Install is where and how the target installs into a config folder. Each
// string is a text/template over InstallData.
type Install struct {
	// Path by GOOS, "default" for the others; a system with no path and no
	// default cannot install it.
	Path  map[string]string `toml:"path"`
	Runs  []string          `toml:"runs"`
	Where string            `toml:"where"`
	Note  string            `toml:"note"`
	// Reload is how the running program picks the theme up.
	Reload string     `toml:"reload"`
	Steps  []StepSpec `toml:"steps"`
}

// StepSpec is one activation step: a line to add to File, or a command.
type StepSpec struct {
	Kind string `toml:"kind"`
	File string `toml:"file"`
	Text string `toml:"text"`
	OS   string `toml:"os"` // only on this GOOS ("!windows": all but it)
	// Setting lets Apply find the line's setting in File and change it
	// for the user (core/apply); without it the step is shown only.
	Setting *SettingSpec `toml:"setting"`
	// userPicks says File names a part the user picks ("<your
	// profile>.profile"): no file Apply can find, so the step is the
	// user's to do (set at load).
	userPicks bool
}

// SettingSpec is how to find a line step's setting in a file of one
// setting a line: Match is a regexp for the setting's line whose group
// "v" is the value; Value (a template) replaces it. Multi "last" changes
// the last of several (the one that counts), "one" leaves several to the
// user; Insert is where a missing one goes ("end" or "top"); Section,
// when set, is the [section] it lives in.
type SettingSpec struct {
	Match   string `toml:"match"`
	Value   string `toml:"value"`
	Multi   string `toml:"multi"`
	Insert  string `toml:"insert"`
	Section string `toml:"section"`
}

// InstallData is what the install strings see.
type InstallData struct {
	Home, Config, Data, AppData, LocalAppData string
	Name, Slug, Appearance, Path              string
}

var manifests []*Manifest

func init() {
	ms, err := load(embedded)
	if err != nil {
		panic("targets: " + err.Error()) // the embedded templates are part of the binary
	}
	manifests = ms
	for _, m := range ms {
		register(m)
	}
}

// load reads every target folder under templates/.
func load(fsys fs.FS) ([]*Manifest, error) {
	entries, err := fs.ReadDir(fsys, "templates")
	if err != nil {
		return nil, err
	}
	var out []*Manifest
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := path.Join("templates", e.Name())
		raw, err := fs.ReadFile(fsys, path.Join(dir, "manifest.toml"))
		if err != nil {
			return nil, err
		}
		m := &Manifest{}
		dec := toml.NewDecoder(bytes.NewReader(raw)).DisallowUnknownFields()
		if err := dec.Decode(m); err != nil {
			return nil, fmt.Errorf("%s/manifest.toml: %w", dir, err)
		}
		if m.ID != e.Name() || m.Name == "" || m.File == "" || !strings.Contains(m.File, "{slug}") {
			return nil, fmt.Errorf("%s/manifest.toml: want id %q, a name, and a file with {slug}", dir, e.Name())
		}
		if err := m.checkSettings(); err != nil {
			return nil, fmt.Errorf("%s/manifest.toml: %w", dir, err)
		}
		if m.Template == "" {
			m.Template = "template.tmpl"
		}
		src, err := fs.ReadFile(fsys, path.Join(dir, m.Template))
		if err != nil {
			return nil, err
		}
		if m.Data != "" {
			raw, err := fs.ReadFile(fsys, path.Join(dir, m.Data))
			if err != nil {
				return nil, err
			}
			if err := toml.Unmarshal(raw, &m.data); err != nil {
				return nil, fmt.Errorf("%s/%s: %w", dir, m.Data, err)
			}
		}
		data, tmpl := m.data, new(*template.Template)
		m.tmpl, err = template.New(m.Template).Funcs(funcs).Funcs(template.FuncMap{
			"data": func() map[string]any { return data },
			"include": func(name string, dot any) (string, error) {
				var b strings.Builder
				err := (*tmpl).ExecuteTemplate(&b, name, dot)
				return b.String(), err
			},
		}).Option("missingkey=error").Parse(string(src))
		*tmpl = m.tmpl
		for i := range m.FamilyFiles {
			if err != nil {
				break
			}
			ff := &m.FamilyFiles[i]
			var fsrc []byte
			if fsrc, err = fs.ReadFile(fsys, path.Join(dir, ff.Template)); err == nil {
				ff.tmpl, err = m.tmpl.New(ff.Template).Parse(string(fsrc))
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return order(out[i].ID) < order(out[j].ID) })
	return out, nil
}

// checkSettings refuses, once when the manifest loads, a step Apply could
// not carry out as written: a setting with a bad regexp, one without its
// "v" group, an unknown policy, a value with a line break (one setting
// would become two lines of the user's file), or a setting on a file
// whose name the user picks. Such a file without a setting is a step
// for the user to do (userPicks).
func (m *Manifest) checkSettings() error {
	if m.Install == nil {
		return nil
	}
	for i := range m.Install.Steps {
		st := &m.Install.Steps[i]
		if err := st.check(); err != nil {
			return fmt.Errorf("target %s, step %d: %w", m.ID, i+1, err)
		}
	}
	return nil
}

func (st *StepSpec) check() error {
	st.userPicks = strings.Contains(st.File, "<")
	sp := st.Setting
	if sp == nil {
		return nil
	}
	re, err := regexp.Compile(sp.Match)
	switch {
	case st.Kind != "line":
		return fmt.Errorf("a %s step has a setting; only a line has one", st.Kind)
	case st.userPicks:
		return fmt.Errorf("the file names a part the user picks (%s), which Apply cannot find: drop the setting", st.File)
	case err != nil:
		return fmt.Errorf("setting match: %w", err)
	case re.SubexpIndex("v") < 0:
		return fmt.Errorf("setting match %q has no (?P<v>…) group for the value", sp.Match)
	case sp.Value == "":
		return errors.New("setting has no value")
	case strings.ContainsAny(sp.Value, "\r\n"):
		return fmt.Errorf("setting value has a line break (%q); a setting is one line", sp.Value)
	case !slices.Contains([]string{"", "last", "one"}, sp.Multi):
		return fmt.Errorf("setting multi %q: want last or one", sp.Multi)
	case !slices.Contains([]string{"", "end", "top"}, sp.Insert):
		return fmt.Errorf("setting insert %q: want end or top", sp.Insert)
	}
	return nil
}

// menu is the order targets appear in, after the Go-written formats:
// editors, terminals, shell tools, then the rest.
var menu = []string{"vim", "emacs", "jetbrains", "sublime",
	"gnome-terminal", "konsole", "xfce4-terminal", "terminal-app", "tilix", "mintty", "warp", "xresources",
	"fish", "fzf", "ls-colors", "delta", "lazygit", "btop", "k9s", "yazi", "zellij", "starship",
	"gtk", "obsidian", "firefox", "chrome", "slack"}

func order(id string) int {
	for i, x := range menu {
		if x == id {
			return i
		}
	}
	return len(menu)
}

// Manifests lists the targets defined as data, in menu order.
func Manifests() []*Manifest { return manifests }

// Render renders one target for a family: each theme's file, by name.
func (m *Manifest) Render(fam []*theme.Theme) (map[string][]byte, error) {
	out := map[string][]byte{}
	views := familyViews(fam)
	for _, ff := range m.FamilyFiles {
		var b bytes.Buffer
		if err := ff.tmpl.Execute(&b, views[0]); err != nil {
			return nil, fmt.Errorf("%s template: %w", m.ID, err)
		}
		out[ff.Name] = b.Bytes()
	}
	if m.Family {
		views = views[:1]
	}
	for _, v := range views {
		var b bytes.Buffer
		if err := m.tmpl.Execute(&b, v); err != nil {
			return nil, fmt.Errorf("%s template: %w", m.ID, err)
		}
		name := strings.ReplaceAll(m.File, "{slug}", v.Slug)
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s and %s both write %s: give them names that differ in letters or digits", fam[0].Name, v.Name, name)
		}
		out[name] = b.Bytes()
	}
	return out, nil
}

func register(m *Manifest) {
	if m.Replaces {
		f, err := FillFormat(m.ID, m.Render)
		if err != nil {
			panic("targets: " + err.Error())
		}
		files := []string{}
		for _, ff := range m.FamilyFiles {
			files = append(files, ff.Name)
		}
		if f.Name != m.Name || fmt.Sprint(f.Files) != fmt.Sprint(append(files, m.File)) {
			panic(fmt.Sprintf("targets: %s manifest says %q writes %q; the menu says %q, %v", m.ID, m.Name, m.File, f.Name, f.Files))
		}
		return
	}
	registerFormat(m.ID, m.Name, []string{m.File}, m.Render)
	if m.Install == nil {
		return
	}
	install.RegisterTarget(install.Target{ID: m.ID, Name: m.Name, Format: m.ID}, m.Install.Runs, m.Install.Where,
		func(t *theme.Theme, files map[string][]byte, p install.Paths) (install.Placement, error) {
			return m.plan(t, files, p)
		})
}

// plan places the theme's file and words the steps.
func (m *Manifest) plan(t *theme.Theme, files map[string][]byte, p install.Paths) (install.Placement, error) {
	in := m.Install
	pattern, ok := in.Path[p.GOOS]
	if !ok {
		pattern, ok = in.Path["default"]
	}
	if !ok {
		return install.Placement{}, fmt.Errorf("%s has no install folder on %s; export it instead", m.Name, p.GOOS)
	}
	slug := theme.Slug(t.Name)
	data := InstallData{Home: p.Home, Config: p.ConfigHome, AppData: p.AppData, LocalAppData: p.LocalAppData,
		Data: filepath.Join(p.Home, ".local", "share"), Name: t.Name, Slug: slug, Appearance: t.Appearance}
	if p.GOOS == "windows" {
		data.Data = p.AppData
	}
	expandWith := func(what, s string, d InstallData) (string, error) {
		tp, err := template.New(what).Funcs(funcs).Option("missingkey=error").Parse(s)
		if err != nil {
			return "", fmt.Errorf("%s manifest %s: %w", m.ID, what, err)
		}
		var b strings.Builder
		if err := tp.Execute(&b, d); err != nil {
			return "", fmt.Errorf("%s manifest %s: %w", m.ID, what, err)
		}
		return b.String(), nil
	}
	expand := func(what, s string) (string, error) { return expandWith(what, s, data) }
	out := install.Placement{Files: map[string][]byte{}}
	for i, member := range t.Family() {
		d := data
		d.Name, d.Slug = member.Name, theme.Slug(member.Name)
		dest, err := expandWith("path", pattern, d)
		if err != nil {
			return install.Placement{}, err
		}
		dest = filepath.Clean(filepath.FromSlash(dest))
		b := files[strings.ReplaceAll(m.File, "{slug}", d.Slug)]
		if b == nil {
			return install.Placement{}, fmt.Errorf("%s: nothing rendered for %s", m.ID, member.Name)
		}
		if _, dup := out.Files[dest]; dup {
			return install.Placement{}, fmt.Errorf("%s: %s and its companion would both be %s (give them different names)", m.ID, t.Name, dest)
		}
		out.Files[dest] = b
		if i == 0 {
			data.Path = dest
		}
	}
	var err error
	if out.Note, err = expand("note", in.Note); err != nil {
		return out, err
	}
	if c := t.Companion; c != nil {
		out.Note += " Its " + c.Appearance + " variant \"" + c.Name + "\" is installed beside it: pick it the same way."
	}
	if in.Reload != "" {
		r, err := expand("reload", in.Reload)
		if err != nil {
			return out, err
		}
		out.Note += " " + r
	}
	for _, s := range in.Steps {
		if s.OS != "" && !(s.OS == p.GOOS || strings.HasPrefix(s.OS, "!") && s.OS[1:] != p.GOOS) {
			continue
		}
		text, err := expand("step", s.Text)
		if err != nil {
			return out, err
		}
		file := ""
		if s.File != "" {
			if file, err = expand("step file", s.File); err != nil {
				return out, err
			}
			file = filepath.FromSlash(file)
		}
		var set *install.Setting
		if sp := s.Setting; sp != nil {
			v, err := expand("step setting value", sp.Value)
			if err != nil {
				return out, err
			}
			set = &install.Setting{Syntax: "lines", Match: sp.Match, Value: v, Multi: sp.Multi, Insert: sp.Insert,
				Section: sp.Section, Sectioned: sp.Section != ""}
		}
		step := install.Step{Kind: s.Kind, Text: text, File: file, Setting: set}
		if s.userPicks {
			step.State, step.Reason = "manual", "the file depends on your setup; add the line yourself"
		}
		out.Steps = append(out.Steps, step)
	}
	return out, nil
}
