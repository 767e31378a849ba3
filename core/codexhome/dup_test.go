package codexhome

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// One session id in two rollout files (a copy left in sessions/ after
// archiving): the library shows the newer one, whatever order the files
// are met in (the listing walks a map, so it is read many times).
func TestNewerRolloutOfOneIDWins(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	id := "01a20000-0000-7000-8000-0000000000dd"
	extraSession(t, filepath.Join(h.Dir, "archived_sessions", "rollout-2026-11-01T10-00-00-"+id+".jsonl"), id, "/srv/old", "2026-11-01T10:00:00Z", "the old copy")
	extraSession(t, filepath.Join(h.Dir, "sessions", "2026", "12", "03", "rollout-2026-12-03T08-00-00-"+id+".jsonl"), id, "/srv/new", "2026-12-03T08:00:00Z", "the new copy")
	for range 30 {
		got, err := h.Sessions(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Sessions) != 1 || got.Sessions[0].Title != "the new copy" || got.Sessions[0].Cwd != "/srv/new" || got.Sessions[0].Archived {
			t.Fatalf("sessions = %+v, want the newer copy alone", got.Sessions)
		}
	}
}

// Merge given one id twice on disk keeps the newer entry, in either order.
func TestMergeKeepsTheNewerOfOneIDOnDisk(t *testing.T) {
	older := Session{ID: "s", Cwd: "/srv/old", UpdatedAt: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)}
	newer := Session{ID: "s", Cwd: "/srv/new", UpdatedAt: time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)}
	for _, disk := range [][]Session{{older, newer}, {newer, older}} {
		if got := Merge(disk, nil); len(got) != 1 || got[0].Cwd != "/srv/new" {
			t.Fatalf("Merge(%v) = %+v, want the newer entry alone", disk, got)
		}
	}
}
