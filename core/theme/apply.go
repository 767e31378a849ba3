package theme

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/paths"
)

// Target is a program a theme can be installed into.
type Target struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Format string `json:"format"` // the export format installed
	// runs lists the systems (GOOS) the program exists on, nil for every
	// one; where names them for messages.
	runs  []string
	where string
}

// unix is where kitty and Ghostty run.
var unix = []string{"linux", "darwin", "freebsd", "openbsd", "netbsd", "dragonfly"}

// Targets are the install targets, in menu order. CSS has none: it goes
// wherever the user wants it, so it is export-only.
var Targets = []Target{
	{ID: "vscode", Name: "VS Code", Format: "vscode"},
	{ID: "zed", Name: "Zed", Format: "zed"},
	{ID: "alacritty", Name: "Alacritty", Format: "alacritty"},
	{ID: "kitty", Name: "Kitty", Format: "kitty", runs: unix, where: "Linux and macOS"},
	{ID: "ghostty", Name: "Ghostty", Format: "ghostty", runs: unix, where: "Linux and macOS"},
	{ID: "windows-terminal", Name: "Windows Terminal", Format: "windows-terminal", runs: []string{"windows"}, where: "Windows"},
	{ID: "iterm2", Name: "iTerm2", Format: "iterm2", runs: []string{"darwin"}, where: "macOS"},
}

// RunsOn reports whether the target's program exists on goos.
func (t Target) RunsOn(goos string) bool {
	return t.runs == nil || slices.Contains(t.runs, goos)
}

// TargetsFor lists, in menu order, the targets that can be installed on
// goos: the desktop app offers only these.
func TargetsFor(goos string) []Target {
	var out []Target
	for _, t := range Targets {
		if t.RunsOn(goos) {
			out = append(out, t)
		}
	}
	return out
}

// ErrUnsupported is returned by Plan when the target does not exist on
// this operating system; the theme can still be exported.
var ErrUnsupported = errors.New("not available on this system")

// Paths are the user folders targets install into. Tests point them at a
// temporary home.
type Paths struct {
	Home         string // the user's home directory
	ConfigHome   string // $XDG_CONFIG_HOME, else Home/.config (also on macOS, where these programs use it)
	AppData      string // Windows %APPDATA%
	LocalAppData string // Windows %LOCALAPPDATA%
	GOOS         string // runtime.GOOS unless testing another system's layout
}

// DefaultPaths reads the real locations from the environment.
func DefaultPaths() (Paths, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Paths{}, fmt.Errorf("find home directory: %w", err)
	}
	p := Paths{Home: home, ConfigHome: os.Getenv("XDG_CONFIG_HOME"), AppData: os.Getenv("APPDATA"),
		LocalAppData: os.Getenv("LOCALAPPDATA"), GOOS: runtime.GOOS}
	if p.ConfigHome == "" || !filepath.IsAbs(p.ConfigHome) {
		p.ConfigHome = filepath.Join(home, ".config")
	}
	if p.AppData == "" {
		p.AppData = filepath.Join(home, "AppData", "Roaming")
	}
	if p.LocalAppData == "" {
		p.LocalAppData = filepath.Join(home, "AppData", "Local")
	}
	return p, nil
}

// PlannedFile is one file an install writes; Exists says it would replace
// a file (which Apply backs up first).
type PlannedFile struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	data   []byte
}

// InstallPlan is what Apply will do, for the user to confirm.
type InstallPlan struct {
	Target string        `json:"target"`
	Theme  string        `json:"theme"`
	Files  []PlannedFile `json:"files"`
	Note   string        `json:"note"` // what the user still has to do, if anything
	// Warning is a problem met while planning that did not stop it (also
	// at the end of Note); the desktop app words Note itself, per target.
	Warning string `json:"warning,omitempty"`
}

// Installed reports what Apply wrote and the backups it made.
type Installed struct {
	Installed []string `json:"installed"`
	Backups   []string `json:"backups"`
	Note      string   `json:"note"`
}

