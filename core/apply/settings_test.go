package apply

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/fswrite"
	"cdxtheme/core/install"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/fifo"
	"cdxtheme/internal/testrig/winlink"
)

// settingStep plans target with file holding content ("" = no file) and
// returns the plan and the index of the line step for file.
func settingStep(t *testing.T, p install.Paths, target, file, content string) (InstallPlan, int) {
	t.Helper()
	if content != "" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := Plan(theme.Example(), target, p)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range plan.Steps {
		if st.Kind == "line" && st.File == file {
			return plan, i
		}
	}
	t.Fatalf("no step for %s in %+v", file, plan.Steps)
	return plan, -1
}

// changeAndUndo applies plan changing step i, checks the file holds want,
// then undoes and checks the file is back byte for byte (or gone).
func changeAndUndo(t *testing.T, p install.Paths, plan InstallPlan, i int, want string) {
	t.Helper()
	file := plan.Steps[i].File
	before, beforeErr := os.ReadFile(file)
	var mode os.FileMode
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode()
	}
	plan.Change = []int{i}
	res, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps[i].State != "changed" {
		t.Errorf("after Apply the step is %q, want changed", res.Steps[i].State)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s after Apply:\n%s\nwant:\n%s", file, got, want)
	}
	if fi, err := os.Stat(file); err == nil && mode != 0 && fi.Mode() != mode {
		t.Errorf("mode %v, want the file's own %v", fi.Mode(), mode)
	}
	if _, err := UndoApply(p, plan.Target); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(file)
	if beforeErr != nil {
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Undo left %s, which Apply created", file)
		}
		return
	}
	if err != nil || string(after) != string(before) {
		t.Errorf("Undo did not restore %s byte for byte:\n%s\nwant:\n%s", file, after, before)
	}
}

func TestHelixSettingTopLevelOnly(t *testing.T) {
	p := tempPaths(t, "linux")
	cfg := filepath.Join(p.ConfigHome, "helix", "config.toml")
	// A theme key inside a table is another setting: only the top-level
	// one is Helix's theme.
	orig := "# my helix\ntheme = \"onedark\" # dark\n\n[editor]\nline-number = \"relative\"\ntheme = \"not-this\"\n\n[keys.normal]\nC-s = \":w\"\n"
	plan, i := settingStep(t, p, "helix", cfg, orig)
	st := plan.Steps[i]
	if st.State != "change" || !st.Edit || st.Old != `theme = "onedark"` || st.New != `theme = "harbour-night"` {
		t.Fatalf("step %+v, want change theme = \"onedark\" → theme = \"harbour-night\"", st)
	}
	want := strings.Replace(orig, `theme = "onedark"`, `theme = "harbour-night"`, 1)
	changeAndUndo(t, p, plan, i, want)

	// Changed once more to see it parse: one line differs, and TOML
	// reads the new theme at top level with the table's key untouched.
	plan, i = settingStep(t, p, "helix", cfg, orig)
	plan.Change = []int{i}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(cfg)
	a, b := strings.Split(orig, "\n"), strings.Split(string(got), "\n")
	diff := 0
	for j := range a {
		if j >= len(b) || a[j] != b[j] {
			diff++
		}
	}
	if len(a) != len(b) || diff != 1 {
		t.Errorf("%d lines differ (want exactly 1):\n%s", diff, got)
	}
	var m struct {
		Theme  string
		Editor map[string]any
	}
	if err := toml.Unmarshal(got, &m); err != nil {
		t.Fatalf("config.toml no longer parses: %v\n%s", err, got)
	}
	if m.Theme != "harbour-night" || m.Editor["theme"] != "not-this" {
		t.Errorf("theme %q, editor.theme %v", m.Theme, m.Editor["theme"])
	}
}

func TestHelixSettingAddedAtTop(t *testing.T) {
	p := tempPaths(t, "linux")
	cfg := filepath.Join(p.ConfigHome, "helix", "config.toml")
	orig := "[editor]\ntheme = \"not-this\"\n"
	plan, i := settingStep(t, p, "helix", cfg, orig)
	if st := plan.Steps[i]; st.State != "add" || !st.Edit {
		t.Fatalf("step %+v, want add", st)
	}
	// After the [editor] header the line would be editor.theme: it goes
	// first, where it is Helix's theme.
	changeAndUndo(t, p, plan, i, "theme = \"harbour-night\"\n"+orig)
}

