package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fifo"
)

func TestTrashAndRestore(t *testing.T) {
	root := t.TempDir()
	m, err := Create(root, "Harbour", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "theme.json"), []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Trash(root, m.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(root); len(list) != 0 {
		t.Fatalf("a trashed workspace is still listed: %+v", list)
	}
	if _, err := os.Stat(filepath.Join(root, TrashDir, m.ID, "theme.json")); err != nil {
		t.Fatalf("not in the trash: %v", err)
	}
	if err := Restore(root, m.ID); err != nil {
		t.Fatal(err)
	}
	list, _ := List(root)
	if len(list) != 1 || list[0].ID != m.ID || list[0].Title != "Harbour" {
		t.Fatalf("after undo: %+v", list)
	}
	if b, err := os.ReadFile(filepath.Join(m.Dir, "theme.json")); err != nil || string(b) != `{"name":"x"}` {
		t.Errorf("theme lost: %q %v", b, err)
	}
	for _, bad := range []string{"../x", m.ID} {
		if Restore(root, bad) == nil {
			t.Errorf("restore %q accepted", bad)
		}
	}
	// Trash older than the limit is emptied, newer is kept.
	if err := Trash(root, m.ID); err != nil {
		t.Fatal(err)
	}
	if err := PruneTrash(root, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, TrashDir, m.ID)); err != nil {
		t.Error("fresh trash emptied")
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(root, TrashDir, m.ID), old, old)
	if err := PruneTrash(root, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, TrashDir, m.ID)); err == nil {
		t.Error("old trash kept")
	}
}

