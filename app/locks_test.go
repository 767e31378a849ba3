package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// A locked colour rewritten outside any turn (a process the agent left
// running, another program) is put back as soon as the watcher sees it: the
// preview never shows the new value as "Locked", the designer is told, the
// app's own restore is not restored again, and an export made before the
// watcher has even looked carries the locked colour.
func TestLocksHoldAgainstWritesOutsideATurn(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(ws.Dir, theme.FileName)
	root, err := os.OpenRoot(ws.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	write := func(keyword, comment string) {
		t.Helper()
		th := theme.Example()
		k, _ := theme.ParseColor(keyword)
		c, _ := theme.ParseColor(comment)
		th.Set("syntax.keyword", k)
		th.Set("syntax.comment", c)
		b, _ := json.Marshal(th)
		// Replaced as agents and editors do, by renaming a file over it:
		// through an os.Root, whose rename on Windows has POSIX semantics
		// (as Rust's std::fs::rename), so it replaces the file even while
		// the app's watcher reads it. os.Rename's MoveFileEx could not,
		// whatever the reader shares (core/fsread's open_windows.go).
		if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := root.Rename(theme.FileName+".tmp", theme.FileName); err != nil {
			t.Fatal(err)
		}
	}
	const locked, moved = "#123456", "#ff9e64"
	write(locked, "#808080")
	if _, err := a.Editor.SetLock(ws.ID, "syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Themes.Theme(ws.ID); err != nil { // the watcher starts
		t.Fatal(err)
	}
	write(moved, "#808080")
	rec.waitFor(t, "the editor's notice", func() bool { return len(rec.editor) > 0 })
	rec.mu.Lock()
	notice := rec.editor[0].Notice
	rec.mu.Unlock()
	if !strings.Contains(notice, "syntax.keyword") || !strings.Contains(notice, moved) || !strings.Contains(notice, locked) {
		t.Errorf("the notice %q does not say which locked colour was put back", notice)
	}
	if got := readTheme(t, ws.Dir).Syntax.Keyword.Hex(); got != locked {
		t.Errorf("theme.json's locked keyword is %s, want %s restored", got, locked)
	}
	// A later change of an unlocked colour is the witness that the watcher
	// has read the app's own restore by now (events come in order).
	write(locked, "#909090")
	rec.waitFor(t, "the comment's theme event", func() bool {
		for _, ev := range rec.themes {
			if ev.Theme != nil && ev.Theme.Syntax.Comment.Hex() == "#909090" {
				return true
			}
		}
		return false
	})
	rec.mu.Lock()
	for _, ev := range rec.themes {
		if ev.Theme != nil && ev.Theme.Syntax.Keyword.Hex() == moved {
			t.Errorf("the preview was sent the rewritten locked colour %s", moved)
		}
	}
	if n := len(rec.editor); n != 1 {
		t.Errorf("%d lock notices for one outside write, want 1 (the restore must not restore itself)", n)
	}
	rec.mu.Unlock()

	// A build without locks: its theme changes write no hand-edit record.
	other, err := workspace.Create(workspace.Root(), "other", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Themes.Theme(other.ID); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(theme.Example())
	os.WriteFile(filepath.Join(other.Dir, theme.FileName), b, 0o644)
	rec.waitFor(t, "the other build's theme event", func() bool {
		for _, ev := range rec.themes {
			if ev.WorkspaceID == other.ID && ev.Theme != nil {
				return true
			}
		}
		return false
	})
	if _, err := os.Stat(handedit.RecordPath(other.ID)); err == nil {
		t.Error("a theme change of a build without locks wrote a hand-edit record")
	}

	// Written and exported at once, before the watcher's debounce is over.
	write(moved, "#909090")
	dir, err := a.Themes.ExportTheme(ws.ID, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "colors", "*.lua"))
	if len(entries) != 1 {
		t.Fatalf("export wrote %v", entries)
	}
	lua, _ := os.ReadFile(entries[0])
	if strings.Contains(strings.ToLower(string(lua)), moved) || !strings.Contains(strings.ToLower(string(lua)), locked) {
		t.Errorf("the export carries the unlocked keyword %s (or lacks the locked %s)", moved, locked)
	}
}

// writeColours replaces theme.json as an agent does (a file renamed over
// it), with the example theme's keyword and comment set.
func writeColours(t *testing.T, dir, keyword, comment string) {
	t.Helper()
	th := theme.Example()
	k, _ := theme.ParseColor(keyword)
	c, _ := theme.ParseColor(comment)
	th.Set("syntax.keyword", k)
	th.Set("syntax.comment", c)
	b, _ := json.Marshal(th)
	path := filepath.Join(dir, theme.FileName)
	if err := os.WriteFile(path+".agent", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".agent", path); err != nil {
		t.Fatal(err)
	}
}
