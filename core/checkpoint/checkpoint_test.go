package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fifo"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func objects(t *testing.T, dir string) int {
	t.Helper()
	e, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(Dir), "objects"))
	return len(e)
}

func TestTakeAndRestore(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "theme.json", `{"v":1}`)
	write(t, ws, "AGENTS.md", "rules")
	write(t, ws, ".cdxtheme.json", `{"title":"one"}`)
	write(t, ws, "export/kitty/a.conf", "kitty 1")
	before, err := Take(ws, Info{TurnID: "t-1", Label: "make it blue"})
	if err != nil {
		t.Fatal(err)
	}
	if before.Kind != KindTurn || len(before.Files) != 3 {
		t.Fatalf("checkpoint = %+v, want 3 files (metadata excluded)", before)
	}
	// The agent's turn: theme.json changes, a file appears, one goes.
	write(t, ws, "theme.json", `{"v":2}`)
	write(t, ws, "notes/draft.md", "new")
	os.Remove(filepath.Join(ws, "export", "kitty", "a.conf"))
	write(t, ws, ".cdxtheme.json", `{"title":"renamed meanwhile"}`)
	after, err := Take(ws, Info{TurnID: "t-2", Label: "next"})
	if err != nil {
		t.Fatal(err)
	}
	// Unchanged AGENTS.md is stored once: objects = v1, v2, rules, kitty, draft.
	if n := objects(t, ws); n != 5 {
		t.Errorf("%d objects, want 5 (unchanged files shared)", n)
	}
	undo, err := Restore(ws, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "theme.json"); got != `{"v":1}` {
		t.Errorf("theme.json = %s after restore", got)
	}
	if got := read(t, ws, "export/kitty/a.conf"); got != "kitty 1" {
		t.Errorf("a.conf = %s, want it back", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "notes")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("notes/ (added after the checkpoint) is still there: %v", err)
	}
	if got := read(t, ws, ".cdxtheme.json"); got != `{"title":"renamed meanwhile"}` {
		t.Errorf("the workspace metadata was restored too: %s", got)
	}
	if undo.Kind != KindRestore || undo.RestoredTo != before.ID || undo.Label != "make it blue" {
		t.Errorf("undo checkpoint = %+v", undo.Summary())
	}
	// The restore is itself undoable.
	if _, err := Restore(ws, undo.ID); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "theme.json"); got != `{"v":2}` {
		t.Errorf("theme.json = %s after undoing the restore", got)
	}
	if got := read(t, ws, "notes/draft.md"); got != "new" {
		t.Errorf("draft.md = %s after undo", got)
	}
	list, err := List(ws)
	if err != nil || len(list) != 4 {
		t.Fatalf("list = %+v (%v), want 4 checkpoints", list, err)
	}
	if list[0].ID != before.ID || list[1].ID != after.ID || list[0].TurnID != "t-1" {
		t.Errorf("list not oldest first: %+v", list)
	}
	b, err := ReadFile(ws, before.ID, "theme.json")
	if err != nil || string(b) != `{"v":1}` {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(ws, before.ID, "nope.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
}

// The agent controls the folder: symlinks, FIFOs, huge files and a
// tampered store must neither hang, nor leak outside, nor be followed.
func TestHostileWorkspace(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	write(t, outside, "secret", "keep me")

	t.Run("symlinks and FIFOs are skipped, never followed", func(t *testing.T) {
		ws := t.TempDir()
		write(t, ws, "theme.json", "v1")
		c, err := Take(ws, Info{})
		if err != nil {
			t.Fatal(err)
		}
		// The agent swaps theme.json for a symlink to a file outside, and
		// adds a FIFO and a symlinked folder.
		os.Remove(filepath.Join(ws, "theme.json"))
		symlink(t, secret, filepath.Join(ws, "theme.json"))
		symlink(t, outside, filepath.Join(ws, "export"))
		hasFIFO := true
		if err := fifo.Make(filepath.Join(ws, "pipe")); errors.Is(err, errors.ErrUnsupported) {
			hasFIFO = false
		} else if err != nil {
			t.Fatal(err)
		}
		done := make(chan Checkpoint, 1)
		go func() { c2, _ := Take(ws, Info{}); done <- c2 }()
		select {
		case c2 := <-done:
			reasons := map[string]string{}
			for _, s := range c2.Skipped {
				reasons[s.Path] = s.Reason
			}
			if reasons["theme.json"] != "symlink" || reasons["export"] != "symlink" || hasFIFO && !strings.Contains(reasons["pipe"], "not a regular file") {
				t.Errorf("skipped = %+v", c2.Skipped)
			}
			if len(c2.Files) != 0 {
				t.Errorf("files = %+v, want none", c2.Files)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a snapshot with a FIFO hung")
		}
		if _, err := Restore(ws, c.ID); err != nil {
			t.Fatal(err)
		}
		if got := read(t, outside, "secret"); got != "keep me" {
			t.Errorf("the file outside was written through the symlink: %q", got)
		}
		if st, err := os.Lstat(filepath.Join(ws, "theme.json")); err != nil || !st.Mode().IsRegular() || read(t, ws, "theme.json") != "v1" {
			t.Errorf("theme.json not restored as a regular file: %v %v", st, err)
		}
	})

	t.Run("a restore does not write through a symlinked folder", func(t *testing.T) {
		ws := t.TempDir()
		write(t, ws, "export/x.conf", "mine")
		c, err := Take(ws, Info{})
		if err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(ws, "export"))
		symlink(t, outside, filepath.Join(ws, "export"))
		_, err = Restore(ws, c.ID)
		if err == nil || !strings.Contains(err.Error(), "could not be restored") {
			t.Errorf("restore through a symlinked folder: %v", err)
		}
		if _, err := os.Stat(filepath.Join(outside, "x.conf")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("x.conf was written outside the workspace: %v", err)
		}
	})

	t.Run("a symlinked store is refused", func(t *testing.T) {
		ws := t.TempDir()
		write(t, ws, "theme.json", "v1")
		symlink(t, outside, filepath.Join(ws, ".cdxtheme"))
		if _, err := Take(ws, Info{}); err == nil {
			t.Error("Take used a store that is a symlink")
		}
		if e, _ := os.ReadDir(outside); len(e) != 1 {
			t.Errorf("something was written outside: %v", e)
		}
	})

	t.Run("huge files are skipped without being read", func(t *testing.T) {
		ws := t.TempDir()
		f, _ := os.Create(filepath.Join(ws, "huge.bin"))
		f.Truncate(MaxFileSize + 1) // sparse: no disk, but too big to snapshot
		f.Close()
		write(t, ws, "theme.json", "v1")
		c, err := Take(ws, Info{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Files) != 1 || len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0].Reason, "larger than") {
			t.Errorf("files %+v skipped %+v", c.Files, c.Skipped)
		}
		// A restore leaves what it never snapshotted alone.
		if _, err := Restore(ws, c.ID); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(filepath.Join(ws, "huge.bin")); err != nil || st.Size() != MaxFileSize+1 {
			t.Errorf("huge.bin after restore: %v %v", st, err)
		}
	})

	t.Run("a damaged object stops the restore before anything changes", func(t *testing.T) {
		ws := t.TempDir()
		write(t, ws, "theme.json", "v1")
		c, _ := Take(ws, Info{})
		write(t, ws, "theme.json", "v2")
		obj := filepath.Join(ws, filepath.FromSlash(Dir), "objects", c.Files[0].Hash)
		os.WriteFile(obj, []byte("tampered"), 0o644)
		if _, err := Restore(ws, c.ID); err == nil || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("restore from a damaged object: %v", err)
		}
		if got := read(t, ws, "theme.json"); got != "v2" {
			t.Errorf("theme.json = %q; a failed restore changed it", got)
		}
	})

	t.Run("a manifest naming paths outside is refused", func(t *testing.T) {
		ws := t.TempDir()
		write(t, ws, "theme.json", "v1")
		c, _ := Take(ws, Info{})
		mf := filepath.Join(ws, filepath.FromSlash(Dir), c.ID+".json")
		b, _ := os.ReadFile(mf)
		os.WriteFile(mf, []byte(strings.Replace(string(b), `"path": "theme.json"`, `"path": "../escape.json"`, 1)), 0o644)
		if _, err := Restore(ws, c.ID); err == nil || !strings.Contains(err.Error(), "damaged manifest") {
			t.Errorf("restore with ../ in a manifest: %v", err)
		}
		if _, err := Restore(ws, "../../etc"); err == nil {
			t.Error("an id that is a path was accepted")
		}
	})
}

