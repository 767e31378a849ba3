//go:build unix

package codexhome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// within fails when fn has not returned after d: a FIFO or /dev/zero must
// never hang a listing or a transcript.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestHostileRolloutsAreSkippedNotRead(t *testing.T) {
	h := copyHome(t)
	day := filepath.Join(h.Dir, "sessions", "2026", "12", "02")
	fifo := filepath.Join(day, "rollout-2026-12-02T10-00-00-01a20000-0000-7000-8000-000000000f1f.jsonl")
	zero := filepath.Join(day, "rollout-2026-12-02T10-00-01-01a20000-0000-7000-8000-0000000000de.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	var got SessionList
	var err error
	within(t, 10*time.Second, func() { got, err = h.Sessions(context.Background(), ListOptions{}) })
	// The two readable sessions, and the two hostile files listed as
	// unreadable (never resumable), each with its reason.
	var readable []string
	unreadable := map[string]string{}
	for _, s := range got.Sessions {
		if s.Unreadable != "" {
			unreadable[s.ID] = s.Unreadable
		} else {
			readable = append(readable, s.ID)
		}
	}
	if err != nil || !equalIDs(readable, []string{idNew, idOld}) {
		t.Fatalf("listing beside a FIFO and /dev/zero: %v, %v", listIDs(got), err)
	}
	for id, why := range map[string]string{"01a20000-0000-7000-8000-000000000f1f": "named pipe", "01a20000-0000-7000-8000-0000000000de": "character device"} {
		if !strings.Contains(unreadable[id], why) {
			t.Errorf("%s listed as unreadable %q, want the reason %q", id, unreadable[id], why)
		}
	}
	warn := strings.Join(got.Warnings, "\n")
	for _, w := range []string{fifo + ": not a regular file (a named pipe)", zero + ": not a regular file (a character device)"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings %q lack %q", warn, w)
		}
	}
	for _, id := range []string{"01a20000-0000-7000-8000-000000000f1f", "01a20000-0000-7000-8000-0000000000de"} {
		within(t, 10*time.Second, func() {
			_, err = h.TranscriptPage(context.Background(), id, 0, 50)
		})
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("page of %s: %v", id, err)
		}
		within(t, 10*time.Second, func() { _, err = h.OpenTranscript(context.Background(), id) })
		if err == nil || !strings.Contains(err.Error(), id) {
			t.Errorf("transcript of %s: %v", id, err)
		}
	}
}

