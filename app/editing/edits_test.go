package editing

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"

	"github.com/rs/zerolog"
)

// newEdits is an editor over a fresh data folder; notices are what its
// Changed hook was told.
func newEdits(t *testing.T) (*Edits, *[]string) {
	t.Helper()
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	log := zerolog.Nop()
	var notices []string
	return &Edits{Log: &log, Changed: func(_, notice string) { notices = append(notices, notice) }}, &notices
}

// writeColours replaces theme.json as an agent does (a whole new file
// renamed over it) with the example theme's keyword and comment set.
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

func readTheme(t *testing.T, dir string) *theme.Theme {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, theme.FileName))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatalf("theme.json invalid after the edit: %v", err)
	}
	return th
}

// The agent writes theme.json twice a moment apart: the restore of the
// locks computed from its first write must not overwrite its second. The
// second write lands between the restore's read and its write (the
// editor's hook, where the watcher's restore lost it); the locks are put
// back into the second write and its other colours stay. An agent that
// never stops writing is not chased for ever: its last write is kept and
// the designer told.
func TestLockRestoreKeepsTheAgentsLaterWrite(t *testing.T) {
	e, notices := newEdits(t)
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	const locked = "#123456"
	writeColours(t, ws.Dir, locked, "#808080")
	_, th, _ := Read(ws)
	if _, err := e.WithRecord(ws.ID, func(l *handedit.Log) error { return l.Lock(th, "syntax.keyword", true) }); err != nil {
		t.Fatal(err)
	}
	writeColours(t, ws.Dir, "#ff9e64", "#808080") // the agent's first write
	landed := 0
	e.BeforeWrite = func(string) {
		if landed++; landed == 1 {
			writeColours(t, ws.Dir, "#f7768e", "#909090") // its second
		}
	}
	if !e.LockedChanged(ws) {
		t.Fatal("the locked keyword was not put back")
	}
	th = readTheme(t, ws.Dir)
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
	e.BeforeWrite = func(string) {
		landed++
		writeColours(t, ws.Dir, "#ff9e64", fmt.Sprintf("#b0b0%02x", landed))
	}
	e.LockedChanged(ws)
	if landed != Rewrites {
		t.Errorf("tried %d times against an agent that never stops, want %d", landed, Rewrites)
	}
	if got := readTheme(t, ws.Dir).Syntax.Comment.Hex(); got != fmt.Sprintf("#b0b0%02x", Rewrites) {
		t.Errorf("the comment is %s: the agent's last write was overwritten", got)
	}
	notice := (*notices)[len(*notices)-1]
	if !strings.Contains(notice, "could not be restored") || !strings.Contains(notice, "kept changing") {
		t.Errorf("the designer was told %q, want that the locks could not be restored", notice)
	}
}

// A hand edit made while something else writes theme.json is made over
// that write, never over the file it first read: both changes are kept,
// and its undo step goes back to that write.
func TestHandEditKeepsAWriteMadeMeanwhile(t *testing.T) {
	e, _ := newEdits(t)
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	writeColours(t, ws.Dir, "#ff9e64", "#808080")
	landed := 0
	e.BeforeWrite = func(string) {
		if landed++; landed == 1 {
			writeColours(t, ws.Dir, "#ff9e64", "#909090")
		}
	}
	c, _ := theme.ParseColor("#123456")
	if _, err := e.Edit(ws, SetColor("syntax.keyword", c)); err != nil {
		t.Fatal(err)
	}
	th := readTheme(t, ws.Dir)
	if th.Syntax.Keyword.Hex() != "#123456" || th.Syntax.Comment.Hex() != "#909090" {
		t.Errorf("keyword %s comment %s, want the edit's #123456 and the other write's #909090", th.Syntax.Keyword.Hex(), th.Syntax.Comment.Hex())
	}
	e.BeforeWrite = nil
	if _, err := e.Step(ws, true); err != nil {
		t.Fatal(err)
	}
	th = readTheme(t, ws.Dir)
	if th.Syntax.Keyword.Hex() != "#ff9e64" || th.Syntax.Comment.Hex() != "#909090" {
		t.Errorf("after undo keyword %s comment %s, want the other write's #ff9e64 and #909090", th.Syntax.Keyword.Hex(), th.Syntax.Comment.Hex())
	}
}
