package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
	"cdxtheme/core/quote"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// PlannedFile is one file an install writes; Exists says it would replace
// a file (which Apply backs up first), Same that the file already holds
// exactly this (Apply leaves it alone and backs nothing up).
type PlannedFile struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	Same   bool   `json:"same"`
	data   []byte
	// was is what the plan found at Path (fileState): Apply writes only
	// while every file is still as the user saw it in the plan.
	was string
	// undo takes a settings change back out of the file when the user
	// changed it elsewhere since (nil for a theme file).
	undo *textUndo
}

// InstallPlan is what Apply will do, for the user to confirm.
type InstallPlan struct {
	Target string        `json:"target"`
	Theme  string        `json:"theme"`
	Files  []PlannedFile `json:"files"`
	Note   string        `json:"note"` // what the user still has to do, if anything
	// Steps are the exact lines and commands that activate the theme.
	Steps []install.Step `json:"steps"`
	// Backups is the folder the replaced files are kept in.
	Backups string `json:"backups"`
	// Warning is a problem met while planning that did not stop it (also
	// at the end of Note); the desktop app words Note itself, per target.
	Warning string `json:"warning,omitempty"`
	// Token is a digest of everything the plan shows (the theme, each path
	// and what is there now, the steps): the desktop app's Apply takes the
	// token of the plan the user confirmed and refuses when planning again
	// gives another one (ErrPlanChanged), so it installs exactly what was
	// shown, never a silent new plan.
	Token string `json:"token"`
	// Build is the workspace the theme comes from, set by the caller
	// before Apply and kept in the apply's record (Refresh, AppliedBy).
	Build string `json:"-"`
	// Change lists the steps (indexes into Steps, each with Edit) whose
	// setting Apply changes too; the caller sets it from the user's
	// choice. The others stay for the user to do.
	Change []int `json:"-"`
	store  string
	edits  []settingEdit
}

// ErrPlanChanged is returned when what a plan showed no longer holds: the
// theme was renamed, or a file it writes was created, changed or removed
// since. Nothing is written; plan again and show the new plan.
var ErrPlanChanged = errors.New("the install plan changed since it was shown; nothing was written")

// fileState is what lies at path, for a plan's check before Apply writes:
// "absent", the digest of the regular file's bytes, or why it cannot be
// read (a link, a folder, too large).
func fileState(path string) string {
	if onRead != nil {
		onRead(path)
	}
	b, err := fsread.ReadFile(path, maxReplaced, fsread.NoFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case err != nil:
		return "unreadable: " + err.Error()
	}
	return digest(b)
}

// onRead, when set (by tests), is told each user file a plan reads.
var onRead func(path string)

// holds reports whether the regular file at path has exactly data.
func holds(path string, data []byte) bool { return fileState(path) == digest(data) }