func equalIDs(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// A listing reads at most headBytes of a file, whatever follows: the
// session_meta after a first line longer than that is never reached.
func TestHeadReadIsHardCapped(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	id := "01a20000-0000-7000-8000-0000000000aa"
	junk := `{"timestamp":"2026-12-01T00:00:00Z","type":"compacted","payload":{"message":"` + strings.Repeat("x", headBytes) + `"}}`
	meta := `{"timestamp":"2026-12-01T00:00:01Z","type":"session_meta","payload":{"id":"` + id + `","cwd":"/past/the/cap"}}`
	p := filepath.Join(h.Dir, "sessions", "rollout-2026-12-01T00-00-00-"+id+".jsonl")
	writeFile(t, p, []byte(junk+"\n"+meta+"\n"))
	got, err := h.Sessions(context.Background(), ListOptions{})
	if err != nil || len(got.Sessions) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	if s := got.Sessions[0]; s.ID != id || s.Cwd != "" {
		t.Errorf("listed %+v: the head read went past %d bytes", s, headBytes)
	}
	// The transcript reads the file whole.
	tr, err := h.Transcript(context.Background(), id)
	if err != nil || tr.Cwd != "/past/the/cap" {
		t.Errorf("transcript: %+v, %v", tr, err)
	}

	// A sparse gigabyte without a newline: the head read ends at the cap
	// instead of looking for the end of the line.
	sparse := filepath.Join(h.Dir, "sessions", "rollout-2026-12-01T00-00-01-01a20000-0000-7000-8000-0000000000ab.jsonl")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<30); err != nil {
		t.Fatal(err)
	}
	rf, err := openRolloutBuf(sparse, 0, headBufSize, headBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	rf.maxLen = headBytes
	for {
		if _, _, _, err := rf.next(); err != nil {
			break
		}
	}
	if rf.off > headBytes {
		t.Errorf("the head read consumed %d bytes, limit %d", rf.off, headBytes)
	}
	var fh fileHead
	readHead(sparse, &fh)
	if fh.err != nil || fh.id != "" {
		t.Errorf("head of the sparse file: %+v", fh)
	}
}

// bomb writes a .jsonl.zst of frames of one compressed chunk repeated: it
// unpacks to about unpacked bytes of user/assistant messages.
func bomb(t *testing.T, path string, unpacked int) (messages int) {
	t.Helper()
	var chunk bytes.Buffer
	n := 0
	for chunk.Len() < 64<<10 {
		role, kind := "user", "input_text"
		if n%2 == 1 {
			role, kind = "assistant", "output_text"
		}
		b, _ := json.Marshal(map[string]any{"timestamp": "2026-12-02T09:26:00.000Z", "type": "response_item",
			"payload": map[string]any{"type": "message", "role": role, "content": []map[string]any{{"type": kind, "text": fmt.Sprintf("message %d", n)}}}})
		chunk.Write(append(b, '\n'))
		n++
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(chunk.Bytes(), nil)
	var out bytes.Buffer
	for i := 0; i*chunk.Len() < unpacked; i++ {
		out.Write(frame)
		messages += n
	}
	writeFile(t, path, out.Bytes())
	return messages
}

func TestCompressedRolloutStopsAtTheCeiling(t *testing.T) {
	old := maxUnpacked
	maxUnpacked = 1 << 20
	t.Cleanup(func() { maxUnpacked = old })
	h := Home{Dir: t.TempDir()}
	id := "01a20000-0000-7000-8000-0000000000bb"
	p := filepath.Join(h.Dir, "sessions", "rollout-2026-12-01T00-00-00-"+id+".jsonl.zst")
	total := bomb(t, p, 8<<20)

	r, err := h.OpenTranscript(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	r.Close()
	shown := r.Count()
	if !r.Truncated() || shown == 0 || shown >= total || r.Skipped() != 0 {
		t.Fatalf("shown %d of %d, truncated %v, skipped %d", shown, total, r.Truncated(), r.Skipped())
	}
	if want := fmt.Sprintf("Too large: showing the first %d messages (the session unpacks to more than 1 MiB).", shown); !strings.HasSuffix(md.String(), want+"\n") {
		t.Errorf("the export does not end with %q:\n…%s", want, md.String()[max(0, md.Len()-300):])
	}
	// Pages end at the same place, done and truncated.
	pg, err := h.TranscriptPage(context.Background(), id, shown-5, 100)
	if err != nil || len(pg.Messages) != 5 || !pg.Done || !pg.Truncated {
		t.Errorf("last page: %d messages, done %v, truncated %v, %v", len(pg.Messages), pg.Done, pg.Truncated, err)
	}
	first, err := h.TranscriptPage(context.Background(), id, 0, 10)
	if err != nil || first.Done || first.Truncated {
		t.Errorf("first page: done %v, truncated %v, %v", first.Done, first.Truncated, err)
	}
	// A file that unpacks to less than the ceiling is not truncated.
	small := filepath.Join(h.Dir, "sessions", "rollout-2026-12-01T00-00-01-01a20000-0000-7000-8000-0000000000cc.jsonl.zst")
	n := bomb(t, small, 512<<10)
	tr, err := ReadRollout(context.Background(), small)
	if err != nil || tr.Truncated || len(tr.Messages) != n {
		t.Errorf("a small .zst: %d of %d messages, truncated %v, %v", len(tr.Messages), n, tr.Truncated, err)
	}
}

// What the parser remembers stays bounded on a hostile turn: calls that
// never finish and a flood of distinct messages.
func TestParserMemoryIsBounded(t *testing.T) {
	p := newParser()
	var shown int
	for i := range 3 * maxPending {
		line := fmt.Sprintf(`{"timestamp":"2026-12-01T00:00:00Z","type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"c%d","arguments":"{\"cmd\":\"echo %d\"}"}}`, i, i)
		if m := p.feed([]byte(line)); m != nil {
			shown++
			if m.Role != RoleTool || m.Tool.Command != fmt.Sprintf("echo %d", shown-1) {
				t.Fatalf("evicted call %d: %+v", shown-1, m)
			}
		}
	}
	if len(p.pending) > maxPending || len(p.order) > maxPending {
		t.Errorf("%d calls held, limit %d", len(p.pending), maxPending)
	}
	if rest := p.flush(); shown+len(rest) != 3*maxPending {
		t.Errorf("%d evicted + %d unfinished, want every call shown once (%d)", shown, len(rest), 3*maxPending)
	}
	for i := range 3 * maxPairs {
		p.feed([]byte(fmt.Sprintf(`{"timestamp":"2026-12-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"answer %d"}]}}`, i)))
	}
	if len(p.fromItems) > maxPairs {
		t.Errorf("%d messages remembered for pairing, limit %d", len(p.fromItems), maxPairs)
	}
	// Big commands are bounded by bytes too.
	q := newParser()
	big := strings.Repeat("y", maxPendingBytes/4)
	for i := range 8 {
		b, _ := json.Marshal(map[string]any{"timestamp": "2026-12-01T00:00:00Z", "type": "response_item",
			"payload": map[string]any{"type": "custom_tool_call", "name": "apply_patch", "call_id": fmt.Sprint(i), "input": big}})
		q.feed(b)
	}
	if q.pendingBytes > maxPendingBytes+len(big) {
		t.Errorf("%d bytes of commands held, limit %d", q.pendingBytes, maxPendingBytes)
	}
}

// session_index.jsonl is parsed once and kept while its size and mtime
// stay; a change of either is read.
func TestSessionIndexCachedBySizeAndMtime(t *testing.T) {
	h := copyHome(t)
	idx := filepath.Join(h.Dir, "session_index.jsonl")
	write := func(name string, mtime time.Time) {
		writeFile(t, idx, []byte(`{"id":"`+idOld+`","thread_name":"`+name+`","updated_at":"2026-12-02T09:30:00Z"}`+"\n"))
		if err := os.Chtimes(idx, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	m := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	write("Name A", m)
	title := func() string {
		pg, err := h.TranscriptPage(context.Background(), idOld, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return pg.Title
	}
	if got := title(); got != "Name A" {
		t.Fatalf("title %q", got)
	}
	write("Name B", m) // same size, same mtime: the parsed copy is used
	if got := title(); got != "Name A" {
		t.Errorf("title %q: the index was parsed again though size and mtime did not change", got)
	}
	write("Name B", m.Add(time.Second))
	if got := title(); got != "Name B" {
		t.Errorf("title %q after the mtime changed", got)
	}
	write("Name CC", m.Add(time.Second)) // same mtime, other size
	if got := title(); got != "Name CC" {
		t.Errorf("title %q after the size changed", got)
	}
	// A FIFO or a device in its place: names are gone, nothing hangs.
	os.Remove(idx)
	syscall.Mkfifo(idx, 0o644)
	var got SessionList
	var err error
	within(t, 10*time.Second, func() { got, err = h.Sessions(context.Background(), ListOptions{}) })
	if err != nil || len(got.Sessions) != 2 || !strings.Contains(strings.Join(got.Warnings, " "), "named pipe") {
		t.Errorf("listing with a FIFO index: %+v, %v", got, err)
	}
	if got := title(); got != "Theme please" {
		t.Errorf("title %q with a FIFO index", got)
	}
}

// The streaming reader gives what reading the whole file gives.
func TestTranscriptReaderMatchesWholeRead(t *testing.T) {
	for _, tt := range sampleVariants(t) {
		r, err := OpenRollout(context.Background(), tt.path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := r.Header()
		if err != nil || h.ID != tt.id || h.Title != "Theme please" || h.Cwd != "/home/dev/themes/work" || h.Started.IsZero() {
			t.Errorf("%s header %+v, %v", tt.name, h, err)
		}
		var got []Message
		for {
			m, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		r.Close()
		checkMessages(t, got, tt.want)
		if r.Count() != len(tt.want) || r.Truncated() {
			t.Errorf("%s: count %d, truncated %v", tt.name, r.Count(), r.Truncated())
		}
	}
}

// Paging through many sessions keeps the checkpoints of at most
// maxCachedFiles of them: the least recently used one makes room.
func TestPageCacheHoldsABoundedNumberOfFiles(t *testing.T) {
	pageCache.Lock()
	saved := pageCache.files
	pageCache.files = map[string]*fileCheckpoints{}
	pageCache.Unlock()
	t.Cleanup(func() {
		pageCache.Lock()
		pageCache.files = saved
		pageCache.Unlock()
	})
	dir := t.TempDir()
	var first string
	for i := range maxCachedFiles + 3 {
		p := filepath.Join(dir, fmt.Sprintf("rollout-%d.jsonl", i))
		writeFile(t, p, []byte("{}\n"))
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = p
		}
		storeCheckpoints(p, fi, []checkpoint{{n: 1, p: newParser()}})
	}
	pageCache.Lock()
	n, kept := len(pageCache.files), pageCache.files[first] != nil
	pageCache.Unlock()
	if n > maxCachedFiles || kept {
		t.Fatalf("%d files cached (the first still: %v), want at most %d with the least recently used gone", n, kept, maxCachedFiles)
	}
}

// One pathological turn of many distinct messages keeps at most maxPairs of
// them for pairing: memory stays bounded however long the turn is.
func TestPairingRemembersABoundedNumberOfMessages(t *testing.T) {
	p := newParser()
	for i := range maxPairs + 1 {
		p.dedupe(p.fromItems, p.fromEvents, RoleAssistant, fmt.Sprintf("message %d", i), time.Time{})
	}
	if n := len(p.fromItems); n > maxPairs {
		t.Fatalf("%d messages remembered, want at most %d", n, maxPairs)
	}
}