func TestPruneKeepsTheNewest(t *testing.T) {
	ws := t.TempDir()
	var first Checkpoint
	for i := 0; i < Keep+pruneSlack+1; i++ {
		write(t, ws, "theme.json", strings.Repeat("x", i+1))
		c, err := Take(ws, Info{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = c
		}
	}
	list, _ := List(ws)
	if len(list) != Keep {
		t.Errorf("%d checkpoints kept, want %d", len(list), Keep)
	}
	if _, err := Get(ws, first.ID); err == nil {
		t.Error("the oldest checkpoint survived pruning")
	}
	if n := objects(t, ws); n != Keep {
		t.Errorf("%d objects, want %d (the pruned checkpoints' objects are dropped)", n, Keep)
	}
}

// BenchmarkTake: the snapshot on the turn-start path for a typical
// workspace (theme.json, AGENTS.md and every export, 19 files), unchanged
// since the last checkpoint, so every object is already stored.
func BenchmarkTake(b *testing.B) {
	ws := b.TempDir()
	os.WriteFile(filepath.Join(ws, "theme.json"), make([]byte, 2000), 0o644)
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), make([]byte, 6000), 0o644)
	for i := 0; i < 17; i++ {
		d := filepath.Join(ws, "export", fmt.Sprintf("f%d", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "theme"), []byte(strings.Repeat(fmt.Sprint(i), 3000)), 0o644)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Take(ws, Info{}); err != nil {
			b.Fatal(err)
		}
	}
}

