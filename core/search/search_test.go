package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"cdxtheme/core/codexhome"
	"cdxtheme/internal/testrig/fixtures"

	"github.com/klauspost/compress/zstd"
)

// Session ids of the real samples in internal/testrig/fixtures.
const (
	idNew = fixtures.SessionNew                    // codex 0.166 (paginated)
	idOld = fixtures.SessionOld                    // codex 0.137 (classic)
	idZst = "01a23612-9865-7550-b5c4-00000000a2c1" // the 0.137 sample, archived and compressed
)

// sampleHome copies the sample Codex home into a temp dir and adds the
// 0.137 sample once more as an archived .jsonl.zst under another id.
func sampleHome(t testing.TB) codexhome.Home {
	t.Helper()
	dst := t.TempDir()
	if err := fixtures.CopyCodexHome(dst); err != nil {
		t.Fatal(err)
	}
	old := bytes.ReplaceAll(fixtures.Read(fixtures.RolloutOld), []byte(idOld), []byte(idZst))
	old = bytes.ReplaceAll(old, []byte("please edit the theme"), []byte("please edit the crème brûlée theme"))
	var zbuf bytes.Buffer
	zw, _ := zstd.NewWriter(&zbuf)
	zw.Write(old)
	zw.Close()
	zst := filepath.Join(dst, "archived_sessions", "rollout-2026-11-20T09-25-18-"+idZst+".jsonl.zst")
	writeFile(t, zst, zbuf.Bytes())
	// The time Codex would have left, so the order does not depend on
	// when the test ran.
	tm := time.Date(2026, 11, 20, 9, 25, 19, 0, time.UTC)
	if err := os.Chtimes(zst, tm, tm); err != nil {
		t.Fatal(err)
	}
	return codexhome.Home{Dir: dst, Source: codexhome.SourceEnv}
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func openIndex(t testing.TB, h codexhome.Home) *Index {
	t.Helper()
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	ix, err := Open(context.Background(), Path(h), h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestSearchRealSamples(t *testing.T) {
	h := sampleHome(t)
	ix := openIndex(t, h)
	ctx := context.Background()
	if ix.Built(ctx) {
		t.Fatal("a new index says it is built")
	}
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 || st.Indexed != 3 || st.Failed != 0 || !ix.Built(ctx) {
		t.Fatalf("first build: %+v, built %v", st, ix.Built(ctx))
	}
	if !strings.HasPrefix(ix.File(), os.Getenv("CDXTHEME_CACHE_DIR")) || strings.HasPrefix(ix.File(), h.Dir) {
		t.Errorf("index at %s: want it in the cache dir, never in CODEX_HOME", ix.File())
	}
	l := codexhome.NewLister(h)
	tests := []struct {
		query string
		want  []string // session ids, newest first
		mark  string   // the text the first result's snippet highlights ("" = title match only)
	}{
		{"hello", []string{idNew, idOld, idZst}, "Hello"},
		{"HELLO", []string{idNew, idOld, idZst}, "Hello"},
		{`"still there"`, []string{idNew}, "still there"},
		{`"there still"`, []string{}, ""},
		{"stil*", []string{idNew}, "still"},
		{"st*", []string{idNew}, "still"},
		{"edit theme", []string{idOld, idZst}, "edit"},
		{"creme brulee", []string{idZst}, "crème"},
		{"brûl*", []string{idZst}, "brûlée"},
		{"sunset", []string{idNew}, ""},                    // the title (session_index.jsonl), not the text
		{"themes/work", []string{idNew, idOld, idZst}, ""}, // the folder
		{`"begin patch"`, []string{}, ""},                  // only in a tool call: not the user's or the assistant's words
		{"environment_context", []string{}, ""},            // injected context is not indexed
		{"zebra", []string{}, ""},
		{`" * " -`, []string{idNew, idOld, idZst}, ""}, // nothing searchable: every session
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res, err := Find(ctx, l, ix, tt.query, codexhome.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range res.Sessions {
				ids = append(ids, r.ID)
			}
			if ids == nil {
				ids = []string{}
			}
			if !reflect.DeepEqual(ids, tt.want) {
				t.Fatalf("got %v, want %v", ids, tt.want)
			}
			if len(res.Warnings) != 0 { // a title or folder match looks for no snippet
				t.Errorf("warnings: %v", res.Warnings)
			}
			if len(res.Sessions) == 0 || ParseQuery(tt.query).Empty() {
				return
			}
			r := res.Sessions[0]
			if tt.mark == "" {
				if r.Message != -1 || r.Snippet.Text != "" {
					t.Errorf("title match carries a text hit: %+v", r)
				}
				return
			}
			if len(r.Marks) == 0 {
				t.Fatalf("no highlight in %q", r.Snippet.Text)
			}
			runes := []rune(r.Snippet.Text)
			m := r.Marks[0]
			if got := string(runes[m.Start:m.End]); got != tt.mark {
				t.Errorf("snippet %q highlights %q, want %q", r.Snippet.Text, got, tt.mark)
			}
			// Opening the hit: the transcript's message at that index is
			// the one that matched.
			pg, err := codexhome.ReadRolloutPage(ctx, r.Path, r.Message, 1)
			if err != nil || len(pg.Messages) != 1 {
				t.Fatalf("page at %d: %v", r.Message, err)
			}
			if !strings.Contains(strings.ToLower(pg.Messages[0].Text), strings.ToLower(tt.mark)) || pg.Messages[0].Role != r.Role {
				t.Errorf("message %d is %s %q; the hit was %s %q", r.Message, pg.Messages[0].Role, pg.Messages[0].Text, r.Role, r.Snippet.Text)
			}
		})
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct{ in, match string }{
		{"hello world", `"hello" "world"`},
		{`"say hello" there*`, `"say hello" "there"*`},
		{`"say hello"*`, `"say hello"*`},
		{`unclosed "quote here`, `"unclosed" "quote here"`},
		{`OR NOT AND NEAR(a b)`, `"OR" "NOT" "AND" "NEAR(a" "b)"`},
		{`a"b`, `"a""b"`},
		{`- * "" "  "`, ``},
		{`"" teal`, `"teal"`}, // an empty phrase is no unclosed quote
	}
	for _, tt := range tests {
		if got := ParseQuery(tt.in).match(); got != tt.match {
			t.Errorf("ParseQuery(%q) = %s, want %s", tt.in, got, tt.match)
		}
	}
}

// Text in a rollout is untrusted: it must not fake a highlight nor reach
// the UI as markup. Snippets are plain text plus offsets.
func TestSnippetIsTextWithOffsets(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	evil := "<img src=x onerror=alert(1)> \x02fake\x03 mark and the word needle\x00 here"
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000e711", "2026-12-03T10:00:00Z", evil, "ok")
	ix := openIndex(t, h)
	ctx := context.Background()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"needle", "fake", "img"} {
		res, err := Find(ctx, codexhome.NewLister(h), ix, q, codexhome.ListOptions{})
		if err != nil || len(res.Sessions) != 1 {
			t.Fatalf("%s: %+v %v", q, res, err)
		}
		s := res.Sessions[0].Snippet
		if strings.ContainsAny(s.Text, "\x00\x02\x03") || !utf8.ValidString(s.Text) {
			t.Errorf("%s: control characters reach the snippet: %q", q, s.Text)
		}
		if len(s.Marks) != 1 {
			t.Fatalf("%s: marks %v in %q, want exactly the one match", q, s.Marks, s.Text)
		}
		if got := string([]rune(s.Text)[s.Marks[0].Start:s.Marks[0].End]); got != q {
			t.Errorf("%s: highlighted %q", q, got)
		}
		if !strings.Contains(s.Text, "<img src=x onerror=alert(1)>") {
			t.Errorf("%s: the text must come back as written (the UI renders it as text): %q", q, s.Text)
		}
	}
}

// writeRollout writes a minimal rollout (as Codex 0.137 writes them) with
// one user and one assistant message, with mtime ts.
func writeRollout(t testing.TB, h codexhome.Home, id, ts, user, assistant string) string {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(h.Dir, "sessions", tm.Format("2006/01/02"), "rollout-"+tm.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	writeFile(t, path, rolloutBytes(id, ts, user, assistant))
	if err := os.Chtimes(path, tm, tm); err != nil {
		t.Fatal(err)
	}
	return path
}

func rolloutBytes(id, ts, user, assistant string) []byte {
	return fmt.Appendf(nil, `{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"cwd":"/w","source":"cli"}}
{"timestamp":%q,"type":"event_msg","payload":{"type":"user_message","message":%s}}
{"timestamp":%q,"type":"event_msg","payload":{"type":"agent_message","message":%s}}
`, ts, id, ts, jsonString(user), ts, jsonString(assistant))
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestCorruptIndexIsRebuilt(t *testing.T) {
	h := sampleHome(t)
	t.Setenv("CDXTHEME_CACHE_DIR", t.TempDir())
	path := Path(h)
	writeFile(t, path, []byte("this is not a database, it is garbage that was left here"))
	ix, err := Open(context.Background(), path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st, err := ix.Update(context.Background(), nil); err != nil || st.Indexed != 3 {
		t.Fatalf("rebuild: %+v %v", st, err)
	}
}

// A session saved twice (a copy left in an older day's folder) that matches
// in both is shown with the snippet of the copy it is listed by, the newer
// one, not of the stale copy.
func TestSnippetComesFromTheListedCopy(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	const id = "01a20000-0000-7000-8000-00000000c0b1"
	writeRollout(t, h, id, "2026-12-02T10:00:00Z", "a teal harbour, first draft", "ok")
	newer := writeRollout(t, h, id, "2026-12-03T10:00:00Z", "a teal harbour, final version", "ok")
	ix := openIndex(t, h)
	ctx := context.Background()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	res, err := Find(ctx, codexhome.NewLister(h), ix, "teal", codexhome.ListOptions{})
	if err != nil || len(res.Sessions) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if r := res.Sessions[0]; r.Path != newer || !strings.Contains(r.Snippet.Text, "final version") {
		t.Fatalf("listed %s with snippet %q, want the newer copy's text", r.Path, r.Snippet.Text)
	}
}

// A query of nothing (blank, or only quotes and stars) matches no title or
// folder: it is no search, not a search that everything passes.
func TestEmptyQueryMatchesNoText(t *testing.T) {
	for _, s := range []string{"", "   ", `""`, "*"} {
		if ParseQuery(s).MatchesText("Harbour night", "/home/dev/themes") {
			t.Errorf("ParseQuery(%q) matches a title", s)
		}
	}
	if !ParseQuery("harbour").MatchesText("Harbour night") {
		t.Error("a term in the title does not match it")
	}
}

// A first build commits as it goes: once 4 MiB of text is indexed, searches made while the build goes on already find it, so a
// large Codex home is searchable long before the build ends.
func TestFirstBuildIsSearchableAsItGoes(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	// Two sessions of exactly 4 MiB of indexed text each (128 messages cut
	// to the 32 KiB indexed per message), one word apart.
	for i, word := range []string{"alphaword", "bravoword"} {
		id := fmt.Sprintf("01a20000-0000-7000-8000-00000000b1%02d", i)
		ts := fmt.Sprintf("2026-12-0%dT10:00:00Z", i+1)
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"cwd":"/w","source":"cli"}}`+"\n", ts, id)
		msg := jsonString(word + " " + strings.Repeat("x", 40<<10))
		for range 128 {
			fmt.Fprintf(&b, `{"timestamp":%q,"type":"event_msg","payload":{"type":"agent_message","message":%s}}`+"\n", ts, msg)
		}
		tm, _ := time.Parse(time.RFC3339, ts)
		path := filepath.Join(h.Dir, "sessions", tm.Format("2006/01/02"), "rollout-"+tm.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
		writeFile(t, path, b.Bytes())
	}
	ix := openIndex(t, h)
	ctx := context.Background()
	found := -1
	_, err := ix.Update(ctx, func(p Progress) {
		if p.Done != 1 {
			return
		}
		found = 0
		for _, w := range []string{"alphaword", "bravoword"} {
			hits, err := ix.Search(ctx, ParseQuery(w))
			if err != nil {
				t.Errorf("search during the build: %v", err)
			}
			found += len(hits)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if found != 1 {
		t.Fatalf("after the first 4 MiB session, a search during the build finds %d sessions, want the one indexed", found)
	}
}

// An update cancelled as it starts (the app quits while the library opens)
// ends with the cancellation, and the next one builds the index in full.
func TestUpdateCancelledAtTheStartEndsCleanly(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000ca01", "2026-12-03T10:00:00Z", "a teal harbour", "ok")
	ix := openIndex(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := ix.Update(ctx, func(Progress) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	st, err := ix.Update(context.Background(), nil)
	if err != nil || st.Indexed != 1 {
		t.Fatalf("the next update: %+v, %v", st, err)
	}
	if hits, err := ix.Search(context.Background(), ParseQuery("teal")); err != nil || len(hits) != 1 {
		t.Fatalf("search after the next update: %v, %v", hits, err)
	}
}

// An index that fails under the query (here closed, as when its file went
// away) still lets titles and folders match, and the result says why the
// message text was not searched.
func TestFailingIndexWarnsAndStillMatchesTitles(t *testing.T) {
	h := codexhome.Home{Dir: t.TempDir()}
	writeRollout(t, h, "01a20000-0000-7000-8000-00000000fa01", "2026-12-03T10:00:00Z", "a teal harbour", "ok")
	ix := openIndex(t, h)
	ctx := context.Background()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	res, err := Find(ctx, codexhome.NewLister(h), ix, "harbour", codexhome.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || len(res.Warnings) == 0 {
		t.Fatalf("sessions %d, warnings %q; want the title match and a warning", len(res.Sessions), res.Warnings)
	}
}
