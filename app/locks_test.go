package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/editing"
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

// The agent writes theme.json twice a moment apart: the restore of the
// locks computed from its first write must not overwrite its second. The
// second write lands between the restore's read and its write (the
// editor's hook, where the watcher's restore lost it); the locks are put
// back into the second write and its other colours stay. An agent that
// never stops writing is not chased for ever: its last write is kept and
// the designer told.
func TestLockRestoreKeepsTheAgentsLaterWrite(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	const locked = "#123456"
	writeColours(t, ws.Dir, locked, "#808080")
	if _, err := a.Editor.SetLock(ws.ID, "syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	writeColours(t, ws.Dir, "#ff9e64", "#808080") // the agent's first write
	landed := 0
	a.Editor.edits.BeforeWrite = func(string) {
		if landed++; landed == 1 {
			writeColours(t, ws.Dir, "#f7768e", "#909090") // its second
		}
	}
	if !a.Editor.lockedChanged(ws.ID) {
		t.Fatal("the locked keyword was not put back")
	}
	th := readTheme(t, ws.Dir)
	if got := th.Syntax.Comment.Hex(); got != "#909090" {
		t.Errorf("the comment is %s: the agent's second write (#909090) was overwritten", got)
	}
	if got := th.Syntax.Keyword.Hex(); got != locked {
		t.Errorf("the locked keyword is %s, want %s", got, locked)
	}
	if landed != 2 {
		t.Errorf("theme.json written %d times, want the refused write and the one over the second write", landed)
	}

	writeColours(t, ws.Dir, "#ff9e64", "#a0a0a0")
	landed = 0
	a.Editor.edits.BeforeWrite = func(string) {
		landed++
		writeColours(t, ws.Dir, "#ff9e64", fmt.Sprintf("#b0b0%02x", landed))
	}
	a.Editor.lockedChanged(ws.ID)
	if landed != editing.Rewrites {
		t.Errorf("tried %d times against an agent that never stops, want %d", landed, editing.Rewrites)
	}
	if got := readTheme(t, ws.Dir).Syntax.Comment.Hex(); got != fmt.Sprintf("#b0b0%02x", editing.Rewrites) {
		t.Errorf("the comment is %s: the agent's last write was overwritten", got)
	}
	rec.mu.Lock()
	notice := rec.editor[len(rec.editor)-1].Notice
	rec.mu.Unlock()
	if !strings.Contains(notice, "could not be restored") || !strings.Contains(notice, "kept changing") {
		t.Errorf("the designer was told %q, want that the locks could not be restored", notice)
	}
}

// A hand edit made while something else writes theme.json is made over
// that write, never over the file it first read: both changes are kept,
// and its undo step goes back to that write.
func TestHandEditKeepsAWriteMadeMeanwhile(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	writeColours(t, ws.Dir, "#ff9e64", "#808080")
	landed := 0
	a.Editor.edits.BeforeWrite = func(string) {
		if landed++; landed == 1 {
			writeColours(t, ws.Dir, "#ff9e64", "#909090")
		}
	}
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws.ID, Path: "syntax.keyword", Hex: "#123456"}); err != nil {
		t.Fatal(err)
	}
	th := readTheme(t, ws.Dir)
	if th.Syntax.Keyword.Hex() != "#123456" || th.Syntax.Comment.Hex() != "#909090" {
		t.Errorf("keyword %s comment %s, want the edit's #123456 and the other write's #909090", th.Syntax.Keyword.Hex(), th.Syntax.Comment.Hex())
	}
	a.Editor.edits.BeforeWrite = nil
	if _, err := a.Editor.UndoEdit(ws.ID); err != nil {
		t.Fatal(err)
	}
	th = readTheme(t, ws.Dir)
	if th.Syntax.Keyword.Hex() != "#ff9e64" || th.Syntax.Comment.Hex() != "#909090" {
		t.Errorf("after undo keyword %s comment %s, want the other write's #ff9e64 and #909090", th.Syntax.Keyword.Hex(), th.Syntax.Comment.Hex())
	}
}