func TestHelixSettingLeftAlone(t *testing.T) {
	for name, content := range map[string]string{
		"unparseable": "theme = \"onedark\"\ntheme = \"twice\"\n",
		"a table":     "theme = { light = \"a\", dark = \"b\" }\n",
		"huge":        "theme = \"onedark\"\n" + strings.Repeat("# pad\n", maxSetting/6+1),
	} {
		t.Run(name, func(t *testing.T) {
			p := tempPaths(t, "linux")
			cfg := filepath.Join(p.ConfigHome, "helix", "config.toml")
			plan, i := settingStep(t, p, "helix", cfg, content)
			st := plan.Steps[i]
			if st.State != "manual" || st.Edit || st.Reason == "" {
				t.Fatalf("step %+v, want manual with a reason", st)
			}
			plan.Change = []int{i}
			if _, err := Apply(plan); err == nil {
				t.Error("Apply changed a setting the plan left to the user")
			}
			if got, _ := os.ReadFile(cfg); string(got) != content {
				t.Error("the file was changed")
			}
		})
	}
}

func TestVSCodeSettingJSONC(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	orig := "// my settings\r\n{\r\n\t/* \"workbench.colorTheme\": \"in a comment\", */\r\n\t\"editor.fontSize\": 14, // big\r\n" +
		"\t\"workbench.colorTheme\": \"Default Dark+\", // what I use\r\n\t\"url\": \"http://x//y\",\r\n\t\"files.exclude\": {\"**/.git\": true,},\r\n}\r\n"
	plan, i := settingStep(t, p, "vscode", file, orig)
	st := plan.Steps[i]
	if st.State != "change" || st.Old != `"workbench.colorTheme": "Default Dark+"` || st.New != `"workbench.colorTheme": "Harbour Night"` {
		t.Fatalf("step %+v", st)
	}
	// Only the value's bytes change: comments, the trailing commas, the
	// tabs and CRLF line ends stay as they were.
	changeAndUndo(t, p, plan, i, strings.Replace(orig, `"Default Dark+", //`, `"Harbour Night", //`, 1))
}

func TestVSCodeSettingAdded(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	orig := "{\n  // size\n  \"editor.fontSize\": 14,\n}\n"
	plan, i := settingStep(t, p, "vscode", file, orig)
	if st := plan.Steps[i]; st.State != "add" || st.New != `"workbench.colorTheme": "Harbour Night"` {
		t.Fatalf("step %+v", st)
	}
	changeAndUndo(t, p, plan, i, "{\n  \"workbench.colorTheme\": \"Harbour Night\",\n  // size\n  \"editor.fontSize\": 14,\n}\n")

	// An empty object, and no file at all.
	plan, i = settingStep(t, p, "vscode", file, "{}")
	changeAndUndo(t, p, plan, i, "{\n    \"workbench.colorTheme\": \"Harbour Night\"\n}")
	os.Remove(file)
	plan, i = settingStep(t, p, "vscode", file, "")
	if st := plan.Steps[i]; st.State != "create" || !st.Edit {
		t.Fatalf("step %+v, want create", st)
	}
	changeAndUndo(t, p, plan, i, "{\n    \"workbench.colorTheme\": \"Harbour Night\"\n}\n")
}

func TestJSONSettingNotJSON(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "zed", "settings.json")
	plan, i := settingStep(t, p, "zed", file, "{\n  \"theme\": \"One Dark\"\n  \"vim_mode\": true\n}\n")
	if st := plan.Steps[i]; st.State != "manual" || !strings.Contains(st.Reason, "not valid JSON (line 3") {
		t.Fatalf("step %+v, want manual naming the line", st)
	}
	plan, i = settingStep(t, p, "zed", file, "{\n  \"theme\": \"Harbour Night\", \"vim_mode\": true\n}\n")
	if st := plan.Steps[i]; st.State != "set" || st.Edit {
		t.Fatalf("step %+v, want set", st)
	}
}