// token digests what the plan shows and what it found on disk.
func (plan InstallPlan) token() string {
	h := sha256.New()
	w := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	w(plan.Target)
	w(plan.Theme)
	w(plan.Backups)
	w(plan.Note)
	for _, f := range plan.Files {
		w(f.Path)
		w(f.was)
		w(fmt.Sprint(f.Exists, f.Same))
	}
	for _, st := range plan.Steps {
		w(st.Kind)
		w(st.File)
		w(st.Text)
		w(st.State)
		w(st.Old)
		w(st.New)
		w(st.Reason)
		w(fmt.Sprint(st.Edit))
	}
	for _, e := range plan.edits {
		w(e.file.Path)
		w(e.file.was)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stillHolds reports, before Apply writes anything, the first of files
// that is no longer what the plan found there.
func (plan InstallPlan) stillHolds(files []PlannedFile) error {
	for _, f := range files {
		// Holding the plan's own bytes already is no change to the user;
		// a link or a FIFO there now is refused by the write itself, which
		// says so.
		now := fileState(f.Path)
		if strings.HasPrefix(now, "unreadable") {
			continue
		}
		if now != f.was && now != digest(f.data) {
			what := "was changed"
			switch {
			case f.was == "absent":
				what = "was created"
			case now == "absent":
				what = "was removed"
			}
			return fmt.Errorf("install %s: %w: %s %s after the plan was made", plan.Target, ErrPlanChanged, f.Path, what)
		}
	}
	return nil
}

// Plan works out the files installing t into target would write, and
// what each activation step would change in the user's settings. It
// writes nothing.
func Plan(t *theme.Theme, target string, p install.Paths) (InstallPlan, error) {
	plan, err := planFiles(t, target, p)
	if err != nil {
		return InstallPlan{}, err
	}
	planSettings(&plan)
	plan.Token = plan.token()
	return plan, nil
}

// planFiles is Plan without the settings: the theme's files, each with
// what is there now (was), and the steps as words. A live edit's Refresh
// needs only this; the user's settings files are not read.
func planFiles(t *theme.Theme, target string, p install.Paths) (InstallPlan, error) {
	var tg *install.Target
	for i := range install.Targets {
		if install.Targets[i].ID == target {
			tg = &install.Targets[i]
		}
	}
	if tg == nil {
		ids := make([]string, len(install.Targets))
		for i, x := range install.Targets {
			ids[i] = x.ID
		}
		return InstallPlan{}, fmt.Errorf("unknown target %q (want one of %s)", target, strings.Join(ids, ", "))
	}
	if p.Home == "" {
		return InstallPlan{}, fmt.Errorf("install into %s: no home directory", tg.Name)
	}
	slug := theme.Slug(t.Name)
	files, err := targets.Render(t, tg.Format)
	if err != nil {
		return InstallPlan{}, err
	}
	if p.Store == "" {
		return InstallPlan{}, fmt.Errorf("install into %s: no folder for backups", tg.Name)
	}
	plan := InstallPlan{Target: tg.ID, Theme: t.Name, Backups: filepath.Join(p.Store, tg.ID), store: p.Store}
	put := func(path string, data []byte) { plan.Files = append(plan.Files, PlannedFile{Path: path, data: data}) }
	line := func(file, text string, s *install.Setting) {
		plan.Steps = append(plan.Steps, install.Step{Kind: "line", File: file, Text: text, Setting: s})
	}
	command := func(text string) { plan.Steps = append(plan.Steps, install.Step{Kind: "command", Text: text}) }
	if !tg.RunsOn(p.GOOS) {
		return InstallPlan{}, fmt.Errorf("install into %s: %w (%s runs on %s); export it instead with `cdxtheme export --format %s`",
			tg.Name, install.ErrUnsupported, tg.Name, tg.Where(), tg.Format)
	}
	win := p.GOOS == "windows"
	switch tg.ID {
	case "vscode":
		folder := theme.VSCodePublisher + "." + slug + "-" + theme.VSCodeVersion
		exts := filepath.Join(p.Home, ".vscode", "extensions")
		for _, name := range slices.Sorted(maps.Keys(files)) {
			put(filepath.Join(exts, folder, filepath.FromSlash(name)), files[name])
		}
		plan.Note = "Reload VS Code (Developer: Reload Window), then pick \"" + t.Name + "\" in Preferences: Color Theme."
		user := filepath.Join(p.ConfigHome, "Code", "User")
		switch p.GOOS {
		case "darwin":
			user = filepath.Join(p.Home, "Library", "Application Support", "Code", "User")
		case "windows":
			user = filepath.Join(p.AppData, "Code", "User")
		}
		line(filepath.Join(user, "settings.json"), `"workbench.colorTheme": `+quote.JSON(t.Name), jsonSetting(quote.JSON(t.Name), "workbench.colorTheme"))
		// VS Code 1.74+ only loads extensions listed in extensions.json
		// when that file exists, so register ours there.
		reg := filepath.Join(exts, "extensions.json")
		if b, err := fsread.ReadFile(reg, maxReplaced, fsread.NoFollow); !errors.Is(err, fs.ErrNotExist) {
			if err == nil {
				b, err = registerVSCode(b, theme.VSCodePublisher+"."+slug, filepath.Join(exts, folder), folder)
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
		zs := jsonSetting(quote.JSON(t.Name), "theme")
		zs.Within = t.Appearance // "theme": {"mode": "system", "light": …, "dark": …}
		line(filepath.Join(filepath.Dir(dir), "settings.json"), `"theme": `+quote.JSON(t.Name), zs)
	case "alacritty":
		dir := filepath.Join(p.ConfigHome, "alacritty", "themes")
		if win {
			dir = filepath.Join(p.AppData, "alacritty", "themes")
		}
		path := filepath.Join(dir, slug+".toml")
		put(path, files[slug+".toml"])
		plan.Note = "Alacritty does not load themes by itself: add `import = [" + quote.TOML(path) + "]` under [general] in alacritty.toml (top level before Alacritty 0.14)."
		// Only an import of one theme of ours is changed: an import list
		// of the user's own files is theirs to extend.
		line(filepath.Join(filepath.Dir(dir), "alacritty.toml"), "import = ["+quote.TOML(path)+"]", &install.Setting{
			Syntax: "lines", Match: `^\s*import\s*=\s*(?P<v>\[\s*"[^"]*[/\\]alacritty[/\\]themes[/\\][^"]*"\s*\])\s*$`,
			Value: "[" + quote.TOML(path) + "]", Multi: "one", Insert: "top", TOML: true,
			Conflict: `^\s*import\s*=`, ConflictWhy: "imports other files already (the theme goes in that list)"})
	case "kitty":
		put(filepath.Join(p.ConfigHome, "kitty", "themes", slug+".conf"), files[slug+".conf"])
		plan.Note = "Run `kitten themes`, choose \"" + t.Name + "\" from the User category, or add `include themes/" + slug + ".conf` to kitty.conf."
		// The theme kitty uses is the last included theme file (kitten
		// themes includes current-theme.conf).
		line(filepath.Join(p.ConfigHome, "kitty", "kitty.conf"), "include themes/"+slug+".conf", &install.Setting{
			Syntax: "lines", Match: `^\s*include\s+(?P<v>\S*(?i:theme)\S*\.conf)\s*$`, Value: "themes/" + slug + ".conf", Multi: "last"})
	case "ghostty":
		put(filepath.Join(p.ConfigHome, "ghostty", "themes", slug), files[slug])
		plan.Note = "Set `theme = " + slug + "` in the Ghostty config and reload it."
		line(filepath.Join(p.ConfigHome, "ghostty", "config"), "theme = "+slug, &install.Setting{
			Syntax: "lines", Match: `^\s*theme\s*=\s*(?P<v>.*?)\s*$`, Value: slug, Multi: "last"})
	case "neovim":
		dir := filepath.Join(p.ConfigHome, "nvim")
		if win {
			dir = filepath.Join(p.LocalAppData, "nvim")
		}
		put(filepath.Join(dir, "colors", slug+".lua"), files["colors/"+slug+".lua"])
		// vim.cmd("colorscheme x"), not vim.cmd.colorscheme("x"): the
		// latter needs Neovim 0.8, and Debian 12 ships 0.7.
		keep := "vim.cmd(\"colorscheme " + slug + "\")"
		plan.Note = "Run `:colorscheme " + slug + "` in Neovim; to keep it, add `" + keep + "` to init.lua."
		command(":colorscheme " + slug)
		if vimrc := filepath.Join(dir, "init.vim"); exists(vimrc) && !exists(filepath.Join(dir, "init.lua")) {
			// Neovim reads init.vim and stops with an error when an
			// init.lua is beside it: the setting goes in init.vim.
			line(vimrc, "colorscheme "+slug, &install.Setting{
				Syntax: "lines", Match: `^\s*(?P<v>colo(?:r|rs|rsc|rsch|rsche|rschem|rscheme)?\s+\S+)\s*$`, Value: "colorscheme " + slug, Multi: "one"})
		} else {
			line(filepath.Join(dir, "init.lua"), keep, &install.Setting{
				Syntax: "lines", Match: `^\s*(?P<v>vim\.(?:cmd|api\.nvim_command)\b.*\bcolorscheme\b.*?)\s*$`, Value: keep, Multi: "one",
				Conflict: `^\s*[^-\s].*\bcolorscheme\b`, ConflictWhy: "sets the colour scheme in a way Apply does not change (a plugin, a condition)",
				Blockers: map[string]string{filepath.Join(dir, "init.vim"): "Neovim reads init.vim here and stops with an error when init.lua is beside it; add `colorscheme " + slug + "` to the one you use"}})
		}
	case "helix":
		dir := filepath.Join(p.ConfigHome, "helix")
		if win {
			dir = filepath.Join(p.AppData, "helix")
		}
		put(filepath.Join(dir, "themes", slug+".toml"), files[slug+".toml"])
		plan.Note = "Run `:theme " + slug + "` in Helix; to keep it, put `theme = \"" + slug + "\"` at the top of config.toml."
		command(":theme " + slug)
		line(filepath.Join(dir, "config.toml"), "theme = \""+slug+"\"", &install.Setting{Syntax: "toml", Path: []string{"theme"}, Value: quote.TOML(slug)})
	case "bat":
		dir := filepath.Join(p.ConfigHome, "bat")
		if win {
			dir = filepath.Join(p.AppData, "bat")
		}
		put(filepath.Join(dir, "themes", slug+".tmTheme"), files[slug+".tmTheme"])
		bat := batCommand(p.GOOS)
		plan.Note = "bat reads new themes only from its cache: run `" + bat + " cache --build`, then add `--theme=\"" + slug + "\"` to bat's config; for delta set `syntax-theme = " + slug + "` under [delta] in ~/.gitconfig."
		command(bat + " cache --build")
		line(filepath.Join(dir, "config"), "--theme=\""+slug+"\"", &install.Setting{
			Syntax: "lines", Match: `^\s*--theme(?:=|\s+)(?P<v>.*?)\s*$`, Value: `"` + slug + `"`, Multi: "last"})
		line(filepath.Join(p.Home, ".gitconfig"), "[delta]\n\tsyntax-theme = "+slug, &install.Setting{
			Syntax: "lines", Sectioned: true, Section: "delta", Match: `^\s*(?i:syntax-theme)\s*=\s*(?P<v>.*?)\s*$`, Value: slug, Multi: "last",
			Insert: "section", Header: "[delta]", Add: "\tsyntax-theme = " + slug, Create: "[delta]\n\tsyntax-theme = " + slug + "\n"})
	case "wezterm":
		// WezTerm finds schemes by name in the colors folder beside its
		// config, ~/.config/wezterm on Windows too.
		dir := filepath.Join(p.ConfigHome, "wezterm")
		if win {
			dir = filepath.Join(p.Home, ".config", "wezterm")
		}
		put(filepath.Join(dir, "colors", slug+".toml"), files[slug+".toml"])
		lua := "config.color_scheme = " + quote.Lua(theme.OneLine(t.Name))
		plan.Note = "Add `" + lua + "` to wezterm.lua; WezTerm reloads it on save."
		cfg := filepath.Join(dir, "wezterm.lua")
		if home := filepath.Join(p.Home, ".wezterm.lua"); !win && !exists(cfg) && exists(home) {
			cfg = home // the config this user has
		}
		line(cfg, lua, &install.Setting{
			Syntax: "lines", Match: `^\s*(?:[A-Za-z_]\w*\.)?color_scheme\s*=\s*(?P<v>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`, Value: quote.Lua(theme.OneLine(t.Name)), Multi: "one",
			Insert: "before", Before: `^\s*return\s+config\s*$`, BeforeWhy: "does not end in `return config`",
			Create: "return {\n  color_scheme = " + quote.Lua(theme.OneLine(t.Name)) + ",\n}\n"})
	case "foot":
		path := filepath.Join(p.ConfigHome, "foot", "themes", slug+".ini")
		put(path, files[slug+".ini"])
		plan.Note = "Add `include=" + path + "` to the [main] section of foot.ini, then open a new foot window."
		// include belongs to [main], which is also what precedes any
		// section: the top of the file.
		line(filepath.Join(p.ConfigHome, "foot", "foot.ini"), "include="+path, &install.Setting{
			Syntax: "lines", Match: `^\s*include\s*=\s*(?P<v>\S*[/\\]foot[/\\]themes[/\\]\S*)\s*$`, Value: path, Multi: "last", Insert: "top"})
	case "tmux":
		path := filepath.Join(p.ConfigHome, "tmux", "themes", slug+".conf")
		put(path, files[slug+".conf"])
		plan.Note = "Run `tmux source-file " + quote.Sh(path) + "` for the running server, and add `source-file " + quote.Sh(path) + "` to tmux.conf to keep it."
		command("tmux source-file " + quote.Sh(path))
		// Only a source-file of a theme of ours is changed; the user's
		// other sourced files stay.
		line(filepath.Join(p.ConfigHome, "tmux", "tmux.conf"), "source-file "+quote.Sh(path), &install.Setting{
			Syntax: "lines", Match: `^\s*source(?:-file)?(?:\s+-[qnvF]+)*\s+(?P<v>'?[^\s']*/tmux/themes/[^\s']*'?)\s*$`, Value: quote.Sh(path), Multi: "last"})
	case "windows-terminal":
		// The exported scheme, re-indented inside a fragment.
		b, err := theme.EncodeJSON(map[string]any{"schemes": []json.RawMessage{files[slug+".json"]}})
		if err != nil {
			return InstallPlan{}, err
		}
		put(filepath.Join(p.LocalAppData, "Microsoft", "Windows Terminal", "Fragments", paths.AppName, slug+".json"), b)
		plan.Note = "Restart Windows Terminal, then choose the colour scheme \"" + t.Name + "\" in a profile's Appearance settings."
		// A scheme for every profile is profiles.defaults.colorScheme.
		line(filepath.Join(p.LocalAppData, "Packages", "Microsoft.WindowsTerminal_8wekyb3d8bbwe", "LocalState", "settings.json"), `"colorScheme": `+quote.JSON(t.Name), &install.Setting{
			Syntax: "json", Path: []string{"profiles", "defaults", "colorScheme"}, Value: quote.JSON(t.Name),
			NoCreate: "Windows Terminal writes this file when it first starts; start it once and apply again"})
	case "iterm2":
		b, err := itermDynamicProfile(t)
		if err != nil {
			return InstallPlan{}, err
		}
		put(filepath.Join(p.Home, "Library", "Application Support", "iTerm2", "DynamicProfiles", slug+".json"), b)
		plan.Note = "iTerm2 picks it up at once: choose the profile \"" + t.Name + "\" (Profiles menu), or copy its colours into your own profile."
	default: // a target registered from outside (core/targets)
		if err := planExternal(&plan, t, tg, files, p); err != nil {
			return InstallPlan{}, err
		}
	}
	if install.PlannerFor(tg.ID) == nil { // an external planner places the companion itself
		companionFiles(&plan, t, tg, files)
	}
	for i := range plan.Files {
		if err := refuseLink(plan.Files[i].Path); err != nil {
			return InstallPlan{}, fmt.Errorf("install into %s: %w", tg.Name, err)
		}
		plan.Files[i].Exists = exists(plan.Files[i].Path)
		plan.Files[i].was = fileState(plan.Files[i].Path)
		plan.Files[i].Same = plan.Files[i].was == digest(plan.Files[i].data)
	}
	return plan, nil
}

// batCommand is bat's name here: Debian and Ubuntu ship it as batcat
// (another package owns /usr/bin/bat), where a step saying "bat" is
// "command not found". Planning for another system says "bat".
func batCommand(goos string) string {
	if goos == runtime.GOOS {
		if _, err := exec.LookPath("bat"); err != nil {
			if _, err := exec.LookPath("batcat"); err == nil {
				return "batcat"
			}
		}
	}
	return "bat"
}

// maxReplaced bounds a file Apply backs up (an installed theme is a few
// KiB); a larger one is left alone with an error.
const maxReplaced = 16 << 20

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

// jsonSetting is a top-level setting of a VS Code or Zed settings.json.
func jsonSetting(value, key string) *install.Setting {
	return &install.Setting{Syntax: "json", Path: []string{key}, Value: value,
		Create: "{\n    " + quote.JSON(key) + ": " + value + "\n}\n"}
}

// registerVSCode returns extensions.json with an entry for our extension,
// replacing an older entry for the same id and keeping all others as they
// were; with our entry there already it returns data unchanged.
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
			Version          string `json:"version"`
			RelativeLocation string `json:"relativeLocation"`
		}
		if json.Unmarshal(e, &x) == nil && strings.EqualFold(x.Identifier.ID, id) {
			if x.Version == theme.VSCodeVersion && x.RelativeLocation == folder {
				return data, nil // registered already: a re-apply leaves the file as it is
			}
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
		"version":          theme.VSCodeVersion,
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
func itermDynamicProfile(t *theme.Theme) ([]byte, error) {
	prof := map[string]any{
		"Name":                        t.Name,
		"Guid":                        "cdxtheme-" + theme.Slug(t.Name),
		"Dynamic Profile Parent Name": "Default",
	}
	colors := targets.ITermColors(t)
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
	return theme.EncodeJSON(map[string]any{"Profiles": []any{prof}})
}

// companionFiles installs the companion's file beside each file of the
// theme's that the program keeps in a folder of themes (its export holds
// both: renderEach), so both variants are there to pick. VS Code and Zed
// already got both in one package; Windows Terminal and iTerm2 are given
// the theme alone, and the note says so.
func companionFiles(plan *InstallPlan, t *theme.Theme, tg *install.Target, files map[string][]byte) {
	c := t.Companion
	if c == nil {
		return
	}
	if tg.ID == "windows-terminal" || tg.ID == "iterm2" {
		plan.Note += " Its " + c.Appearance + " variant \"" + c.Name + "\" is not installed here; export it for " + tg.Name + " and import that file."
		return
	}
	slug, cslug := theme.Slug(t.Name), theme.Slug(c.Name)
	// A package (VS Code's extension folder) already holds the companion's
	// file: planned once, not again as an extra (a path twice in the plan
	// is one write shown as two, and broke the dialog's list).
	planned := map[string]bool{}
	for _, f := range plan.Files {
		planned[f.Path] = true
	}
	var extra []PlannedFile
	for _, f := range plan.Files {
		for _, name := range slices.Sorted(maps.Keys(files)) {
			cname := strings.Replace(name, slug, cslug, 1)
			if cname == name || !bytes.Equal(files[name], f.data) || files[cname] == nil || filepath.Base(f.Path) != filepath.Base(filepath.FromSlash(name)) {
				continue
			}
			path := filepath.Join(filepath.Dir(f.Path), filepath.Base(filepath.FromSlash(cname)))
			if planned[path] {
				continue
			}
			planned[path] = true
			extra = append(extra, PlannedFile{Path: path, data: files[cname]})
		}
	}
	if len(extra) > 0 {
		plan.Files = append(plan.Files, extra...)
		plan.Note += " Its " + c.Appearance + " variant \"" + c.Name + "\" is installed beside it: pick it the same way."
	}
}

// planExternal fills plan from a registered planner.
func planExternal(plan *InstallPlan, t *theme.Theme, tg *install.Target, files map[string][]byte, p install.Paths) error {
	pl := install.PlannerFor(tg.ID)
	if pl == nil {
		return fmt.Errorf("install into %s: no planner", tg.Name)
	}
	in, err := pl(t, files, p)
	if err != nil {
		return fmt.Errorf("install into %s: %w", tg.Name, err)
	}
	for _, path := range slices.Sorted(maps.Keys(in.Files)) {
		if !filepath.IsAbs(path) {
			return fmt.Errorf("install into %s: %q is not an absolute path", tg.Name, path)
		}
		plan.Files = append(plan.Files, PlannedFile{Path: path, data: in.Files[path]})
	}
	plan.Note = in.Note
	plan.Steps = append(plan.Steps, in.Steps...)
	return nil
}
