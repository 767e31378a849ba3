//go:build linux

package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/app/watchset"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// 150 builds opened in one run: the watchers (an inotify instance each)
// stay bounded, the build opened last still follows its theme.json, and a
// build whose watcher was let go follows again when opened again.
func TestOpeningManyBuildsKeepsWatchersBounded(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	fds := openFDs(t)
	var ids []string
	for i := 0; i < 150; i++ {
		ws, err := workspace.Create(workspace.Root(), "build", "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ws.ID)
		if _, err := a.Themes.Theme(ws.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(a.Themes.watching()); n > watchset.Max {
		t.Fatalf("%d watchers for 150 builds, want at most %d", n, watchset.Max)
	}
	if grown := openFDs(t) - fds; grown > 3*watchset.Max {
		t.Errorf("%d more open files after 150 builds", grown)
	}
	writeTheme := func(id string) {
		ws, err := workspace.Open(workspace.Root(), id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(theme.Example())
		if err := os.WriteFile(filepath.Join(ws.Dir, theme.FileName), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	follows := func(id string) {
		t.Helper()
		rec.waitFor(t, "a theme event of "+id, func() bool {
			for _, ev := range rec.themes {
				if ev.WorkspaceID == id && ev.Theme != nil {
					return true
				}
			}
			return false
		})
	}
	last := ids[len(ids)-1]
	writeTheme(last)
	follows(last)
	first := ids[0]
	if _, err := a.Themes.Theme(first); err != nil {
		t.Fatal(err)
	}
	writeTheme(first)
	follows(first)
}
