package codexhome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fixtures"
)

func listIDs(l SessionList) []string {
	out := []string{}
	for _, s := range l.Sessions {
		out = append(out, s.ID)
	}
	return out
}

func TestSessionsRealSamples(t *testing.T) {
	h := copyHome(t)
	got, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Session{
		{ID: idNew, Title: "Sunset Theme v2", UpdatedAt: mustTime(t, "2026-12-02T10:02:11.003114201Z"), Cwd: "/home/dev/themes/work", Path: filepath.Join(h.Dir, relNew)},
		{ID: idOld, Title: "Theme please", UpdatedAt: mustTime(t, "2026-12-02T09:25:19.600Z"), Cwd: "/home/dev/themes/work", Path: filepath.Join(h.Dir, relOld)},
	}
	if got.Hint != "" || len(got.Warnings) != 0 || len(got.Sessions) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got.Sessions[i]
		g.titleFrom = 0
		if !g.UpdatedAt.Equal(w.UpdatedAt) {
			t.Errorf("%d: updatedAt %v, want %v", i, g.UpdatedAt, w.UpdatedAt)
		}
		g.UpdatedAt = w.UpdatedAt
		if g != w {
			t.Errorf("%d: got %+v\nwant %+v", i, g, w)
		}
	}
}

// extraSession writes a synthetic rollout whose first user items are
// injected context, to check what becomes the title.
func extraSession(t *testing.T, path, id, cwd, ts, firstWords string) {
	t.Helper()
	lines := []string{
		`{"timestamp":"` + ts + `","type":"session_meta","payload":{"id":"` + id + `","cwd":"` + cwd + `","cli_version":"0.140.0"}}`,
		`{"timestamp":"` + ts + `","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>be kind</INSTRUCTIONS>"}]}}`,
		`{"timestamp":"` + ts + `","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_instructions>terse</user_instructions>"},{"type":"input_text","text":"<environment_context><cwd>/x</cwd></environment_context>"}]}}`,
		`{"timestamp":"` + ts + `","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":` + jsonString(firstWords) + `}]}}`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	if strings.HasSuffix(path, ".zst") {
		data = zstdBytes(t, data)
	}
	writeFile(t, path, data)
	m := mustTime(t, ts)
	if err := os.Chtimes(path, m, m); err != nil {
		t.Fatal(err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestSessionsTitlesArchivedAndZst(t *testing.T) {
	h := copyHome(t)
	idA := "01a20000-0000-7000-8000-00000000000a"
	idB := "01a20000-0000-7000-8000-00000000000b"
	long := "Please build a warm autumn theme\nwith deep orange accents, muted browns, a soft cream background and readable contrast everywhere"
	extraSession(t, filepath.Join(h.Dir, "archived_sessions", "rollout-2026-11-01T10-00-00-"+idA+".jsonl.zst"), idA, "/srv/a", "2026-11-01T10:00:00Z", long)
	extraSession(t, filepath.Join(h.Dir, "sessions", "2026", "12", "03", "rollout-2026-12-03T08-00-00-"+idB+".jsonl"), idB, "/srv/b", "2026-12-03T08:00:00Z", "make it blue")
	// An unrelated file is not a session.
	writeFile(t, filepath.Join(h.Dir, "sessions", "2026", "notes.txt"), []byte("hi"))

	got, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{idB, idNew, idOld, idA}; !reflect.DeepEqual(listIDs(got), want) {
		t.Fatalf("order = %v, want %v", listIDs(got), want)
	}
	a := got.Sessions[3]
	if !a.Archived || a.Cwd != "/srv/a" || !strings.HasSuffix(a.Path, ".jsonl.zst") {
		t.Errorf("archived session = %+v", a)
	}
	if !strings.HasPrefix(a.Title, "Please build a warm autumn theme with deep orange") || !strings.HasSuffix(a.Title, "…") || len([]rune(a.Title)) > 80 {
		t.Errorf("title from the first real message = %q", a.Title)
	}
	if got.Sessions[0].Title != "make it blue" || got.Sessions[0].Archived {
		t.Errorf("newest = %+v", got.Sessions[0])
	}
}

func TestSessionsSearchAndLimit(t *testing.T) {
	h := copyHome(t)
	tests := []struct {
		name string
		opts ListOptions
		want []string
	}{
		{"all", ListOptions{}, []string{idNew, idOld}},
		{"title, any case", ListOptions{Search: "SUNSET"}, []string{idNew}},
		{"title from first message", ListOptions{Search: "theme please"}, []string{idOld}},
		{"cwd", ListOptions{Search: "themes/work"}, []string{idNew, idOld}},
		{"transcript text not searched by default", ListOptions{Search: "still there"}, []string{}},
		{"no match", ListOptions{Search: "zebra"}, []string{}},
		{"the user's own title matches", ListOptions{Search: "my harbour", Titles: map[string]string{idOld: "My Harbour theme"}}, []string{idOld}},
		{"the replaced title no longer matches", ListOptions{Search: "theme please", Titles: map[string]string{idOld: "My Harbour theme"}}, []string{}},
		{"hidden left out", ListOptions{Hidden: map[string]bool{idNew: true}}, []string{idOld}},
		{"hidden shown on request", ListOptions{Hidden: map[string]bool{idNew: true}, ShowHidden: true}, []string{idNew, idOld}},
		{"limit counts shown sessions only", ListOptions{Hidden: map[string]bool{idNew: true}, Limit: 1}, []string{idOld}},
		{"limit", ListOptions{Limit: 1}, []string{idNew}},
		{"limit after search", ListOptions{Search: "work", Limit: 1}, []string{idNew}},
	}
	l := NewLister(h)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := l.List(context.Background(), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(listIDs(got), tt.want) {
				t.Errorf("got %v, want %v", listIDs(got), tt.want)
			}
		})
	}
}

// A first page whose newest session is hidden reads on to the next one:
// Home's first page is never emptied by what it does not show.
func TestFirstPageReadsPastHiddenSessions(t *testing.T) {
	l := NewLister(copyHome(t)) // fresh: no head read yet
	got, err := l.List(context.Background(), ListOptions{Hidden: map[string]bool{idNew: true}, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ids := listIDs(got); !reflect.DeepEqual(ids, []string{idOld}) {
		t.Fatalf("first page = %v, want the older session %s", ids, idOld)
	}
}

func TestSessionsMissingHome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-codex")
	got, err := Home{Dir: dir}.Sessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatalf("a missing home is not an error: %v", err)
	}
	if len(got.Sessions) != 0 || got.Hint != "No Codex home at "+dir+"; run Codex once or set CODEX_HOME" || got.HintCode != HintNoHome || got.HintDir != dir {
		t.Errorf("got %+v", got)
	}
	// Home exists but Codex never saved a session: empty, no hint.
	got, err = Home{Dir: t.TempDir()}.Sessions(context.Background(), ListOptions{})
	if err != nil || len(got.Sessions) != 0 || got.Hint != "" {
		t.Errorf("empty home: %+v, %v", got, err)
	}
}

// Re-listing stats every file but parses only those whose size or mtime
// changed: a same-size, same-mtime edit is (deliberately) not noticed,
// a touched file is.
func TestListerRelistsOnlyChangedFiles(t *testing.T) {
	h := copyHome(t)
	l := NewLister(h)
	ctx := context.Background()
	if _, err := l.List(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(h.Dir, relOld)
	b := readFile(t, old)
	edited := strings.Replace(string(b), `"Theme please"`, `"Thyme please"`, -1) // same length
	writeFile(t, old, []byte(edited))
	setMtime(t, old, "2026-12-02T09:25:19.600Z")

	got, _ := l.List(ctx, ListOptions{})
	if got.Sessions[1].Title != "Theme please" {
		t.Fatalf("unchanged stat must reuse the cached head, got %q", got.Sessions[1].Title)
	}
	setMtime(t, old, "2026-12-02T11:00:00Z")
	got, _ = l.List(ctx, ListOptions{})
	if got.Sessions[0].ID != idOld || got.Sessions[0].Title != "Thyme please" {
		t.Fatalf("touched file must be re-read, got %+v", got.Sessions[0])
	}

	// A later rename in the index wins; a removed file disappears.
	idx := filepath.Join(h.Dir, "session_index.jsonl")
	writeFile(t, idx, append(readFile(t, idx), []byte(`{"id":"`+idOld+`","thread_name":"Renamed later","updated_at":"2026-12-02T12:00:00Z"}`+"\n")...))
	if err := os.Remove(filepath.Join(h.Dir, relNew)); err != nil {
		t.Fatal(err)
	}
	got, _ = l.List(ctx, ListOptions{})
	if len(got.Sessions) != 1 || got.Sessions[0].Title != "Renamed later" || !got.Sessions[0].UpdatedAt.Equal(mustTime(t, "2026-12-02T12:00:00Z")) {
		t.Fatalf("got %+v", got.Sessions)
	}
}

func TestSessionIndexDamage(t *testing.T) {
	h := copyHome(t)
	idx := filepath.Join(h.Dir, "session_index.jsonl")
	writeFile(t, idx, []byte(`{"id":"`+idOld+`","thread_name":"Good name","updated_at":"2026-12-02T09:30:00Z"}`+"\n"+
		"garbage\n"+
		`{"id":"`+idOld+`","thread_na`)) // torn last line
	got, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Sessions {
		if s.ID == idOld && s.Title != "Good name" {
			t.Errorf("title = %q, want the last good line's", s.Title)
		}
		if s.ID == idNew && s.Title != "Theme please" {
			t.Errorf("unnamed session title = %q", s.Title)
		}
	}
}

func TestMerge(t *testing.T) {
	t1 := mustTime(t, "2026-12-01T10:00:00Z")
	t2 := mustTime(t, "2026-12-02T10:00:00Z")
	disk := []Session{
		{ID: "named", Title: "From index", Cwd: "/a", Path: "/h/named.jsonl", UpdatedAt: t1, titleFrom: titleIndex},
		{ID: "guessed", Title: "first words", Path: "/h/guessed.jsonl", UpdatedAt: t1, titleFrom: titleMessage},
	}
	acp := []ACPSession{
		{SessionID: "named", Title: "Agent title", Cwd: "/other", UpdatedAt: "2026-12-02T10:00:00Z"},
		{SessionID: "guessed", Title: "Agent title", Cwd: "/b", UpdatedAt: "2026-11-01T00:00:00Z"},
		{SessionID: "remote", Title: "Only the agent knows", Cwd: "/c", UpdatedAt: "2026-11-30T00:00:00Z"},
		{SessionID: "", Title: "no id, ignored"},
	}
	got := Merge(disk, acp)
	want := []Session{
		{ID: "named", Title: "From index", Cwd: "/a", Path: "/h/named.jsonl", UpdatedAt: t2, titleFrom: titleIndex},
		{ID: "guessed", Title: "Agent title", Cwd: "/b", Path: "/h/guessed.jsonl", UpdatedAt: t1, titleFrom: titleACP},
		{ID: "remote", Title: "Only the agent knows", Cwd: "/c", UpdatedAt: mustTime(t, "2026-11-30T00:00:00Z"), titleFrom: titleACP},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	// Merging into a listing through List: the ACP title fills the gap.
	h := copyHome(t)
	l, err := h.Sessions(context.Background(), ListOptions{ACP: []ACPSession{{SessionID: idOld, Title: "Agent named it"}}, Search: "agent named"})
	if err != nil || len(l.Sessions) != 1 || l.Sessions[0].Path == "" {
		t.Errorf("got %+v, %v", l, err)
	}
}

func TestSessionListJSONShape(t *testing.T) {
	h := copyHome(t)
	l, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(l)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if _, ok := v["hint"]; !ok {
		t.Errorf("no hint in %s", b)
	}
	s := v["sessions"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "title", "updatedAt", "cwd", "path", "archived"} {
		if _, ok := s[k]; !ok {
			t.Errorf("session lacks %q: %v", k, s)
		}
	}
	if _, err := time.Parse(time.RFC3339Nano, s["updatedAt"].(string)); err != nil {
		t.Errorf("updatedAt not RFC 3339: %v", s["updatedAt"])
	}
}

// A session_meta line larger than the head budget does not stall or fail
// the listing: the id comes from the file name.
func TestSessionsHugeHead(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	id := "01a20000-0000-7000-8000-0000000000ff"
	meta := `{"timestamp":"2026-12-01T00:00:00Z","type":"session_meta","payload":{"id":"` + id + `","cwd":"/big","base_instructions":{"text":"` + strings.Repeat("x", headBytes+10) + `"}}}`
	user := `{"timestamp":"2026-12-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}`
	writeFile(t, filepath.Join(h.Dir, "sessions", "rollout-2026-12-01T00-00-00-"+id+".jsonl"), []byte(meta+"\n"+user+"\n"))
	got, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil || len(got.Sessions) != 1 || got.Sessions[0].ID != id {
		t.Fatalf("got %+v, %v", got, err)
	}
	// The transcript itself still reads the whole line.
	tr, err := h.Transcript(context.Background(), id)
	if err != nil || tr.Cwd != "/big" || len(tr.Messages) != 1 {
		t.Fatalf("transcript %+v, %v", tr, err)
	}
}

// The app lists and pages from several goroutines (UI refresh, background
// ACP merge); results must stay consistent (run with -race too).
func TestConcurrentUse(t *testing.T) {
	h := copyHome(t)
	l := NewLister(h)
	ctx := context.Background()
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		go func() {
			got, err := l.List(ctx, ListOptions{})
			if err == nil && len(got.Sessions) != 2 {
				err = fmt.Errorf("%d sessions", len(got.Sessions))
			}
			errs <- err
		}()
		go func(off int) {
			pg, err := h.TranscriptPage(ctx, idOld, off%4, 2)
			if err == nil && len(pg.Messages) != 2 {
				err = fmt.Errorf("page at %d: %d messages", off%4, len(pg.Messages))
			}
			errs <- err
		}(i)
	}
	for i := 0; i < 16; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestUnreadableHomeGivesAHint(t *testing.T) {
	perm := &fs.PathError{Op: "open", Path: "/h/sessions", Err: fs.ErrPermission}
	if h := unreadableHint("/h", perm); !strings.Contains(h, "/h") || !strings.Contains(h, "not readable") {
		t.Fatalf("hint for a permission error: %q", h)
	}
	if h := unreadableHint("/h", errors.New("disk on fire")); h != "" {
		t.Fatalf("other errors are warnings only, got hint %q", h)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: chmod cannot make a folder unreadable, so only the hint text is checked")
		return
	}
	if runtime.GOOS == "windows" {
		// os.Chmod on Windows sets only the read-only attribute; an
		// unreadable folder needs an ACL that denies the user.
		t.Log("Windows: chmod cannot make a folder unreadable, so only the hint text is checked")
		return
	}
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "sessions", "2026"), 0o755)
	os.Chmod(filepath.Join(home, "sessions"), 0)
	defer os.Chmod(filepath.Join(home, "sessions"), 0o755)
	got, err := NewLister(Home{Dir: home}).List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Hint, "not readable") || got.HintCode != HintHomeUnreadable {
		t.Fatalf("an unreadable sessions folder gave hint %q", got.Hint)
	}
}

// Home's first page must read only the newest heads, and give the same page
// as a listing that read them all.
func TestFirstPageReadsOnlyTheNewestHeads(t *testing.T) {
	dir := t.TempDir()
	sample := fixtures.Read(fixtures.RolloutOld)
	base := mustTime(t, "2026-12-02T10:00:00Z") // after the sample's own timestamps, as Codex leaves it
	var index bytes.Buffer
	const n = 40
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("01a23612-9865-7550-b5c4-%012d", i)
		path := filepath.Join(dir, "sessions", "2026", "11", "01", "rollout-2026-11-01T10-00-00-"+id+".jsonl")
		writeFile(t, path, bytes.ReplaceAll(sample, []byte(idOld), []byte(id)))
		m := base.Add(time.Duration(i) * time.Hour)
		os.Chtimes(path, m, m)
	}
	// The oldest file was renamed last: the index makes it the newest.
	oldest := fmt.Sprintf("01a23612-9865-7550-b5c4-%012d", 0)
	fmt.Fprintf(&index, `{"id":"%s","thread_name":"Renamed today","updated_at":"2026-12-05T09:00:00Z"}`+"\n", oldest)
	writeFile(t, filepath.Join(dir, "session_index.jsonl"), index.Bytes())
	h := Home{Dir: dir}
	ctx := context.Background()

	full, err := NewLister(h).List(ctx, ListOptions{})
	if err != nil || len(full.Sessions) != n {
		t.Fatalf("full listing: %d sessions, %v", len(full.Sessions), err)
	}
	l := NewLister(h)
	page, err := l.List(ctx, ListOptions{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != 5 {
		t.Fatalf("page of %d sessions", len(page.Sessions))
	}
	for i := range page.Sessions {
		if page.Sessions[i].ID != full.Sessions[i].ID || page.Sessions[i].Title != full.Sessions[i].Title {
			t.Fatalf("page[%d] = %+v, full[%d] = %+v", i, page.Sessions[i], i, full.Sessions[i])
		}
	}
	if page.Sessions[0].ID != oldest || page.Sessions[0].Title != "Renamed today" {
		t.Fatalf("the renamed session does not lead the page: %+v", page.Sessions[0])
	}
	read := 0
	for _, fh := range l.files {
		if fh.parsed {
			read++
		}
	}
	if read > 10 {
		t.Fatalf("a page of 5 read %d of %d heads", read, n)
	}
	// A search or a longer page then reads the rest.
	found, err := l.List(ctx, ListOptions{Search: "themes/work"})
	if err != nil || len(found.Sessions) != n {
		t.Fatalf("after a page, a search by folder finds %d of %d sessions, %v", len(found.Sessions), n, err)
	}
	all, err := l.List(ctx, ListOptions{})
	if err != nil || len(all.Sessions) != n {
		t.Fatalf("after a page, the full listing has %d sessions, %v", len(all.Sessions), err)
	}
}