// symlink makes a link, or skips where the system refuses to (Windows
// without Developer Mode or the privilege to create symlinks).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
}

// The walk skips links by their directory entry, but the agent can swap a
// file for a link between that listing and the open: the open itself must
// refuse a link at the name, for files and folders alike.
func TestOpenRefusesLinks(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "real/theme.json", "v1")
	// Relative targets: the root follows those, so only the no-follow open
	// stands between the link and its target.
	symlink(t, filepath.Join("real", "theme.json"), filepath.Join(ws, "file-link"))
	symlink(t, "real", filepath.Join(ws, "dir-link"))
	s, err := open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if b, _, err := s.readRegular("file-link", MaxFileSize); err == nil {
		t.Errorf("read through a symlinked file: %q", b)
	}
	if f, err := openDir(s.root, "dir-link"); err == nil {
		f.Close()
		t.Error("opened a symlinked folder")
	}
	if f, err := openDir(s.root, "real/theme.json"); err == nil {
		f.Close()
		t.Error("opened a file as a folder")
	}
	if b, _, err := s.readRegular("real/theme.json", MaxFileSize); err != nil || string(b) != "v1" {
		t.Errorf("the real file: %q, %v", b, err)
	}
	if f, err := openDir(s.root, "real"); err != nil {
		t.Errorf("the real folder: %v", err)
	} else {
		f.Close()
	}
}

// A crash between an atomic write and its rename leaves ".NAME.tmp-…";
// a checkpoint never takes it (Restore would bring it back for ever).
func TestTempFilesOfAtomicWritesAreNotSnapshotted(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "theme.json", `{"v":1}`)
	write(t, ws, ".theme.json.tmp-3f9a1c", `{"half`)
	write(t, ws, "export/.kitty.conf.tmp-77", "half")
	cp, err := Take(ws, Info{TurnID: "t-1", Label: "one"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cp.Files {
		if strings.Contains(f.Path, ".tmp-") {
			t.Errorf("the checkpoint holds the temporary file %s", f.Path)
		}
	}
	if len(cp.Files) != 1 {
		t.Errorf("checkpoint files %+v, want theme.json only", cp.Files)
	}
}
