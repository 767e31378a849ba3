package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/apply"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// The plan the user confirmed is the one installed: the agent renaming the
// theme to "Gruvbox" between the dialog and the click would make a new plan
// replace the user's own gruvbox.lua (backed up, but never shown). Apply
// refuses instead, writing nothing, and the new plan is there to confirm.
func TestApplyInstallsOnlyThePlanConfirmed(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	write := func(th *theme.Theme) {
		b, _ := json.Marshal(th)
		if err := os.WriteFile(filepath.Join(ws.Dir, theme.FileName), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(theme.Example())
	shown, err := a.Themes.PlanApply(ws.ID, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	// Beside the planned file: Neovim's colors folder on this OS
	// (~/.config/nvim, or %LOCALAPPDATA%\nvim on Windows).
	mine := filepath.Join(filepath.Dir(shown.Files[0].Path), "gruvbox.lua")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	own := []byte("-- the user's own gruvbox\n")
	os.WriteFile(mine, own, 0o644)
	renamed := theme.Example()
	renamed.Name = "Gruvbox"
	write(renamed)

	_, err = a.Themes.ApplyTheme(ws.ID, "neovim", shown.Token, nil)
	if !errors.Is(err, apply.ErrPlanChanged) {
		t.Fatalf("ApplyTheme after a rename: %v, want ErrPlanChanged", err)
	}
	if b, _ := os.ReadFile(mine); !bytes.Equal(b, own) {
		t.Errorf("the user's gruvbox.lua was replaced: %q", b)
	}
	if _, err := os.Stat(shown.Files[0].Path); err == nil {
		t.Errorf("%s was written after a refusal", shown.Files[0].Path)
	}
	if u, _ := a.Themes.UndoableApplies(); len(u) != 0 {
		t.Errorf("a refused apply left an undo: %v", u)
	}
	// The new plan says it replaces gruvbox.lua; confirmed, it goes.
	now, err := a.Themes.PlanApply(ws.ID, "neovim")
	if err != nil || now.Files[0].Path != mine || !now.Files[0].Exists {
		t.Fatalf("the new plan: %+v %v", now, err)
	}
	res, err := a.Themes.ApplyTheme(ws.ID, "neovim", now.Token, nil)
	if err != nil || len(res.Backups) != 1 {
		t.Fatalf("the confirmed new plan: %+v %v", res, err)
	}
}

// The setting the user let Apply change is the one they saw: their
// init.lua edited between the dialog and the click refuses the apply,
// writing nothing; confirmed again, only the ticked step's file changes.
func TestApplyChangesOnlyTheSettingsConfirmed(t *testing.T) {
	a, _, _ := newTestApp(t, "normal")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(theme.Example())
	os.WriteFile(filepath.Join(ws.Dir, theme.FileName), b, 0o644)
	shown, err := a.Themes.PlanApply(ws.ID, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	step := -1
	for i, st := range shown.Steps {
		if st.Kind == "line" {
			step = i
		}
	}
	init := shown.Steps[step].File
	os.MkdirAll(filepath.Dir(init), 0o755)
	os.WriteFile(init, []byte("vim.cmd('colorscheme desert')\n"), 0o644)

	if _, err := a.Themes.ApplyTheme(ws.ID, "neovim", shown.Token, []int{step}); !errors.Is(err, apply.ErrPlanChanged) {
		t.Fatalf("ApplyTheme after init.lua changed: %v, want ErrPlanChanged", err)
	}
	now, err := a.Themes.PlanApply(ws.ID, "neovim")
	if err != nil || now.Steps[step].State != "change" || !now.Steps[step].Edit {
		t.Fatalf("the new plan's step: %+v %v", now.Steps[step], err)
	}
	if _, err := a.Themes.ApplyTheme(ws.ID, "neovim", now.Token, []int{step}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(init); string(got) != "vim.cmd(\"colorscheme harbour-night\")\n" {
		t.Errorf("init.lua: %q", got)
	}
	if _, err := a.Themes.UndoApply("neovim"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(init); string(got) != "vim.cmd('colorscheme desert')\n" {
		t.Errorf("init.lua after Undo apply: %q", got)
	}
}