func TestSettingSymlinkRefused(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	real := filepath.Join(p.Home, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.MkdirAll(filepath.Dir(file), 0o755)
	orig := "{\"workbench.colorTheme\": \"Default Dark+\"}\n"
	os.WriteFile(real, []byte(orig), 0o644)
	// Skips where this Windows user may not make symlinks; fails when the
	// system claims a link it did not make (Wine), which would test nothing.
	winlink.SymlinkOrSkip(t, real, file)
	plan, i := settingStep(t, p, "vscode", file, "")
	st := plan.Steps[i]
	if st.State != "manual" || st.Edit || !strings.Contains(st.Reason, "symbolic link") {
		t.Fatalf("step %+v, want manual: a symbolic link", st)
	}
	plan.Change = []int{i}
	if _, err := Apply(plan); err == nil {
		t.Error("Apply changed a setting behind a link")
	}
	if got, _ := os.ReadFile(real); string(got) != orig {
		t.Error("the linked file was changed")
	}
	if fi, err := os.Lstat(file); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
}

func TestSettingChangedSincePlan(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "ghostty", "config")
	plan, i := settingStep(t, p, "ghostty", file, "font-size = 12\ntheme = dracula\n")
	os.WriteFile(file, []byte("font-size = 13\ntheme = dracula\n"), 0o644)
	plan.Change = []int{i}
	_, err := Apply(plan)
	if !errors.Is(err, ErrPlanChanged) {
		t.Fatalf("Apply over a settings file changed since the plan: %v, want ErrPlanChanged", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "font-size = 13\ntheme = dracula\n" {
		t.Errorf("file written: %s", got)
	}
	again, _ := settingStep(t, p, "ghostty", file, "")
	if again.Token == plan.Token {
		t.Error("the plan token did not change with the settings file")
	}
}

// The line formats: each finds the setting the program uses, changes
// only it, or adds it where the program reads it.
func TestLineSettings(t *testing.T) {
	tests := []struct {
		name, target, file, orig, want, state string
	}{
		{"ghostty last wins", "ghostty", ".config/ghostty/config", "theme = a\nfont-size = 12\ntheme = light:b,dark:c\n",
			"theme = a\nfont-size = 12\ntheme = harbour-night\n", "change"},
		{"ghostty added", "ghostty", ".config/ghostty/config", "font-size = 12", "font-size = 12\ntheme = harbour-night\n", "add"},
		{"ghostty created", "ghostty", ".config/ghostty/config", "", "theme = harbour-night\n", "create"},
		{"kitty kitten include", "kitty", ".config/kitty/kitty.conf",
			"font_size 12\n# BEGIN_KITTY_THEME\ninclude current-theme.conf\n# END_KITTY_THEME\ninclude keys.conf\n",
			"font_size 12\n# BEGIN_KITTY_THEME\ninclude themes/harbour-night.conf\n# END_KITTY_THEME\ninclude keys.conf\n", "change"},
		{"kitty other includes kept", "kitty", ".config/kitty/kitty.conf", "include keys.conf\n",
			"include keys.conf\ninclude themes/harbour-night.conf\n", "add"},
		{"bat", "bat", ".config/bat/config", "--style=plain\n--theme=\"Nord\"\n", "--style=plain\n--theme=\"harbour-night\"\n", "change"},
		{"gitconfig delta section", "bat", ".gitconfig",
			"[user]\n\tname = me\n[delta]\n\tnavigate = true\n[merge]\n\tconflictstyle = diff3\n",
			"[user]\n\tname = me\n[delta]\n\tsyntax-theme = harbour-night\n\tnavigate = true\n[merge]\n\tconflictstyle = diff3\n", "add"},
		{"gitconfig delta key", "bat", ".gitconfig",
			"[other]\n\tsyntax-theme = keep\n[delta]\n\tsyntax-theme = Nord\n",
			"[other]\n\tsyntax-theme = keep\n[delta]\n\tsyntax-theme = harbour-night\n", "change"},
		{"gitconfig no delta", "bat", ".gitconfig", "[user]\n\tname = me", "[user]\n\tname = me\n[delta]\n\tsyntax-theme = harbour-night\n", "add"},
		{"neovim", "neovim", ".config/nvim/init.lua", "vim.opt.number = true\nvim.cmd.colorscheme(\"habamax\")\n",
			"vim.opt.number = true\nvim.cmd(\"colorscheme harbour-night\")\n", "change"},
		{"wezterm", "wezterm", ".config/wezterm/wezterm.lua",
			"local wezterm = require 'wezterm'\nlocal config = wezterm.config_builder()\nconfig.font_size = 12\nreturn config\n",
			"local wezterm = require 'wezterm'\nlocal config = wezterm.config_builder()\nconfig.font_size = 12\nconfig.color_scheme = \"Harbour Night\"\nreturn config\n", "add"},
		{"wezterm table", "wezterm", ".config/wezterm/wezterm.lua", "return {\n  color_scheme = 'Nord', -- mine\n}\n",
			"return {\n  color_scheme = \"Harbour Night\", -- mine\n}\n", "change"},
		{"wezterm created", "wezterm", ".config/wezterm/wezterm.lua", "", "return {\n  color_scheme = \"Harbour Night\",\n}\n", "create"},
		{"tmux", "tmux", ".config/tmux/tmux.conf", "set -g mouse on\nsource-file ~/.config/tmux/themes/old.conf\nsource-file ~/.config/tmux/keys.conf\n",
			"set -g mouse on\nsource-file {HOME}/.config/tmux/themes/harbour-night.conf\nsource-file ~/.config/tmux/keys.conf\n", "change"},
		{"foot", "foot", ".config/foot/foot.ini", "[colors]\nalpha=0.9\n", "include={HOME}/.config/foot/themes/harbour-night.ini\n[colors]\nalpha=0.9\n", "add"},
		{"alacritty", "alacritty", ".config/alacritty/alacritty.toml", "[font]\nsize = 12\n",
			"import = [\"{HOME}/.config/alacritty/themes/harbour-night.toml\"]\n[font]\nsize = 12\n", "add"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tempPaths(t, "linux")
			file := filepath.Join(p.Home, filepath.FromSlash(tt.file))
			plan, i := settingStep(t, p, tt.target, file, tt.orig)
			if st := plan.Steps[i]; st.State != tt.state || !st.Edit {
				t.Fatalf("step %+v, want %s", st, tt.state)
			}
			changeAndUndo(t, p, plan, i, themePathIn(tt.want, tt.target, p.Home))
		})
	}
}

// themePathIn is want with {HOME}/… (the theme file a config names) as
// the native path, written the way the program reads it: on Windows the
// path has backslashes and a drive colon, so tmux takes it single-quoted
// (a literal) and a TOML string (Alacritty's import) doubles each
// backslash; foot's include takes it as it is.
func themePathIn(want, target, home string) string {
	return regexp.MustCompile(`\{HOME\}[^\s"']*`).ReplaceAllStringFunc(want, func(m string) string {
		path := filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(m, "{HOME}")))
		if runtime.GOOS == "windows" {
			switch target {
			case "tmux":
				path = "'" + path + "'"
			case "alacritty":
				path = strings.ReplaceAll(path, `\`, `\\`)
			}
		}
		return path
	})
}

func TestLineSettingsLeftAlone(t *testing.T) {
	tests := []struct{ name, target, file, orig, reason string }{
		{"neovim twice", "neovim", ".config/nvim/init.lua", "vim.cmd('colorscheme a')\nvim.cmd [[colorscheme b]]\n", "2 lines"},
		{"neovim plugin", "neovim", ".config/nvim/init.lua", "vim.cmd('colorscheme a')\nif x then vim.cmd('colorscheme b') end\n", "a condition"},
		{"wezterm elsewhere", "wezterm", ".config/wezterm/wezterm.lua", "local c = {}\nreturn c\n", "return config"},
		{"alacritty own imports", "alacritty", ".config/alacritty/alacritty.toml", "import = [\"~/mine.toml\"]\n", "imports other files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tempPaths(t, "linux")
			plan, i := settingStep(t, p, tt.target, filepath.Join(p.Home, filepath.FromSlash(tt.file)), tt.orig)
			if st := plan.Steps[i]; st.State != "manual" || st.Edit || !strings.Contains(st.Reason, tt.reason) {
				t.Fatalf("step %+v, want manual: %s", st, tt.reason)
			}
		})
	}
	// Neovim with an init.vim: the setting goes there, never into an
	// init.lua beside it (Neovim would stop with an error).
	p := tempPaths(t, "linux")
	vimrc := filepath.Join(p.ConfigHome, "nvim", "init.vim")
	plan, i := settingStep(t, p, "neovim", vimrc, "set number\ncolorscheme desert\n")
	if st := plan.Steps[i]; st.State != "change" || st.New != "colorscheme harbour-night" {
		t.Fatalf("step %+v", st)
	}
}

// Targets defined as data name their setting in the manifest: Apply
// changes it the same way, and a step without one is shown only.
func TestManifestSettings(t *testing.T) {
	p := tempPaths(t, "linux")
	vimrc := filepath.Join(p.Home, ".vimrc")
	plan, i := settingStep(t, p, "vim", vimrc, "set number\ncolorscheme desert\n")
	if st := plan.Steps[i]; st.State != "change" || st.Old != "colorscheme desert" || st.New != "colorscheme harbour-night" {
		t.Fatalf("step %+v", st)
	}
	changeAndUndo(t, p, plan, i, "set number\ncolorscheme harbour-night\n")

	css := filepath.Join(p.ConfigHome, "gtk-4.0", "gtk.css")
	plan, i = settingStep(t, p, "gtk", css, "window { margin: 0; }\n")
	changeAndUndo(t, p, plan, i, "@import url(\"cdxtheme-harbour-night.css\");\nwindow { margin: 0; }\n")

	plan, err := Plan(theme.Example(), "konsole", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range plan.Steps {
		if st.Kind == "line" && (st.State != "manual" || !strings.Contains(st.Reason, "depends on your setup")) {
			t.Errorf("Konsole's <your profile> step: %+v, want manual", st)
		}
	}
	plan, i = settingStep(t, p, "fzf", filepath.Join(p.Home, ".bashrc"), "alias ll='ls -l'\n")
	if st := plan.Steps[i]; st.State != "manual" || st.Edit || st.Reason == "" {
		t.Fatalf("a step without a setting: %+v, want manual", st)
	}
}

// A theme name is the agent's text: in a settings file it is one quoted
// value, read back as the same name, whatever it holds.
func TestSettingHostileName(t *testing.T) {
	p := tempPaths(t, "linux")
	th := theme.Example()
	th.Name = "Evil\", \"x\": 1 // */ \u2028\n}"
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte("{\n  \"workbench.colorTheme\": \"Default Dark+\",\n  \"a\": 2\n}\n"), 0o644)
	plan, err := Plan(th, "vscode", p)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range plan.Steps {
		if st.Edit {
			plan.Change = append(plan.Change, i)
		}
	}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["workbench.colorTheme"] != th.Name || m["a"] != 2.0 || len(m) != 2 {
		t.Errorf("settings.json reads %v (%v):\n%s", m, err, b)
	}
}

// A FIFO where the settings file goes neither blocks the plan nor is
// written: the step says why it is left alone.
func TestSettingFIFOLeftAlone(t *testing.T) {
	if runtime.GOOS == "windows" {
		// Before any temporary folder: a skip has nothing to clean up.
		t.Skip("Windows file systems hold no FIFOs (its named pipes live under \\\\.\\pipe\\)")
	}
	p := tempPaths(t, "linux")
	cfg := filepath.Join(p.ConfigHome, "ghostty", "config")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	if err := fifo.Make(cfg); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	plan, i := settingStep(t, p, "ghostty", cfg, "")
	if st := plan.Steps[i]; st.State != "manual" || st.Edit || !strings.Contains(st.Reason, "not a regular file") {
		t.Fatalf("step %+v, want manual: not a regular file", st)
	}
}

// Windows Terminal's scheme for every profile is profiles.defaults; a
// colorScheme in one profile of the list is that profile's own.
func TestWindowsTerminalSetting(t *testing.T) {
	p := tempPaths(t, "windows")
	file := filepath.Join(p.LocalAppData, "Packages", "Microsoft.WindowsTerminal_8wekyb3d8bbwe", "LocalState", "settings.json")
	plan, i := settingStep(t, p, "windows-terminal", file, "")
	if st := plan.Steps[i]; st.State != "manual" || !strings.Contains(st.Reason, "start it once") {
		t.Fatalf("no settings.json yet: %+v, want manual", st)
	}
	orig := "{\n    \"profiles\":\n    {\n        \"defaults\": {},\n        \"list\": [ { \"name\": \"cmd\", \"colorScheme\": \"Campbell\" } ]\n    }\n}\n"
	plan, i = settingStep(t, p, "windows-terminal", file, orig)
	if st := plan.Steps[i]; st.State != "add" {
		t.Fatalf("step %+v, want add", st)
	}
	changeAndUndo(t, p, plan, i, strings.Replace(orig, `"defaults": {}`, "\"defaults\": {\n            \"colorScheme\": \"Harbour Night\"\n        }", 1))

	plan, i = settingStep(t, p, "windows-terminal", file, "{ \"profiles\": [] }")
	if st := plan.Steps[i]; st.State != "manual" || !strings.Contains(st.Reason, "profiles") {
		t.Fatalf("profiles as a list: %+v, want manual", st)
	}
}

// Zed's theme by mode: the entry of the theme's appearance changes, the
// mode and the other appearance's theme stay.
func TestZedThemeByMode(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "zed", "settings.json")
	orig := "{\n  \"theme\": {\n    \"mode\": \"system\",\n    \"light\": \"One Light\",\n    \"dark\": \"One Dark\"\n  },\n  \"ui_font_size\": 16\n}\n"
	plan, i := settingStep(t, p, "zed", file, orig)
	if st := plan.Steps[i]; st.State != "change" || st.Old != `"dark": "One Dark"` || st.New != `"dark": "Harbour Night"` {
		t.Fatalf("step %+v", st)
	}
	changeAndUndo(t, p, plan, i, strings.Replace(orig, `"One Dark"`, `"Harbour Night"`, 1))
}

// A settings.json saved with a byte order mark keeps it.
func TestJSONSettingByteOrderMark(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "zed", "settings.json")
	orig := "\uFEFF{\r\n  \"theme\": \"One Dark\"\r\n}\r\n"
	plan, i := settingStep(t, p, "zed", file, orig)
	changeAndUndo(t, p, plan, i, strings.Replace(orig, "One Dark", "Harbour Night", 1))
}

// The user changes another setting in the file after the apply (VS Code
// rewrites settings.json whenever one is changed): Undo apply takes only
// the theme's setting back and keeps theirs. Their own change to the
// theme's line itself is theirs: Undo leaves everything as it is.
func TestUndoTakesTheSettingBackOutOfAChangedFile(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	orig := "{\n    \"editor.fontSize\": 14,\n    \"workbench.colorTheme\": \"Default Dark+\",\n}\n"
	for _, tt := range []struct {
		name, edit, want string
		undone           bool
	}{
		{"another setting", "    \"editor.fontSize\": 14,\n", "{\n    \"editor.fontSize\": 16,\n    \"workbench.colorTheme\": \"Default Dark+\",\n}\n", true},
		{"the theme's line", "\"Harbour Night\"", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan, i := settingStep(t, p, "vscode", file, orig)
			plan.Change = []int{i}
			if _, err := Apply(plan); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(file)
			repl := "    \"editor.fontSize\": 16,\n"
			if !tt.undone {
				repl = "\"Solarized\""
			}
			changed := strings.Replace(string(b), tt.edit, repl, 1)
			os.WriteFile(file, []byte(changed), 0o644)
			_, err := UndoApply(p, "vscode")
			got, _ := os.ReadFile(file)
			if tt.undone && err != nil {
				t.Fatalf("Undo: %v", err)
			}
			if tt.undone && string(got) != tt.want {
				t.Fatalf("Undo left:\n%s\nwant:\n%s", got, tt.want)
			}
			if !tt.undone && (err == nil || string(got) != changed) {
				t.Fatalf("Undo over the user's own theme line: %v\n%s", err, got)
			}
			if !tt.undone {
				os.WriteFile(file, []byte(orig), 0o644)
				os.RemoveAll(filepath.Join(p.Store, "vscode")) // the refused undo's record
			}
		})
	}
	// A file Apply created and the user added to since: Undo takes the
	// theme's line out and leaves theirs.
	cfg := filepath.Join(p.ConfigHome, "ghostty", "config")
	plan, i := settingStep(t, p, "ghostty", cfg, "")
	plan.Change = []int{i}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, "font-size = 13\n"...), 0o644)
	if _, err := UndoApply(p, "ghostty"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(cfg); string(got) != "font-size = 13\n" {
		t.Errorf("after Undo: %q, want the user's line alone", got)
	}
}

// A settings file the user saves while Undo is writing (after Undo read
// it and took the theme's setting out of those bytes, right before the
// write) keeps the save: Undo stops with fswrite.ErrChanged naming it,
// and undoing again takes the setting out of the file as now saved.
func TestUndoKeepsASettingsFileSavedMeanwhile(t *testing.T) {
	p := tempPaths(t, "linux")
	file := filepath.Join(p.ConfigHome, "Code", "User", "settings.json")
	orig := "{\n    \"editor.fontSize\": 14,\n    \"workbench.colorTheme\": \"Default Dark+\",\n}\n"
	plan, i := settingStep(t, p, "vscode", file, orig)
	plan.Change = []int{i}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(b), "14", "16", 1)), 0o644)
	applied, _ := os.ReadFile(file)
	users := strings.Replace(string(applied), "16", "18", 1)
	beforeUndoWrite = func(path string) {
		if path == file {
			if err := os.WriteFile(file, []byte(users), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err := UndoApply(p, "vscode")
	beforeUndoWrite = nil
	if !errors.Is(err, fswrite.ErrChanged) || !strings.Contains(err.Error(), file) {
		t.Fatalf("Undo over a settings file saved meanwhile: %v, want fswrite.ErrChanged naming %s", err, file)
	}
	if got, _ := os.ReadFile(file); string(got) != users {
		t.Fatalf("the user's save was overwritten: %q", got)
	}
	if _, err := UndoApply(p, "vscode"); err != nil {
		t.Fatalf("Undo again: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != strings.Replace(orig, "14", "18", 1) {
		t.Errorf("after Undo again: %q, want the theme's setting out and the user's save kept", got)
	}
}

// A settings file the user saves while Apply is writing (after Apply read
// it and backed it up, right before the write) is not overwritten with a
// change computed from the older bytes: Apply stops with ErrPlanChanged
// naming it, takes back the theme files it had written, and leaves
// nothing to undo. The same holds for a file that appears where Apply
// creates one.
func TestApplyKeepsASettingsFileSavedMeanwhile(t *testing.T) {
	for _, tt := range []struct{ name, content string }{
		{"changed", "font-size = 12\ntheme = dracula\n"},
		{"created", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := tempPaths(t, "linux")
			file := filepath.Join(p.ConfigHome, "ghostty", "config")
			plan, i := settingStep(t, p, "ghostty", file, tt.content)
			plan.Change = []int{i}
			users := "font-size = 13\ntheme = dracula\n"
			beforeWrite = func(path string) {
				if path == file {
					if err := os.WriteFile(file, []byte(users), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			defer func() { beforeWrite = nil }()
			_, err := Apply(plan)
			if !errors.Is(err, ErrPlanChanged) || !strings.Contains(err.Error(), file) {
				t.Fatalf("Apply over a settings file saved meanwhile: %v, want ErrPlanChanged naming %s", err, file)
			}
			if got, _ := os.ReadFile(file); string(got) != users {
				t.Errorf("the user's save was overwritten: %q", got)
			}
			for _, f := range plan.Files {
				if _, err := os.Lstat(f.Path); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s is still installed after the refused apply (%v)", f.Path, err)
				}
			}
			if len(CanUndo(p)) != 0 {
				t.Error("a refused apply left a record to undo")
			}
		})
	}
}

// A setting value that came out of a theme's name with a line break
// would be two lines of the user's file: the file is left alone.
func TestLineSettingValueWithALineBreakLeftAlone(t *testing.T) {
	s := &install.Setting{Syntax: "lines", Match: `^\s*theme\s*=\s*(?P<v>.*?)\s*$`, Value: "x\nbell = on", Multi: "last"}
	if r, err := editLines([]byte("theme = dracula\n"), s, "theme = x"); err == nil {
		t.Errorf("a value with a line break was written: %q", r.data)
	}
}
