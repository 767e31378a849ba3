package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"cdxtheme/internal/fifo"
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