// Plan works out the files installing t into target would write. It writes
// nothing.
func Plan(t *Theme, target string, p Paths) (InstallPlan, error) {
	var tg *Target
	for i := range Targets {
		if Targets[i].ID == target {
			tg = &Targets[i]
		}
	}
	if tg == nil {
		ids := make([]string, len(Targets))
		for i, x := range Targets {
			ids[i] = x.ID
		}
		return InstallPlan{}, fmt.Errorf("unknown target %q (want one of %s)", target, strings.Join(ids, ", "))
	}
	if p.Home == "" {
		return InstallPlan{}, fmt.Errorf("install into %s: no home directory", tg.Name)
	}
	slug := Slug(t.Name)
	files, err := Render(t, tg.Format)
	if err != nil {
		return InstallPlan{}, err
	}
	plan := InstallPlan{Target: tg.ID, Theme: t.Name}
	put := func(path string, data []byte) { plan.Files = append(plan.Files, PlannedFile{Path: path, data: data}) }
	if !tg.RunsOn(p.GOOS) {
		return InstallPlan{}, fmt.Errorf("install into %s: %w (%s runs on %s); export it instead with `cdxtheme export --format %s`",
			tg.Name, ErrUnsupported, tg.Name, tg.where, tg.Format)
	}
	win := p.GOOS == "windows"
	switch tg.ID {
	case "vscode":
		folder := VSCodePublisher + "." + slug + "-" + VSCodeVersion
		exts := filepath.Join(p.Home, ".vscode", "extensions")
		for _, name := range sortedKeys(files) {
			put(filepath.Join(exts, folder, filepath.FromSlash(name)), files[name])
		}
		plan.Note = "Reload VS Code (Developer: Reload Window), then pick \"" + t.Name + "\" in Preferences: Color Theme."
		// VS Code 1.74+ only loads extensions listed in extensions.json
		// when that file exists, so register ours there.
		reg := filepath.Join(exts, "extensions.json")
		if b, err := fsread.ReadFile(reg, maxReplaced, fsread.NoFollow); !errors.Is(err, fs.ErrNotExist) {
			if err == nil {
				b, err = registerVSCode(b, VSCodePublisher+"."+slug, filepath.Join(exts, folder), folder)
			}
			if err == nil {
				put(reg, b)
			} else {
				plan.Warning = reg + " could not be read (" + err.Error() + "), so it was left alone; if the theme does not appear, delete that file and restart VS Code."
				plan.Note += " " + plan.Warning
			}
		}
	case "zed":
		dir := filepath.Join(p.ConfigHome, "zed", "themes")
		if win {
			dir = filepath.Join(p.AppData, "Zed", "themes")
		}
		put(filepath.Join(dir, slug+".json"), files[slug+".json"])
		plan.Note = "Zed loads it at once: pick \"" + t.Name + "\" with theme selector: toggle."
	case "alacritty":
		dir := filepath.Join(p.ConfigHome, "alacritty", "themes")
		if win {
			dir = filepath.Join(p.AppData, "alacritty", "themes")
		}
		path := filepath.Join(dir, slug+".toml")
		put(path, files[slug+".toml"])
		plan.Note = "Alacritty does not load themes by itself: add `import = [" + tomlQuote(path) + "]` under [general] in alacritty.toml (top level before Alacritty 0.14)."
	case "kitty":
		put(filepath.Join(p.ConfigHome, "kitty", "themes", slug+".conf"), files[slug+".conf"])
		plan.Note = "Run `kitten themes`, choose \"" + t.Name + "\" from the User category, or add `include themes/" + slug + ".conf` to kitty.conf."
	case "ghostty":
		put(filepath.Join(p.ConfigHome, "ghostty", "themes", slug), files[slug])
		plan.Note = "Set `theme = " + slug + "` in the Ghostty config and reload it."
	case "windows-terminal":
		b, err := marshalJSON(map[string]any{"schemes": []wtScheme{windowsTerminalScheme(t)}})
		if err != nil {
			return InstallPlan{}, err
		}
		put(filepath.Join(p.LocalAppData, "Microsoft", "Windows Terminal", "Fragments", paths.AppName, slug+".json"), b)
		plan.Note = "Restart Windows Terminal, then choose the colour scheme \"" + t.Name + "\" in a profile's Appearance settings."
	case "iterm2":
		b, err := itermDynamicProfile(t)
		if err != nil {
			return InstallPlan{}, err
		}
		put(filepath.Join(p.Home, "Library", "Application Support", "iTerm2", "DynamicProfiles", slug+".json"), b)
		plan.Note = "iTerm2 picks it up at once: choose the profile \"" + t.Name + "\" (Profiles menu), or copy its colours into your own profile."
	}
	for i := range plan.Files {
		if err := refuseLink(plan.Files[i].Path); err != nil {
			return InstallPlan{}, fmt.Errorf("install into %s: %w", tg.Name, err)
		}
		plan.Files[i].Exists = exists(plan.Files[i].Path)
	}
	return plan, nil
}

// maxReplaced bounds a file Apply backs up (an installed theme is a few
// KiB); a larger one is left alone with an error.
const maxReplaced = 16 << 20

