package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// A designer edits a palette entry: every role following it moves in
// theme.json, the preview's state and its contrast table, as one undo
// step; a role detached from the entry stays; re-attached it follows
// again; a locked entry the agent changes is put back with its followers.
func TestPaletteEditsMoveEveryFollowerAsOneStep(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	doc, err := theme.Example().MarshalJSON() // version 3: roles name the palette
	if err != nil {
		t.Fatal(err)
	}
	m, err := workspace.CreateWithTheme(workspace.Root(), "Palette", doc)
	if err != nil {
		t.Fatal(err)
	}
	ws, dir := m.ID, m.Dir
	original, _ := os.ReadFile(filepath.Join(dir, theme.FileName))
	before := readTheme(t, dir)
	tide := before.Palette["tide"]
	followers := before.EntryUsers("tide")
	if !slices.Contains(followers, "ui.accent") || !slices.Contains(followers, "ansi.blue") {
		t.Fatalf("the example's tide is followed by %v", followers)
	}

	st, err := a.Editor.SetPaletteEntry(PaletteEntryRequest{WorkspaceID: ws, Name: "tide", Hex: "#ff8800"})
	if err != nil {
		t.Fatal(err)
	}
	th := readTheme(t, dir)
	for _, p := range followers {
		if th.Color(p).Hex() != "#ff8800" {
			t.Errorf("%s is %s after tide changed", p, th.Color(p))
		}
	}
	if th.Color("ui.border") != before.Color("ui.border") {
		t.Error("a role not following tide moved")
	}
	// The preview's state: the roles and the contrast table follow.
	pst := themewatch.StateOf(themeBytes(t, dir))
	if !slices.ContainsFunc(pst.Checks, func(c contrast.Check) bool {
		return c.FGRole == "ui.accent" && c.FG == "#ff8800" && c.FGFollows == "tide"
	}) {
		t.Errorf("the contrast table does not show the accent following tide at #ff8800: %+v", pst.Checks)
	}
	if !st.CanUndo || !strings.Contains(st.UndoLabel, "palette.tide") {
		t.Errorf("state after the palette edit: %+v", st)
	}
	if i := slices.IndexFunc(st.Roles, func(r EditorRole) bool { return r.Path == "ui.accent" }); st.Roles[i].Follows != "tide" {
		t.Errorf("editor role ui.accent: %+v", st.Roles[i])
	}
	// One undo puts every role back.
	if _, err := a.Editor.UndoEdit(ws); err != nil {
		t.Fatal(err)
	}
	if now := themeBytes(t, dir); string(now) != string(original) {
		t.Fatalf("one undo did not restore theme.json:\n%s", now)
	}

	// Detached, the accent keeps its colour when tide changes; attached
	// again, it follows.
	if _, err := a.Editor.DetachRole(ws, "ui.accent"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.SetPaletteEntry(PaletteEntryRequest{WorkspaceID: ws, Name: "tide", Hex: "#ff8800"}); err != nil {
		t.Fatal(err)
	}
	th = readTheme(t, dir)
	if th.UI.Accent != tide || th.ANSI[4].Hex() != "#ff8800" || !strings.Contains(string(themeBytes(t, dir)), `"accent": "#7fb4ff"`) {
		t.Errorf("detached accent %s, following ansi.blue %s", th.UI.Accent, th.ANSI[4])
	}
	if _, err := a.Editor.AttachRole(ws, "ui.accent", "tide"); err != nil {
		t.Fatal(err)
	}
	if th = readTheme(t, dir); th.UI.Accent.Hex() != "#ff8800" || th.Follows("ui.accent") != "tide" {
		t.Errorf("re-attached accent %s follows %q", th.UI.Accent, th.Follows("ui.accent"))
	}
	if _, err := a.Editor.AttachRole(ws, "ui.accent", "tidal"); err == nil || !strings.Contains(err.Error(), `"tidal" is not a palette entry`) {
		t.Errorf("attach to an unknown entry: %v", err)
	}
	// A new entry.
	if st, err = a.Editor.SetPaletteEntry(PaletteEntryRequest{WorkspaceID: ws, Name: "sand", Hex: "#e0c090"}); err != nil ||
		!slices.ContainsFunc(st.Roles, func(r EditorRole) bool { return r.Path == "palette.sand" }) {
		t.Fatalf("add an entry: %v", err)
	}

	// A locked entry the agent changes comes back with its followers.
	if _, err := a.Editor.SetLock(ws, "palette.tide", true); err != nil {
		t.Fatal(err)
	}
	agent := strings.Replace(string(themeBytes(t, dir)), `"tide": "#ff8800"`, `"tide": "#00ff00"`, 1)
	if err := os.WriteFile(filepath.Join(dir, theme.FileName), []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := enforceLocks(t, a, ws); !strings.Contains(msg, "palette.tide") {
		t.Errorf("restore message %q", msg)
	}
	if th = readTheme(t, dir); th.Palette["tide"].Hex() != "#ff8800" || th.UI.Accent.Hex() != "#ff8800" || th.Follows("ui.accent") != "tide" {
		t.Errorf("after the lock check: tide %s accent %s", th.Palette["tide"], th.UI.Accent)
	}
	// A ramp: a role follows a step, which moves with the entry; made a
	// single colour again, the role keeps its colour, detached.
	if _, err := a.Editor.SetPaletteRamp(PaletteRampRequest{WorkspaceID: ws, Name: "tide", Ramp: &theme.Ramp{}}); err != nil {
		t.Fatal(err)
	}
	st, err = a.Editor.AttachRole(ws, "ui.selection", "tide.800")
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(st.Roles, func(r EditorRole) bool { return r.Path == "palette.tide" }); len(st.Roles[i].Steps) != 11 ||
		!slices.ContainsFunc(st.Roles[i].Steps, func(s theme.PaletteSwatch) bool {
			return s.Ref == "tide.800" && slices.Contains(s.Users, "ui.selection")
		}) {
		t.Errorf("the ramp's steps in the editor: %+v", st.Roles[i].Steps)
	}
	step800 := readTheme(t, dir).UI.Selection
	if _, err := a.Editor.SetPaletteEntry(PaletteEntryRequest{WorkspaceID: ws, Name: "tide", Hex: "#3366cc"}); err != nil {
		t.Fatal(err)
	}
	th = readTheme(t, dir)
	if th.UI.Selection == step800 || th.Follows("ui.selection") != "tide.800" || th.UI.Accent.Hex() != "#3366cc" {
		t.Errorf("after the ramp's base changed: selection %s (was %s) follows %q, accent %s", th.UI.Selection, step800, th.Follows("ui.selection"), th.UI.Accent)
	}
	if _, err := a.Editor.SetPaletteRamp(PaletteRampRequest{WorkspaceID: ws, Name: "tide"}); err != nil {
		t.Fatal(err)
	}
	if again := readTheme(t, dir); again.UI.Selection != th.UI.Selection || again.Follows("ui.selection") != "" || again.Follows("ui.accent") != "tide" {
		t.Errorf("a single colour again: selection %s follows %q", again.UI.Selection, again.Follows("ui.selection"))
	}
	if _, err := a.Editor.UndoEdit(ws); err != nil || readTheme(t, dir).Follows("ui.selection") != "tide.800" {
		t.Errorf("undo of the ramp's removal: %v", err)
	}
}

func themeBytes(t *testing.T, dir string) []byte {
	return mustRead(t, filepath.Join(dir, theme.FileName))
}
