package theme

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func tempPaths(t *testing.T, goos string) Paths {
	home := t.TempDir()
	return Paths{
		Home: home, ConfigHome: filepath.Join(home, ".config"), GOOS: goos,
		AppData: filepath.Join(home, "AppData", "Roaming"), LocalAppData: filepath.Join(home, "AppData", "Local"),
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
		{"windows-terminal", "windows", []string{"AppData/Local/Microsoft/Windows Terminal/Fragments/cdxtheme/harbour-night.json"}, "colour scheme"},
		{"iterm2", "darwin", []string{"Library/Application Support/iTerm2/DynamicProfiles/harbour-night.json"}, "profile"},
	}
	for _, tt := range tests {
		t.Run(tt.target+"/"+tt.goos, func(t *testing.T) {
			p := tempPaths(t, tt.goos)
			plan, err := Plan(Example(), tt.target, p)
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
			// Planning writes nothing.
			entries, _ := os.ReadDir(p.Home)
			if len(entries) != 0 {
				t.Errorf("Plan created %v", entries)
			}
		})
	}
}

func TestPlanUnsupported(t *testing.T) {
	for _, tt := range []struct{ target, goos string }{
		{"windows-terminal", "linux"}, {"iterm2", "linux"}, {"iterm2", "windows"},
		{"kitty", "windows"}, {"ghostty", "windows"},
	} {
		_, err := Plan(Example(), tt.target, tempPaths(t, tt.goos))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "cdxtheme export --format") {
			t.Errorf("%s on %s: %v, want ErrUnsupported with the export hint", tt.target, tt.goos, err)
		}
	}
	if _, err := Plan(Example(), "emacs", tempPaths(t, "linux")); err == nil || !strings.Contains(err.Error(), "ghostty") {
		t.Errorf("unknown target: %v", err)
	}
}

// The menu of a system lists exactly the targets Plan can install there.
func TestTargetsForMatchPlan(t *testing.T) {
	want := map[string]string{
		"linux":   "vscode zed alacritty kitty ghostty",
		"darwin":  "vscode zed alacritty kitty ghostty iterm2",
		"windows": "vscode zed alacritty windows-terminal",
	}
	for goos, ids := range want {
		var got []string
		for _, tg := range TargetsFor(goos) {
			got = append(got, tg.ID)
		}
		if strings.Join(got, " ") != ids {
			t.Errorf("%s: %v, want %s", goos, got, ids)
		}
		for _, tg := range Targets {
			_, err := Plan(Example(), tg.ID, tempPaths(t, goos))
			if errors.Is(err, ErrUnsupported) == slices.Contains(got, tg.ID) {
				t.Errorf("%s on %s: listed %v, Plan says %v", tg.ID, goos, slices.Contains(got, tg.ID), err)
			}
		}
	}
}

func TestApplyBacksUpAndReplaces(t *testing.T) {
	p := tempPaths(t, "linux")
	th := Example()
	plan, err := Plan(th, "kitty", p)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Render(th, "kitty")
	path := filepath.Join(p.ConfigHome, "kitty", "themes", "harbour-night.conf")
	if len(first.Installed) != 1 || first.Installed[0] != path || len(first.Backups) != 0 {
		t.Fatalf("first install = %+v", first)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, want["harbour-night.conf"]) {
		t.Error("installed file differs from the export")
	}

	// The user edits the installed theme; installing a new version must keep their file.
	mine := []byte("# my tweaks\nbackground #000000\n")
	os.WriteFile(path, mine, 0o644)
	th.UI.Background = mustColor(t, "#101420")
	plan, err = Plan(th, "kitty", p)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Files[0].Exists {
		t.Error("plan does not show the file will be replaced")
	}
	second, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Backups) != 1 || !strings.HasPrefix(second.Backups[0], path+".bak-") {
		t.Fatalf("backups = %v", second.Backups)
	}
	if b, _ := os.ReadFile(second.Backups[0]); !bytes.Equal(b, mine) {
		t.Errorf("backup holds %q, want the user's file", b)
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte("#101420")) {
		t.Error("new version not installed")
	}
	// A third install within the same second gets its own backup.
	third, err := Apply(plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(third.Backups) != 1 || third.Backups[0] == second.Backups[0] {
		t.Errorf("third backups %v overwrote %v", third.Backups, second.Backups)
	}
	if b, _ := os.ReadFile(second.Backups[0]); !bytes.Equal(b, mine) {
		t.Error("the earlier backup was overwritten")
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
		plan, err := Plan(Example(), "vscode", p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Apply(plan)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Installed) != 3 {
			t.Errorf("installed %v, want the two extension files and extensions.json", res.Installed)
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
	if ours.Identifier.ID != "cdxtheme.harbour-night" || ours.RelativeLocation != "cdxtheme.harbour-night-1.0.0" ||
		ours.Location.Scheme != "file" || ours.Location.Path != filepath.ToSlash(filepath.Join(exts, "cdxtheme.harbour-night-1.0.0")) {
		t.Errorf("our entry = %+v", ours)
	}
	if _, err := os.Stat(filepath.Join(exts, "cdxtheme.harbour-night-1.0.0", "package.json")); err != nil {
		t.Error(err)
	}

	// A corrupt registry is left as it is, and the note says so.
	os.WriteFile(reg, []byte("{not json"), 0o644)
	plan, err := Plan(Example(), "vscode", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Files) != 2 || !strings.Contains(plan.Note, "left alone") {
		t.Errorf("corrupt extensions.json: %d files, note %q", len(plan.Files), plan.Note)
	}
}

func TestApplyWindowsTerminalFragment(t *testing.T) {
	p := tempPaths(t, "windows")
	plan, err := Plan(Example(), "windows-terminal", p)
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
	plan, err := Plan(Example(), "iterm2", p)
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
	got := Color{uint8(bg.Red*255 + 0.5), uint8(bg.Green*255 + 0.5), uint8(bg.Blue*255 + 0.5), 255}
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
	p, err := DefaultPaths()
	if err != nil {
		t.Fatal(err)
	}
	if p.Home != home || p.ConfigHome != filepath.Join(home, ".config") {
		t.Errorf("paths = %+v", p)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	if p, _ := DefaultPaths(); p.ConfigHome != filepath.Join(home, "cfg") {
		t.Errorf("XDG_CONFIG_HOME ignored: %+v", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/cfg") // the XDG spec says ignore relative paths
	if p, _ := DefaultPaths(); p.ConfigHome != filepath.Join(home, ".config") {
		t.Errorf("relative XDG_CONFIG_HOME used: %+v", p)
	}
}