// Apply writes a plan's files. Every file it would replace is first copied
// to <file>.bak-<timestamp> with the original's mode, so nothing of the
// user's is lost; the new file keeps the replaced one's mode too. The
// folders on the way are the user's own and are followed; the file itself
// is never written through a symlink: a link there is refused, naming it.
func Apply(plan InstallPlan) (Installed, error) {
	out := Installed{Note: plan.Note}
	stamp := time.Now().Format("20060102-150405")
	for _, f := range plan.Files {
		if f.data == nil {
			return out, fmt.Errorf("install %s: plan has no content for %s (make plans with Plan)", plan.Target, f.Path)
		}
		dir, err := fswrite.Open(filepath.Dir(f.Path), "")
		if err != nil {
			return out, fmt.Errorf("install %s: %w", f.Path, err)
		}
		name := filepath.Base(f.Path)
		perm := fs.FileMode(0o644)
		old, fi, err := dir.ReadFile(name, maxReplaced)
		switch {
		case err == nil:
			perm = fi.Mode().Perm()
			bak, err := backup(dir, name, stamp, old, perm)
			if err != nil {
				dir.Close()
				return out, fmt.Errorf("back up %s: %w", f.Path, err)
			}
			out.Backups = append(out.Backups, bak)
		case !errors.Is(err, fs.ErrNotExist):
			dir.Close()
			return out, fmt.Errorf("install %s: %w", plan.Target, err)
		}
		_, err = dir.WriteFile(name, f.data, perm)
		dir.Close()
		if err != nil {
			return out, fmt.Errorf("install %s: %w", plan.Target, err)
		}
		out.Installed = append(out.Installed, f.Path)
	}
	return out, nil
}

// backup writes data as name.bak-stamp in dir, with -2, -3 ... when that
// exists already (two installs within a second), and returns its path.
func backup(dir *fswrite.Dir, name, stamp string, data []byte, perm fs.FileMode) (string, error) {
	bak := name + ".bak-" + stamp
	for i := 2; ; i++ {
		p, err := dir.CreateNew(bak, data, perm)
		if !errors.Is(err, fs.ErrExist) || i > 1000 {
			return filepath.FromSlash(p), err
		}
		bak = fmt.Sprintf("%s.bak-%s-%d", name, stamp, i)
	}
}

// refuseLink is the plan's early word on a symlink where a file goes (Apply
// checks again as it writes).
func refuseLink(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; it is not replaced or followed (remove it, or copy the theme there yourself)", path)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func tomlQuote(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a valid TOML basic string
	return string(b)
}

// registerVSCode returns extensions.json with an entry for our extension,
// replacing an older entry for the same id and keeping all others as they
// were.
func registerVSCode(data []byte, id, location, folder string) ([]byte, error) {
	var entries []json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, err
	}
	kept := entries[:0]
	for _, e := range entries {
		var x struct {
			Identifier struct {
				ID string `json:"id"`
			} `json:"identifier"`
		}
		if json.Unmarshal(e, &x) == nil && strings.EqualFold(x.Identifier.ID, id) {
			continue
		}
		kept = append(kept, e)
	}
	p := filepath.ToSlash(location)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: /c:/Users/...
	}
	entry := map[string]any{
		"identifier":       map[string]any{"id": id},
		"version":          VSCodeVersion,
		"location":         map[string]any{"$mid": 1, "path": p, "scheme": "file"},
		"relativeLocation": folder,
		"metadata":         map[string]any{"installedTimestamp": time.Now().UnixMilli(), "source": "vsix"},
	}
	b, err := json.Marshal(entry)
	if err != nil {
		return nil, err
	}
	kept = append(kept, b)
	return json.Marshal(kept)
}

// itermDynamicProfile is an iTerm2 Dynamic Profile carrying the theme's
// colours; iTerm2 loads files in DynamicProfiles as soon as they appear.
func itermDynamicProfile(t *Theme) ([]byte, error) {
	prof := map[string]any{
		"Name":                        t.Name,
		"Guid":                        "cdxtheme-" + Slug(t.Name),
		"Dynamic Profile Parent Name": "Default",
	}
	colors := itermColors(t)
	keys := make([]string, 0, len(colors))
	for k := range colors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := colors[k]
		prof[k] = map[string]any{
			"Red Component": c.Components[0], "Green Component": c.Components[1],
			"Blue Component": c.Components[2], "Alpha Component": c.Components[3], "Color Space": c.Space,
		}
	}
	return marshalJSON(map[string]any{"Profiles": []any{prof}})
}
