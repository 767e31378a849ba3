package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/install"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

func tempPaths(t *testing.T, goos string) install.Paths {
	home := t.TempDir()
	return install.Paths{
		Home: home, ConfigHome: filepath.Join(home, ".config"), GOOS: goos,
		AppData: filepath.Join(home, "AppData", "Roaming"), LocalAppData: filepath.Join(home, "AppData", "Local"),
		Store: filepath.Join(t.TempDir(), "applied"),
	}
}

func TestPlanPaths(t *testing.T) {
	tests := []struct {
		target, goos string
		want         []string // relative to the temp home
		note         string
	}{
		{"zed", "linux", []string{".config/zed/themes/harbour-night.json"}, "theme selector"},
		{"zed", "darwin", []string{".config/zed/themes/harbour-night.json"}, ""},
		{"zed", "windows", []string{"AppData/Roaming/Zed/themes/harbour-night.json"}, ""},
		{"alacritty", "linux", []string{".config/alacritty/themes/harbour-night.toml"}, "import = ["},
		{"alacritty", "windows", []string{"AppData/Roaming/alacritty/themes/harbour-night.toml"}, "[general]"},
		{"kitty", "linux", []string{".config/kitty/themes/harbour-night.conf"}, "kitten themes"},
		{"ghostty", "darwin", []string{".config/ghostty/themes/harbour-night"}, "theme = harbour-night"},
		{"vscode", "linux", []string{
			".vscode/extensions/cdxtheme.harbour-night-1.0.0/package.json",
			".vscode/extensions/cdxtheme.harbour-night-1.0.0/themes/harbour-night-color-theme.json",
		}, "Color Theme"},
		{"neovim", "linux", []string{".config/nvim/colors/harbour-night.lua"}, ":colorscheme harbour-night"},
		{"neovim", "windows", []string{"AppData/Local/nvim/colors/harbour-night.lua"}, "init.lua"},
		{"helix", "linux", []string{".config/helix/themes/harbour-night.toml"}, `theme = "harbour-night"`},
		{"helix", "windows", []string{"AppData/Roaming/helix/themes/harbour-night.toml"}, ":theme harbour-night"},
		{"bat", "linux", []string{".config/bat/themes/harbour-night.tmTheme"}, "cache --build"},
		{"bat", "windows", []string{"AppData/Roaming/bat/themes/harbour-night.tmTheme"}, "syntax-theme = harbour-night"},
		{"wezterm", "linux", []string{".config/wezterm/colors/harbour-night.toml"}, `config.color_scheme = "Harbour Night"`},
		{"wezterm", "windows", []string{".config/wezterm/colors/harbour-night.toml"}, "wezterm.lua"},
		{"foot", "linux", []string{".config/foot/themes/harbour-night.ini"}, "[main]"},
		{"tmux", "darwin", []string{".config/tmux/themes/harbour-night.conf"}, "tmux source-file"},
		{"windows-terminal", "windows", []string{"AppData/Local/Microsoft/Windows Terminal/Fragments/cdxtheme/harbour-night.json"}, "colour scheme"},
		{"iterm2", "darwin", []string{"Library/Application Support/iTerm2/DynamicProfiles/harbour-night.json"}, "profile"},
	}
	for _, tt := range tests {
		t.Run(tt.target+"/"+tt.goos, func(t *testing.T) {
			p := tempPaths(t, tt.goos)
			plan, err := Plan(theme.Example(), tt.target, p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range plan.Files {
				rel, _ := filepath.Rel(p.Home, f.Path)
				got = append(got, filepath.ToSlash(rel))
				if f.Exists {
					t.Errorf("%s marked existing in an empty home", f.Path)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !strings.Contains(plan.Note, tt.note) {
				t.Errorf("note %q lacks %q", plan.Note, tt.note)
			}
			// Every activation step is exact: a command, or a line and
			// the config file it goes in, and the note shows each.
			if len(plan.Steps) == 0 && tt.target != "iterm2" {
				t.Error("no activation step")
			}
			for _, st := range plan.Steps {
				if st.Text == "" || (st.Kind == "line") == (st.File == "") || st.Kind != "line" && st.Kind != "command" {
					t.Errorf("step %+v", st)
				}
			}
			// Planning writes nothing.
			entries, _ := os.ReadDir(p.Home)
			if len(entries) != 0 {
				t.Errorf("Plan created %v", entries)
			}
		})
	}
}

// The bat step names whichever of bat and batcat (Debian's name) is on
// PATH.
func TestBatStepNamesTheInstalledProgram(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	stub := func(name string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := func() string {
		plan, err := Plan(theme.Example(), "bat", tempPaths(t, runtime.GOOS))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range plan.Steps {
			if st.Kind == "command" {
				if !strings.Contains(plan.Note, st.Text) {
					t.Errorf("the note %q does not say %q", plan.Note, st.Text)
				}
				return st.Text
			}
		}
		t.Fatal("no command step")
		return ""
	}
	if runtime.GOOS == "windows" {
		t.Skip("PATH programs need .exe there")
	}
	stub("batcat")
	if got := cmd(); got != "batcat cache --build" {
		t.Errorf("with only batcat: %q", got)
	}
	stub("bat")
	if got := cmd(); got != "bat cache --build" {
		t.Errorf("with bat: %q", got)
	}
}

func TestPlanUnsupported(t *testing.T) {
	for _, tt := range []struct{ target, goos string }{
		{"windows-terminal", "linux"}, {"iterm2", "linux"}, {"iterm2", "windows"},
		{"kitty", "windows"}, {"ghostty", "windows"}, {"foot", "darwin"}, {"foot", "windows"}, {"tmux", "windows"},
	} {
		_, err := Plan(theme.Example(), tt.target, tempPaths(t, tt.goos))
		if !errors.Is(err, install.ErrUnsupported) || !strings.Contains(err.Error(), "cdxtheme export --format") {
			t.Errorf("%s on %s: %v, want ErrUnsupported with the export hint", tt.target, tt.goos, err)
		}
	}
	if _, err := Plan(theme.Example(), "no-such-target", tempPaths(t, "linux")); err == nil || !strings.Contains(err.Error(), "ghostty") {
		t.Errorf("unknown target: %v", err)
	}
}

// The menu of a system lists exactly the targets Plan can install there.
func TestTargetsForMatchPlan(t *testing.T) {
	want := map[string]string{
		"linux":   "vscode zed neovim helix bat alacritty kitty ghostty wezterm foot tmux",
		"darwin":  "vscode zed neovim helix bat alacritty kitty ghostty wezterm tmux iterm2",
		"windows": "vscode zed neovim helix bat alacritty wezterm windows-terminal",
	}
	for goos, ids := range want {
		var got, listed []string
		for _, tg := range install.TargetsFor(goos) {
			listed = append(listed, tg.ID)
			if !tg.External() { // core/targets checks its own
				got = append(got, tg.ID)
			}
		}
		if strings.Join(got, " ") != ids {
			t.Errorf("%s: %v, want %s", goos, got, ids)
		}
		for _, tg := range install.Targets {
			_, err := Plan(theme.Example(), tg.ID, tempPaths(t, goos))
			if errors.Is(err, install.ErrUnsupported) == slices.Contains(listed, tg.ID) {
				t.Errorf("%s on %s: listed %v, Plan says %v", tg.ID, goos, slices.Contains(listed, tg.ID), err)
			}
		}
	}
}

// Undo takes away the folders the apply made, and keeps one the user has
// put a file of their own into since.
func TestUndoRemovesTheFoldersApplyCreated(t *testing.T) {
	p := tempPaths(t, "linux")
	apply := func() {
		plan, err := Plan(theme.Example(), "kitty", p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(plan); err != nil {
			t.Fatal(err)
		}
	}
	apply()
	if _, err := UndoApply(p, "kitty"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(p.Home); len(entries) != 0 {
		t.Errorf("after undo the home holds %v, want nothing", entries)
	}
	apply()
	mine := filepath.Join(p.ConfigHome, "kitty", "kitty.conf")
	os.WriteFile(mine, []byte("font_size 12\n"), 0o644)
	if _, err := UndoApply(p, "kitty"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's own file went with the undo: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.ConfigHome, "kitty", "themes")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the themes folder Apply made stays: %v", err)
	}
}

func TestApplyBacksUpOutsideAndUndoes(t *testing.T) {
	p := tempPaths(t, "linux")
	th := theme.Example()
	plan, err := Plan(th, "ghostty", p)
	if err != nil {
		t.Fatal(err)
	}
	themes := filepath.Join(p.ConfigHome, "ghostty", "themes")
	path := filepath.Join(themes, "harbour-night")
	first, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := targets.Render(th, "ghostty")
	if len(first.Installed) != 1 || first.Installed[0] != path || len(first.Backups) != 0 || !first.Undo {
		t.Fatalf("first install = %+v", first)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, want["harbour-night"]) {
		t.Error("installed file differs from the export")
	}

	// The user's own version of the file, with its own mode; a new
	// version of the theme replaces it, keeping a copy outside Ghostty's
	// themes folder (where Ghostty would list it as a theme).
	mine := []byte("# my tweaks\nbackground = #000000\n")
	os.WriteFile(path, mine, 0o600)
	os.Chmod(path, 0o600)
	th.UI.Background = mustColor(t, "#101420")
	if plan, err = Plan(th, "ghostty", p); err != nil {
		t.Fatal(err)
	}
	if !plan.Files[0].Exists || plan.Files[0].Same {
		t.Errorf("plan %+v does not show the file will be replaced", plan.Files[0])
	}
	second, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Backups) != 1 || !strings.HasPrefix(second.Backups[0], p.Store+string(filepath.Separator)) {
		t.Fatalf("backups = %v, want one in %s", second.Backups, p.Store)
	}
	if b, _ := os.ReadFile(second.Backups[0]); !bytes.Equal(b, mine) {
		t.Errorf("backup holds %q, want the user's file", b)
	}
	if entries, _ := os.ReadDir(themes); len(entries) != 1 {
		t.Errorf("Ghostty's themes folder holds %v, want only the theme", entries)
	}
	// Windows keeps no mode bits (only a read-only attribute) to carry over.
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("the new file has mode %v, want the replaced file's 0600", fi.Mode().Perm())
	}

	// Undo: the user's bytes and mode are back.
	undone, err := UndoApply(p, "ghostty")
	if err != nil {
		t.Fatal(err)
	}
	if len(undone.Restored) != 1 || undone.Restored[0] != path {
		t.Errorf("undone = %+v", undone)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if !bytes.Equal(b, mine) || fi.Mode().Perm() != 0o600 {
		t.Errorf("after undo: %q mode %v, want the user's file with 0600", b, fi.Mode().Perm())
	}
	// Undo again: the first apply created the file, so it goes.
	if undone, err = UndoApply(p, "ghostty"); err == nil {
		t.Errorf("undid the first apply over a file the user changed since: %+v", undone)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, mine) {
		t.Error("a refused undo changed the file")
	}
	os.WriteFile(path, want["harbour-night"], 0o644)
	if undone, err = UndoApply(p, "ghostty"); err != nil || len(undone.Removed) != 1 {
		t.Fatalf("undo of the first apply: %+v, %v", undone, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the file the first apply created is still there: %v", err)
	}
	if _, err := UndoApply(p, "ghostty"); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Errorf("third undo: %v", err)
	}
}

// Applying the same theme again writes nothing and backs nothing up.
func TestApplyUnchangedWritesNoBackup(t *testing.T) {
	p := tempPaths(t, "linux")
	plan, err := Plan(theme.Example(), "vscode", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if plan, err = Plan(theme.Example(), "vscode", p); err != nil {
			t.Fatal(err)
		}
		for _, f := range plan.Files {
			if !f.Same {
				t.Errorf("re-plan: %s not marked as already installed", f.Path)
			}
		}
		res, err := Apply(plan)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Backups) != 0 || len(res.Installed) != 0 || len(res.Unchanged) != 2 {
			t.Fatalf("identical re-apply %d: %+v", i, res)
		}
	}
	var files int
	filepath.WalkDir(p.Store, func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			files++
		}
		return nil
	})
	if files != 1 {
		t.Errorf("store holds %d files after six applies of one theme, want the first apply's record only", files)
	}
	// The one undo removes the extension again.
	if _, err := UndoApply(p, "vscode"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(plan.Files[0].Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after undo: %v", err)
	}
}

func TestApplyVSCodeRegistersExtension(t *testing.T) {
	p := tempPaths(t, "linux")
	exts := filepath.Join(p.Home, ".vscode", "extensions")
	os.MkdirAll(exts, 0o755)
	other := `{"identifier":{"id":"ms-python.python"},"version":"2024.1.0","relativeLocation":"ms-python.python-2024.1.0"}`
	reg := filepath.Join(exts, "extensions.json")
	os.WriteFile(reg, []byte("["+other+"]"), 0o644)
	for i := 0; i < 2; i++ {
		plan, err := Plan(theme.Example(), "vscode", p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Apply(plan)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && len(res.Installed) != 3 {
			t.Errorf("installed %v, want the two extension files and extensions.json", res.Installed)
		}
		if i == 1 && (len(res.Installed) != 0 || len(res.Unchanged) != 3) {
			t.Errorf("re-apply %+v, want all three left as they are", res)
		}
	}
	var entries []struct {
		Identifier       struct{ ID string }
		RelativeLocation string
		Location         struct{ Path, Scheme string }
	}
	b, _ := os.ReadFile(reg)
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Identifier.ID != "ms-python.python" {
		t.Fatalf("extensions.json = %s, want the other extension kept and ours once", b)
	}
	ours := entries[1]
	// VS Code's location is a URI path: /C:/Users/… on Windows.
	wantPath := filepath.ToSlash(filepath.Join(exts, "cdxtheme.harbour-night-1.0.0"))
	if !strings.HasPrefix(wantPath, "/") {
		wantPath = "/" + wantPath
	}
	if ours.Identifier.ID != "cdxtheme.harbour-night" || ours.RelativeLocation != "cdxtheme.harbour-night-1.0.0" ||
		ours.Location.Scheme != "file" || ours.Location.Path != wantPath {
		t.Errorf("our entry = %+v", ours)
	}
	if _, err := os.Stat(filepath.Join(exts, "cdxtheme.harbour-night-1.0.0", "package.json")); err != nil {
		t.Error(err)
	}

	// A corrupt registry is left as it is, and the note says so.
	os.WriteFile(reg, []byte("{not json"), 0o644)
	plan, err := Plan(theme.Example(), "vscode", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 2 || !strings.Contains(plan.Note, "left alone") {
		t.Errorf("corrupt extensions.json: %d files, note %q", len(plan.Files), plan.Note)
	}
}

func TestApplyWindowsTerminalFragment(t *testing.T) {
	p := tempPaths(t, "windows")
	plan, err := Plan(theme.Example(), "windows-terminal", p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(res.Installed[0])
	var frag struct {
		Schemes []map[string]string
	}
	if err := json.Unmarshal(b, &frag); err != nil || len(frag.Schemes) != 1 {
		t.Fatalf("fragment %s: %v", b, err)
	}
	s := frag.Schemes[0]
	if s["name"] != "Harbour Night" || s["background"] != "#161a24" || s["purple"] != "#c79bff" {
		t.Errorf("scheme = %v", s)
	}
}

func TestApplyITermDynamicProfile(t *testing.T) {
	p := tempPaths(t, "darwin")
	plan, err := Plan(theme.Example(), "iterm2", p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(res.Installed[0])
	var doc struct {
		Profiles []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Profiles) != 1 {
		t.Fatalf("profile %s: %v", b, err)
	}
	prof := doc.Profiles[0]
	var name, guid string
	json.Unmarshal(prof["Name"], &name)
	json.Unmarshal(prof["Guid"], &guid)
	if name != "Harbour Night" || guid == "" {
		t.Errorf("name %q guid %q", name, guid)
	}
	var bg struct {
		Red   float64 `json:"Red Component"`
		Green float64 `json:"Green Component"`
		Blue  float64 `json:"Blue Component"`
	}
	json.Unmarshal(prof["Background Color"], &bg)
	got := theme.Color{R: uint8(bg.Red*255 + 0.5), G: uint8(bg.Green*255 + 0.5), B: uint8(bg.Blue*255 + 0.5), A: 255}
	if got.Hex() != "#161a24" {
		t.Errorf("background %s", got.Hex())
	}
}

func TestApplyRejectsHandMadePlan(t *testing.T) {
	dir := t.TempDir()
	_, err := Apply(InstallPlan{Target: "zed", Files: []PlannedFile{{Path: filepath.Join(dir, "x.json")}}})
	if err == nil {
		t.Fatal("a plan without content was applied")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("an empty file was written")
	}
}

func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	p, err := install.DefaultPaths()
	if err != nil {
		t.Fatal(err)
	}
	if p.Home != home || p.ConfigHome != filepath.Join(home, ".config") {
		t.Errorf("paths = %+v", p)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	if p, _ := install.DefaultPaths(); p.ConfigHome != filepath.Join(home, "cfg") {
		t.Errorf("XDG_CONFIG_HOME ignored: %+v", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/cfg") // the XDG spec says ignore relative paths
	if p, _ := install.DefaultPaths(); p.ConfigHome != filepath.Join(home, ".config") {
		t.Errorf("relative XDG_CONFIG_HOME used: %+v", p)
	}
}

// Apply installs exactly the plan the user saw: a file created where the
// plan said "new" (the user's own), or changed where it said "replaces",
// after the plan was made stops it before anything is written; and the
// plan's token names what it showed, the same for the same plan, another
// one once the theme is renamed.
func TestApplyRefusesAPlanThatNoLongerHolds(t *testing.T) {
	p := tempPaths(t, "linux")
	plan, err := Plan(theme.Example(), "neovim", p)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Plan(theme.Example(), "neovim", p)
	if plan.Token == "" || again.Token != plan.Token {
		t.Fatalf("the same plan twice has tokens %q and %q", plan.Token, again.Token)
	}
	renamed := theme.Example()
	renamed.Name = "Gruvbox"
	if other, _ := Plan(renamed, "neovim", p); other.Token == plan.Token {
		t.Error("a plan for the renamed theme has the token of the plan shown")
	}
	path := plan.Files[0].Path
	os.MkdirAll(filepath.Dir(path), 0o755)
	mine := []byte("-- the user's own colorscheme\n")
	os.WriteFile(path, mine, 0o644)
	if now, _ := Plan(theme.Example(), "neovim", p); now.Token == plan.Token {
		t.Error("a file created where the plan writes keeps the plan's token")
	}
	_, err = Apply(plan)
	if !errors.Is(err, ErrPlanChanged) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Apply after the user's file appeared: %v, want ErrPlanChanged naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, mine) {
		t.Errorf("the user's file was replaced: %q", b)
	}
	if len(CanUndo(p)) != 0 {
		t.Error("a refused apply left a record to undo")
	}
	// Changed after a plan that saw it: refused too; planned again, it goes.
	plan, _ = Plan(theme.Example(), "neovim", p)
	os.WriteFile(path, []byte("-- edited meanwhile\n"), 0o644)
	if _, err := Apply(plan); !errors.Is(err, ErrPlanChanged) {
		t.Fatalf("Apply after the file changed: %v", err)
	}
	plan, _ = Plan(theme.Example(), "neovim", p)
	if res, err := Apply(plan); err != nil || len(res.Backups) != 1 {
		t.Fatalf("a fresh plan: %+v %v", res, err)
	}
}

// VS Code's extensions.json gets a timestamp each time it is planned; the
// token does not change with it.
func TestPlanTokenIsStableForVSCode(t *testing.T) {
	p := tempPaths(t, "linux")
	reg := filepath.Join(p.Home, ".vscode", "extensions", "extensions.json")
	os.MkdirAll(filepath.Dir(reg), 0o755)
	os.WriteFile(reg, []byte(`[]`), 0o644)
	a, err := Plan(withCompanion(t), "vscode", p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Plan(withCompanion(t), "vscode", p)
	if a.Token != b.Token {
		t.Error("two plans of the same install have different tokens")
	}
}
