package apply

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cdxtheme/core/theme"
)

// What a killed Apply leaves is gone at the next start; the record, the
// theme file and another program's temporary beside it stay, and Undo
// still works.
func TestSweepCleansAKilledApply(t *testing.T) {
	p := tempPaths(t, "linux")
	plan := applyFor(t, theme.Example(), "tmux", "b1", p)
	file := plan.Files[0].Path
	dir := filepath.Dir(file)
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ours := filepath.Join(dir, "."+filepath.Base(file)+".tmp-3f2a9c01b7d4")
	theirs := filepath.Join(dir, ".other.conf.tmp-3f2a9c01b7d4")
	write(ours)
	write(theirs)
	recs := records(p.Store, "tmux")
	if len(recs) != 1 {
		t.Fatalf("records %v, want one", recs)
	}
	recTemp := filepath.Join(p.Store, "tmux", recs[0], ".record.json.tmp-12345")
	write(recTemp)
	// Killed after backing a file up, before saving its record.
	unsaved := filepath.Join(p.Store, "tmux", "20260101T000000.000000000-deadbeef")
	write(filepath.Join(unsaved, "0-harbour-night.conf"))

	if n := Sweep(p, 0); n != 3 {
		t.Errorf("Sweep removed %d entries, want 3", n)
	}
	for _, gone := range []string{ours, recTemp, unsaved} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	for _, kept := range []string{theirs, file} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s went: %v", kept, err)
		}
	}
	if !slices.Contains(CanUndo(p), "tmux") {
		t.Fatal("the apply's record went with the sweep")
	}
	if _, err := UndoApply(p, "tmux"); err != nil {
		t.Fatal(err)
	}
}
