package search

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"cdxtheme/core/codexhome"
)

// These tests make the index's own SQLite file fail the way a damaged or
// full disk would, through a second connection to it (as another process
// sharing the cache dir would have): a table one of whose rows cannot be
// read, a trigger that refuses an UPDATE. The index under test is the real
// one throughout.

// rawDB opens the index file beside ix, as a second process would.
func rawDB(t *testing.T, ix *Index) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+ix.File()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// A files table that fails part-way through being read (its second row
// cannot be decoded) fails the search with an error, which Find turns into
// a warning: the sessions whose text matched are not silently left out as
// if nothing had matched.
func TestSearchFailsWhenTheFilesTableCannotBeReadToTheEnd(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fb01", "2026-12-02T10:00:00Z", "first question", "a teal harbour")
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fb02", "2026-12-03T10:00:00Z", "second question", "a teal harbour again")
	ix := openIndex(t, h)
	ctx := context.Background()
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 2 {
		t.Fatalf("update: %+v %v", st, err)
	}
	execAll(t, rawDB(t, ix),
		"ALTER TABLE files RENAME TO files_ok",
		// Every row after the first fails to read: json() of text that is
		// not JSON raises an error as SQLite steps to that row.
		`CREATE VIEW files AS SELECT path, size, mtime,
			CASE WHEN rowid = (SELECT min(rowid) FROM files_ok) THEN session ELSE json('{') END AS session,
			base, count FROM files_ok`)
	if hits, err := ix.Search(ctx, ParseQuery("teal")); err == nil {
		t.Fatalf("search over an unreadable files table: %d hits and no error", len(hits))
	}
	res, err := Find(ctx, codexhome.NewLister(h), ix, "teal", codexhome.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 {
		t.Fatalf("Find lists %d sessions and no warning; want a warning that the text was not searched", len(res.Sessions))
	}
}

// An update whose commit fails (the index cannot record its next file
// number) reports the failure and keeps nothing of what it wrote; once the
// cause is gone, the next update indexes every session, each found under
// its own id.
func TestUpdateWhoseCommitFailsKeepsNothingAndTheNextOneWorks(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fc01", "2026-12-02T10:00:00Z", "first question", "a teal harbour")
	ix := openIndex(t, h)
	ctx := context.Background()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fc02", "2026-12-03T10:00:00Z", "second question", "a coral reef")
	raw := rawDB(t, ix)
	execAll(t, raw, `CREATE TRIGGER refuse_next BEFORE UPDATE ON meta WHEN NEW.key = 'next'
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
	if _, err := ix.Update(ctx, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("update whose commit is refused: err = %v, want the refusal", err)
	}
	if hits, err := ix.Search(ctx, ParseQuery("coral")); err != nil || len(hits) != 0 {
		t.Fatalf("after the failed update, coral finds %v (%v); want nothing kept", hits, err)
	}
	execAll(t, raw, "DROP TRIGGER refuse_next")
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 1 {
		t.Fatalf("the next update: %+v %v", st, err)
	}
	for word, id := range map[string]string{"teal": "01a20000-0000-7000-8000-00000000fc01", "coral": "01a20000-0000-7000-8000-00000000fc02"} {
		hits, err := ix.Search(ctx, ParseQuery(word))
		if err != nil || len(hits) != 1 {
			t.Fatalf("%s: %v %v", word, hits, err)
		}
		for _, hit := range hits {
			if hit.Session != id {
				t.Errorf("%s found in %s, want %s", word, hit.Session, id)
			}
		}
	}
}

// A first build that fails at its very end (recording that it finished is
// refused) reports the failure and releases the index: the next update,
// once the cause is gone, takes the write lock and finishes the build.
func TestFirstBuildFailingAtTheEndLeavesTheIndexUsable(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fd01", "2026-12-02T10:00:00Z", "first question", "a teal harbour")
	ix := openIndex(t, h)
	ctx := context.Background()
	raw := rawDB(t, ix)
	execAll(t, raw, `CREATE TRIGGER refuse_built BEFORE UPDATE ON meta WHEN NEW.key = 'built'
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
	if _, err := ix.Update(ctx, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("first build whose end is refused: err = %v, want the refusal", err)
	}
	if ix.Built(ctx) {
		t.Fatal("a failed first build says it is built")
	}
	execAll(t, raw, "DROP TRIGGER refuse_built")
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 1 {
		t.Fatalf("the next update: %+v %v", st, err)
	}
	if !ix.Built(ctx) {
		t.Fatal("the index is not built after the next update")
	}
	if hits, err := ix.Search(ctx, ParseQuery("teal")); err != nil || len(hits) != 1 {
		t.Fatalf("teal after the rebuild: %v %v", hits, err)
	}
}