func TestDuplicate(t *testing.T) {
	root := t.TempDir()
	m, err := Create(root, "Harbour", "gpt-5.5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddSession(root, m.ID, "sess-1"); err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(m.Dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("theme.json", `{"name":"Harbour"}`)
	write("export/zed/harbour.json", "{}")
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("outside"), 0o600)
	os.Symlink(secret, filepath.Join(m.Dir, "link.json"))
	fifo.Make(filepath.Join(m.Dir, "fifo"))

	dup, err := Duplicate(root, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dup.ID == m.ID || dup.Title != "Harbour (copy)" || len(dup.SessionIDs) != 0 || dup.Model != "gpt-5.5" {
		t.Errorf("duplicate = %+v", dup)
	}
	if b, _ := os.ReadFile(filepath.Join(dup.Dir, "theme.json")); string(b) != `{"name":"Harbour"}` {
		t.Errorf("theme.json not copied: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dup.Dir, "export/zed/harbour.json")); err != nil {
		t.Error("nested file not copied")
	}
	for _, n := range []string{"link.json", "fifo"} {
		if _, err := os.Lstat(filepath.Join(dup.Dir, n)); err == nil {
			t.Errorf("%s copied: symlinks and FIFOs must be left behind", n)
		}
	}
	if !dup.Started() {
		t.Error("a duplicate with a theme is a build Home shows")
	}
	dup2, err := Duplicate(root, dup.ID)
	if err != nil || dup2.Title != "Harbour (copy 2)" {
		t.Errorf("second duplicate: %q %v", dup2.Title, err)
	}
}

func TestStartedAndUnused(t *testing.T) {
	root := t.TempDir()
	m, _ := Create(root, "never sent", "")
	if m.Started() || !m.Unused() {
		t.Errorf("fresh workspace: started %v unused %v", m.Started(), m.Unused())
	}
	m2, _ := AddSession(root, m.ID, "s1")
	if !m2.Started() || m2.Unused() {
		t.Errorf("with a session: started %v unused %v", m2.Started(), m2.Unused())
	}
	m3, _ := Create(root, "agent wrote a file", "")
	os.WriteFile(filepath.Join(m3.Dir, "notes.txt"), []byte("x"), 0o644)
	if m3.Unused() || Remove(root, m3.ID) == nil {
		t.Error("a workspace with files must not be removed outright")
	}
	if err := Remove(root, m.ID); err == nil {
		t.Error("a workspace with a session must not be removed")
	}
	m4, _ := Create(root, "x", "")
	if err := Remove(root, m4.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m4.Dir); err == nil {
		t.Error("unused workspace not removed")
	}
}

// trashBuild makes a build with a theme and deletes it, its deletion time
// set to at (Trash stamps now; tests need an order).
func trashBuild(t *testing.T, root, title string, at time.Time) Meta {
	t.Helper()
	m, err := Create(root, title, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "theme.json"), []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Trash(root, m.ID); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(root, TrashDir, m.ID), at, at); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTrashedListsNewestDeletionFirst(t *testing.T) {
	root := t.TempDir()
	if list, problems := Trashed(root); len(list) != 0 || len(problems) != 0 {
		t.Fatalf("no trash yet: %+v %v", list, problems)
	}
	now := time.Now().Truncate(time.Second)
	older := trashBuild(t, root, "Harbour", now.Add(-3*time.Hour))
	newer := trashBuild(t, root, "Dusk", now.Add(-time.Hour))
	kept, _ := Create(root, "Still here", "")

	list, problems := Trashed(root)
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(list) != 2 || list[0].ID != newer.ID || list[1].ID != older.ID {
		t.Fatalf("want the newer deletion first, then the older: %+v", list)
	}
	abs, _ := filepath.Abs(root)
	got := list[1]
	if got.Title != "Harbour" || !got.Deleted.Equal(now.Add(-3*time.Hour)) || !got.Created.Equal(older.Created) || got.Dir != filepath.Join(abs, older.ID) {
		t.Errorf("entry = %+v", got)
	}
	for _, e := range list {
		if e.ID == kept.ID {
			t.Error("a build that was not deleted is listed as trashed")
		}
	}

	// Restoring takes it out of the list and puts it back where it was.
	if err := Restore(root, older.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := Trashed(root); len(list) != 1 || list[0].ID != newer.ID {
		t.Errorf("after restore: %+v", list)
	}
	if m, err := Open(root, older.ID); err != nil || m.Title != "Harbour" || m.Dir != got.Dir {
		t.Errorf("restored: %+v %v", m, err)
	}
}

// A restore never overwrites: when the build's folder is taken again (a
// copy put back by hand), Restore says so and both stay as they were.
func TestRestoreNeverOverwrites(t *testing.T) {
	root := t.TempDir()
	m := trashBuild(t, root, "Harbour", time.Now())
	if err := os.MkdirAll(m.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "theme.json"), []byte(`{"name":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Restore(root, m.ID)
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("restore over a taken folder: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(m.Dir, "theme.json")); string(b) != `{"name":"other"}` {
		t.Errorf("the folder in the way was overwritten: %q", b)
	}
	if list, _ := Trashed(root); len(list) != 1 || list[0].ID != m.ID {
		t.Errorf("the trashed build must stay in the trash: %+v", list)
	}
}

// Damaged entries are skipped and reported, and the listing leaves them
// exactly as they were: nothing deleted, nothing set aside or rewritten.
func TestTrashedSkipsDamagedEntries(t *testing.T) {
	root := t.TempDir()
	good := trashBuild(t, root, "Harbour", time.Now())
	trash := filepath.Join(root, TrashDir)
	corrupt := trashBuild(t, root, "Corrupt", time.Now())
	corruptMeta := filepath.Join(trash, corrupt.ID, MetaFile)
	os.WriteFile(corruptMeta, []byte("{not json"), 0o600)
	noMeta := trashBuild(t, root, "No meta", time.Now())
	os.Remove(filepath.Join(trash, noMeta.ID, MetaFile))
	linked := trashBuild(t, root, "Linked", time.Now())
	secret := filepath.Join(t.TempDir(), "meta.json")
	os.WriteFile(secret, []byte(`{"id":"`+linked.ID+`","title":"outside"}`), 0o600)
	os.Remove(filepath.Join(trash, linked.ID, MetaFile))
	os.Symlink(secret, filepath.Join(trash, linked.ID, MetaFile))
	wrongID := trashBuild(t, root, "Wrong id", time.Now())
	os.WriteFile(filepath.Join(trash, wrongID.ID, MetaFile), []byte(`{"id":"20200101-000000-abcdef"}`), 0o600)
	file := "20260101-000000-aaaaaa"
	os.WriteFile(filepath.Join(trash, file), []byte("not a folder"), 0o600)
	unreadable := trashBuild(t, root, "Unreadable", time.Now())
	unreadableDir := filepath.Join(trash, unreadable.ID)
	os.Chmod(unreadableDir, 0o000)
	t.Cleanup(func() { os.Chmod(unreadableDir, 0o700) })
	piped := trashBuild(t, root, "Piped", time.Now()) // a FIFO would hang a plain read
	os.Remove(filepath.Join(trash, piped.ID, MetaFile))
	fifo.Make(filepath.Join(trash, piped.ID, MetaFile))
	huge := trashBuild(t, root, "Huge", time.Now())
	os.WriteFile(filepath.Join(trash, huge.ID, MetaFile), []byte(`{"id":"`+huge.ID+`","title":"`+strings.Repeat("x", maxMeta)+`"}`), 0o600)
	os.WriteFile(filepath.Join(trash, "notes.txt"), []byte("not Trash's"), 0o600)

	list, problems := Trashed(root)
	want := []string{good.ID}
	bad := []string{corrupt.ID, noMeta.ID, linked.ID, wrongID.ID, file, piped.ID, huge.ID}
	// Root reads a 000 folder anyway; on Windows chmod sets only the
	// read-only attribute, so the folder stays readable there too.
	if os.Getuid() != 0 && runtime.GOOS != "windows" {
		bad = append(bad, unreadable.ID)
	} else {
		want = append(want, unreadable.ID)
	}
	var ids []string
	for _, e := range list {
		ids = append(ids, e.ID)
	}
	sort.Strings(ids)
	sort.Strings(want)
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("want only the sound entries %v: %+v", want, list)
	}
	if len(problems) != len(bad) {
		t.Errorf("want %d problems, got %d: %v", len(bad), len(problems), problems)
	}
	all := fmt.Sprint(problems)
	for _, id := range bad {
		if !strings.Contains(all, id) {
			t.Errorf("%s not reported: %v", id, problems)
		}
	}
	if strings.Contains(all, "notes.txt") {
		t.Errorf("a name Trash never makes is reported: %v", problems)
	}
	os.Chmod(unreadableDir, 0o700)
	for _, id := range append(bad, unreadable.ID, "notes.txt") {
		if _, err := os.Lstat(filepath.Join(trash, id)); err != nil {
			t.Errorf("%s is gone from the trash: %v", id, err)
		}
	}
	if b, _ := os.ReadFile(corruptMeta); string(b) != "{not json" {
		t.Errorf("the damaged metadata was rewritten: %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Join(trash, corrupt.ID)); len(entries) != 3 {
		t.Errorf("something was set aside or added: %v", entries)
	}
	if fi, err := os.Lstat(filepath.Join(trash, linked.ID, MetaFile)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	// A damaged entry can still be restored: Open repairs it then.
	if err := Restore(root, corrupt.ID); err != nil {
		t.Fatal(err)
	}
	if m, err := Open(root, corrupt.ID); err != nil || m.ID != corrupt.ID {
		t.Errorf("restored damaged entry: %+v %v", m, err)
	}
}

func TestPurge(t *testing.T) {
	root := t.TempDir()
	m := trashBuild(t, root, "Harbour", time.Now())
	keep := trashBuild(t, root, "Dusk", time.Now())
	live, _ := Create(root, "Live", "")
	for _, bad := range []string{"../x", "", live.ID, TrashDir} {
		if Purge(root, bad) == nil {
			t.Errorf("purge %q accepted", bad)
		}
	}
	if _, err := os.Stat(live.Dir); err != nil {
		t.Fatal("purge removed a build that is not in the trash")
	}
	if err := Purge(root, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, TrashDir, m.ID)); err == nil {
		t.Error("still in the trash")
	}
	if Restore(root, m.ID) == nil {
		t.Error("a purged build came back")
	}
	if list, _ := Trashed(root); len(list) != 1 || list[0].ID != keep.ID {
		t.Errorf("after purge: %+v", list)
	}
}
