package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeThemeName(t *testing.T, m Meta, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(m.Dir, ThemeFile), []byte(`{"name": "`+name+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A build goes by its theme's name until the user names it; the user's
// name then holds whatever theme.json says, and an empty one gives the
// build back to its theme.
func TestBuildFollowsItsThemeUntilTheUserNamesIt(t *testing.T) {
	root := t.TempDir()
	m, err := Create(root, "a dark theme with teal accents", "")
	if err != nil {
		t.Fatal(err)
	}
	if !m.FollowsTheme {
		t.Fatal("a new build does not follow its theme's name")
	}
	got, changed, err := FollowTheme(root, m.ID, "  Harbour\nNight ")
	if err != nil || !changed || got.Title != "Harbour Night" {
		t.Fatalf("follow: %+v changed=%v %v", got, changed, err)
	}
	if again, _ := Open(root, m.ID); again.Title != "Harbour Night" {
		t.Errorf("the followed title was not saved: %q", again.Title)
	}
	if _, changed, _ := FollowTheme(root, m.ID, "Harbour Night"); changed {
		t.Error("the same name again counts as a change")
	}
	if _, changed, _ := FollowTheme(root, m.ID, " "); changed {
		t.Error("an empty theme name renamed the build")
	}
	// The auto title of a pre-warmed build does not stop the following.
	if m2, _ := SetTitle(root, m.ID, "another prompt"); !m2.FollowsTheme {
		t.Error("SetTitle (the app's title) stopped the build following its theme")
	}

	named, err := Rename(root, m.ID, "My harbour")
	if err != nil || named.Title != "My harbour" || named.FollowsTheme {
		t.Fatalf("rename: %+v %v", named, err)
	}
	if got, changed, _ := FollowTheme(root, m.ID, "Fake Dusk"); changed || got.Title != "My harbour" {
		t.Errorf("the agent's name replaced the user's: %q", got.Title)
	}

	writeThemeName(t, m, "Deep Sea")
	back, err := Rename(root, m.ID, "")
	if err != nil || back.Title != "Deep Sea" || !back.FollowsTheme {
		t.Fatalf("an empty name: %+v %v, want the theme's name and following again", back, err)
	}
	if _, err := Rename(root, "../x", "y"); err == nil {
		t.Error("Rename accepted a bad id")
	}
}

// Builds made before the flag keep their titles: they may be the user's.
func TestBuildsFromBeforeTheFlagKeepTheirTitles(t *testing.T) {
	root := t.TempDir()
	m, _ := Create(root, "My own name", "")
	b, _ := os.ReadFile(filepath.Join(m.Dir, MetaFile))
	old := strings.Replace(string(b), `"followsTheme": true`, "", 1)
	dir, _ := json.Marshal(m.Dir) // as the file has it: C:\\… on Windows
	old = strings.Replace(old, `"dir": `+string(dir)+`,`, `"dir": `+string(dir), 1)
	if err := os.WriteFile(filepath.Join(m.Dir, MetaFile), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Open(root, m.ID)
	if err != nil || got.FollowsTheme {
		t.Fatalf("legacy meta %s: %+v %v", old, got, err)
	}
	if got, changed, _ := FollowTheme(root, m.ID, "Harbour Night"); changed || got.Title != "My own name" {
		t.Errorf("a legacy build took the theme's name: %q", got.Title)
	}
}

// A duplicate is "X (copy)" and stays so: following its theme would give
// it the original's name again.
func TestDuplicateKeepsItsCopyTitle(t *testing.T) {
	root := t.TempDir()
	m, _ := Create(root, "Harbour", "")
	writeThemeName(t, m, "Harbour")
	dup, err := Duplicate(root, m.ID)
	if err != nil || dup.FollowsTheme {
		t.Fatalf("duplicate %+v %v", dup, err)
	}
	if got, changed, _ := FollowTheme(root, dup.ID, "Harbour"); changed || got.Title != "Harbour (copy)" {
		t.Errorf("the copy took the original's name: %q", got.Title)
	}
}

// Every session a build recorded goes by the build's name, over the
// user's own name for it; other sessions keep theirs.
func TestSessionTitlesAreTheBuildsName(t *testing.T) {
	root := t.TempDir()
	a, _ := Create(root, "Harbour", "")
	AddSession(root, a.ID, "s-1")
	AddSession(root, a.ID, "s-2")
	b, _ := Create(root, "Lighthouse", "")
	AddSession(root, b.ID, "s-3")
	mine := map[string]string{"s-1": "an old name", "s-9": "My chat"}
	got := SessionTitles(root, mine)
	want := map[string]string{"s-1": "Harbour", "s-2": "Harbour", "s-3": "Lighthouse", "s-9": "My chat"}
	for id, title := range want {
		if got[id] != title {
			t.Errorf("%s: %q, want %q", id, got[id], title)
		}
	}
	if mine["s-1"] != "an old name" || len(mine) != 2 {
		t.Errorf("the user's titles were changed: %v", mine)
	}
	if m, ok := BySession(root, "s-3"); !ok || m.ID != b.ID {
		t.Errorf("BySession(s-3) = %+v %v", m, ok)
	}
	if _, ok := BySession(root, "s-9"); ok {
		t.Error("a session of no build has a build")
	}
	if got := SessionTitles(filepath.Join(root, "none"), nil); len(got) != 0 {
		t.Errorf("no workspaces: %v", got)
	}
}
