package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/workspace"
)

// A deleted build stays reachable after the app restarts: DeletedBuilds
// lists it, RestoreBuild brings it back onto Home, PurgeBuild ends it.
func TestDeletedBuildsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(dir, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(dir, "cache"))
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	root := workspace.Root()
	build := func(title string) workspace.Meta {
		m, err := workspace.Create(root, title, "")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(m.Dir, "theme.json"), []byte(`{"name":"`+title+`"}`), 0o600)
		return m
	}
	harbour, dusk := build("Harbour"), build("Dusk")

	a := New(zerolog.Nop())
	if got := a.Builds.DeletedBuilds(); got == nil || len(got) != 0 {
		t.Fatalf("nothing deleted yet: %#v (want an empty list, never null)", got)
	}
	if err := a.Builds.DeleteBuild(harbour.ID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // distinct deletion times
	if err := a.Builds.DeleteBuild(dusk.ID); err != nil {
		t.Fatal(err)
	}
	a.Shutdown(nil)

	b := New(zerolog.Nop()) // a restart
	t.Cleanup(func() { b.Shutdown(nil) })
	if len(b.Builds.Builds()) != 0 {
		t.Fatal("deleted builds are on Home")
	}
	got := b.Builds.DeletedBuilds()
	if len(got) != 2 || got[0].ID != dusk.ID || got[1].ID != harbour.ID {
		t.Fatalf("deleted builds, newest first: %+v", got)
	}
	h := got[1]
	if h.Title != "Harbour" || h.Dir != harbour.Dir || time.Since(h.Deleted) > time.Minute || !h.Expires.Equal(h.Deleted.Add(trashFor)) {
		t.Errorf("entry %+v", h)
	}

	if err := b.Builds.RestoreBuild(harbour.ID); err != nil {
		t.Fatal(err)
	}
	if cards := b.Builds.Builds(); len(cards) != 1 || cards[0].ID != harbour.ID || cards[0].Title != "Harbour" {
		t.Errorf("restored build not on Home: %+v", cards)
	}
	if got := b.Builds.DeletedBuilds(); len(got) != 1 || got[0].ID != dusk.ID {
		t.Errorf("after restore: %+v", got)
	}

	// The folder taken again: a clear error, nothing overwritten.
	os.MkdirAll(dusk.Dir, 0o700)
	os.WriteFile(filepath.Join(dusk.Dir, "keep"), []byte("mine"), 0o600)
	if err := b.Builds.RestoreBuild(dusk.ID); err == nil || !strings.Contains(err.Error(), "restore build") || !strings.Contains(err.Error(), "exists") {
		t.Errorf("restore over a taken folder: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dusk.Dir, "keep")); string(data) != "mine" {
		t.Error("the folder in the way was overwritten")
	}
	os.RemoveAll(dusk.Dir)

	if err := b.Builds.PurgeBuild(dusk.ID); err != nil {
		t.Fatal(err)
	}
	if got := b.Builds.DeletedBuilds(); len(got) != 0 {
		t.Errorf("after delete forever: %+v", got)
	}
	if b.Builds.RestoreBuild(dusk.ID) == nil {
		t.Error("a build deleted forever came back")
	}
	if err := b.Builds.PurgeBuild(harbour.ID); err == nil {
		t.Error("delete forever took a build that is not in the trash")
	}
	if _, err := os.Stat(harbour.Dir); err != nil {
		t.Errorf("the live build is gone: %v", err)
	}
}
