package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/codexhome"
)

// corpusID is session i of the generated corpus.
func corpusID(i int) string { return fmt.Sprintf("01a20000-0000-7000-8000-%012d", i) }

// writeCorpus writes n small rollouts: every one says "harbour", and has
// a word of its own ("marker<i>") in its user message.
func writeCorpus(t testing.TB, h codexhome.Home, n int) []string {
	t.Helper()
	paths := make([]string, n)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		ts := base.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		paths[i] = writeRollout(t, h, corpusID(i), ts,
			fmt.Sprintf("Make a harbour theme, marker%05d, with teal accents", i),
			"Here is a harbour night palette with deep blue and teal.")
	}
	return paths
}

func findIDs(t testing.TB, ix *Index, l *codexhome.Lister, q string, limit int) []string {
	t.Helper()
	res, err := Find(context.Background(), l, ix, q, codexhome.ListOptions{Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, r := range res.Sessions {
		ids = append(ids, r.ID)
	}
	return ids
}

// The corpus: 10,000 sessions. They are small so `make test` stays
// quick; the bench row builds the same over ~1 GB.
func TestCorpus10k(t *testing.T) {
	const n = 10000
	h := codexhome.Home{Dir: t.TempDir()}
	paths := writeCorpus(t, h, n)
	ix := openIndex(t, h)
	ctx := context.Background()
	l := codexhome.NewLister(h)

	var seen []Progress
	start := time.Now()
	st, err := ix.Update(ctx, func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	if st.Indexed != n || st.Messages != 2*n || st.Failed != 0 {
		t.Fatalf("first build: %+v", st)
	}
	t.Logf("first build of %d sessions: %v", n, time.Since(start))
	if len(seen) < 2 || !seen[0].First || seen[0].Total != n || seen[len(seen)-1].Done != n {
		t.Errorf("progress: first %+v, last %+v", seen[0], seen[len(seen)-1])
	}
	if got := findIDs(t, ix, l, "marker04242", 0); len(got) != 1 || got[0] != corpusID(4242) {
		t.Errorf("a word of one session: %v", got)
	}
	if got := findIDs(t, ix, l, "harbour", 50); len(got) != 50 || got[0] != corpusID(n-1) || got[49] != corpusID(n-50) {
		t.Errorf("a word of every session, first page: %d, %v…", len(got), got[:min(3, len(got))])
	}
	if got := findIDs(t, ix, l, `"teal accents" marker0099*`, 0); len(got) != 10 { // 00990–00999
		t.Errorf("phrase and prefix: %d sessions, want 10", len(got))
	}

	// Nothing changed: nothing is read again.
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 0 || st.Removed != 0 {
		t.Fatalf("no-op update: %+v %v", st, err)
	}

	// One new session: only it is read.
	newPath := writeRollout(t, h, corpusID(n), "2026-12-20T10:00:00Z", "a lighthouse theme please", "Lighthouse amber it is.")
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 1 || st.Messages != 2 {
		t.Fatalf("after one new session: %+v %v", st, err)
	}
	if got := findIDs(t, ix, l, "lighthouse", 0); len(got) != 1 || got[0] != corpusID(n) {
		t.Errorf("new session: %v", got)
	}

	// A session that grew (a follow-up turn): re-read, its new words found,
	// its old ones not duplicated.
	f, err := os.OpenFile(newPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `{"timestamp":"2026-12-20T10:05:00Z","type":"event_msg","payload":{"type":"user_message","message":"now a foghorn grey"}}`+"\n")
	f.Close()
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 1 || st.Messages != 3 {
		t.Fatalf("after a follow-up: %+v %v", st, err)
	}
	if got := findIDs(t, ix, l, "foghorn", 0); len(got) != 1 || len(findIDs(t, ix, l, "lighthouse", 0)) != 1 {
		t.Errorf("grown session: %v", got)
	}
	// Words from two of its messages: the session matches; the snippet is
	// the first message with one of them.
	res, err := Find(ctx, l, ix, "foghorn lighthouse", codexhome.ListOptions{})
	if err != nil || len(res.Sessions) != 1 || res.Sessions[0].Message != 0 || len(res.Sessions[0].Marks) != 1 {
		t.Errorf("words over two messages: %+v %v", res.Sessions, err)
	}

	// Deleted files: dropped from the index.
	for _, i := range []int{10, 11, 12, 13, 14} {
		if err := os.Remove(paths[i]); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := ix.Update(ctx, nil); err != nil || st.Removed != 5 || st.Indexed != 0 {
		t.Fatalf("after deleting 5: %+v %v", st, err)
	}
	if got := findIDs(t, ix, l, "marker00012", 0); len(got) != 0 {
		t.Errorf("deleted session still found: %v", got)
	}
	var rows int
	if err := ix.db.QueryRow("SELECT count(*) FROM fts").Scan(&rows); err != nil || rows != 2*(n-5)+3 {
		t.Errorf("index rows = %d (%v), want %d: deleted files must leave nothing behind", rows, err, 2*(n-5)+3)
	}

	// A file replaced by garbage: its words are gone, it is listed as
	// unreadable, and it is not read again until it changes.
	garbage := paths[500]
	if err := os.WriteFile(garbage, []byte("\x89PNG\r\n\x1a\n garbage, not a rollout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 1 || st.Failed != 1 {
		t.Fatalf("after garbage: %+v %v", st, err)
	}
	if got := findIDs(t, ix, l, "marker00500", 0); len(got) != 0 {
		t.Errorf("garbage file's old words still found: %v", got)
	}
	if st, err := ix.Update(ctx, nil); err != nil || st.Indexed != 0 {
		t.Errorf("garbage read again although unchanged: %+v %v", st, err)
	}
	all, err := l.List(ctx, codexhome.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var unreadable []string
	for _, s := range all.Sessions {
		if s.Unreadable != "" {
			unreadable = append(unreadable, s.ID+": "+s.Unreadable)
		}
	}
	if len(unreadable) != 1 || !strings.HasPrefix(unreadable[0], corpusID(500)) {
		t.Errorf("unreadable sessions: %v", unreadable)
	}
	if fi, err := os.Stat(ix.File()); err != nil || fi.Size() == 0 {
		t.Errorf("index file: %v", err)
	} else {
		t.Logf("index of %d small sessions: %d KB", n, fi.Size()>>10)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "search")); err == nil {
		t.Error("something was written into CODEX_HOME")
	}
}
