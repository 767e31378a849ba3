package codexhome

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// ErrNotFound means no rollout file has the requested session id.
var ErrNotFound = errors.New("session not found")

// Transcript is a whole session, readable, held in memory: for small
// sessions and tests. The CLI and the app stream with TranscriptReader.
type Transcript struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Cwd       string    `json:"cwd"`
	Messages  []Message `json:"messages"`
	Skipped   int       `json:"skipped,omitempty"`   // lines that did not parse
	Truncated bool      `json:"truncated,omitempty"` // cut at MaxUnpacked
	Started   time.Time `json:"-"`
	Path      string    `json:"-"`
}

// TranscriptPage is a window of a transcript's messages.
type TranscriptPage struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	Cwd        string    `json:"cwd"`
	Messages   []Message `json:"messages"`
	Offset     int       `json:"offset"`
	NextOffset int       `json:"nextOffset"`
	Done       bool      `json:"done"`
	Skipped    int       `json:"skipped"` // lines that did not parse, up to this page's end
	// Truncated says the session is too large to show whole: it ends
	// here (Done) at MaxUnpacked of unpacked content.
	Truncated bool `json:"truncated"`
}

// Header is what a transcript says about itself before its messages.
type Header struct {
	ID      string
	Title   string
	Cwd     string
	Started time.Time // session_meta's time, else the first message's
	Path    string
}

// TranscriptReader streams a rollout's messages in order, holding one at
// a time (and a bounded read-ahead while looking for the title), so
// memory stays flat whatever the session's size.
type TranscriptReader struct {
	ctx        context.Context
	path       string
	rf         *rolloutFile
	p          *parser
	ahead      []Message // read while looking for the title
	aheadBytes int
	tail       []Message // calls that never got a result, after the last line
	eof        bool
	lines      int
	title      string // from session_index.jsonl, when the session was named
	count      int
}

// The read-ahead that looks for the first user message (the title) stops
// at whichever comes first.
const (
	maxAhead      = 256
	maxAheadBytes = 4 << 20
)

// OpenRollout opens a rollout file (.jsonl or .jsonl.zst) for streaming.
func OpenRollout(ctx context.Context, path string) (*TranscriptReader, error) {
	rf, err := openRollout(path, 0)
	if err != nil {
		return nil, err
	}
	return &TranscriptReader{ctx: ctx, path: path, rf: rf, p: newParser()}, nil
}

// SetTitle names the transcript (a title the user gave the session in the
// app wins over Codex's own).
func (r *TranscriptReader) SetTitle(title string) { r.title = title }

// Close releases the file.
func (r *TranscriptReader) Close() error { return r.rf.Close() }

// Header reads ahead (bounded) until the first user message, which makes
// the title, and returns what is known.
func (r *TranscriptReader) Header() (Header, error) {
	for !r.eof && r.p.firstUser == "" && len(r.ahead) < maxAhead && r.aheadBytes < maxAheadBytes {
		m, err := r.pull()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Header{}, err
		}
		r.ahead = append(r.ahead, m)
		r.aheadBytes += len(m.Text)
		if m.Tool != nil {
			r.aheadBytes += len(m.Tool.Output)
		}
	}
	h := Header{
		ID:      firstNonEmpty(r.p.id, idFromPath(r.path)),
		Title:   firstNonEmpty(r.title, ShortTitle(r.p.firstUser)),
		Cwd:     r.p.cwd,
		Started: r.p.started,
		Path:    r.path,
	}
	if h.Started.IsZero() && len(r.ahead) > 0 {
		h.Started = r.ahead[0].Time
	}
	return h, nil
}

// Next returns the next message; io.EOF after the last.
func (r *TranscriptReader) Next() (Message, error) {
	if len(r.ahead) > 0 {
		m := r.ahead[0]
		r.ahead[0] = Message{}
		r.ahead = r.ahead[1:]
		r.count++
		return m, nil
	}
	m, err := r.pull()
	if err == nil {
		r.count++
	}
	return m, err
}

// Count is how many messages Next has returned.
func (r *TranscriptReader) Count() int { return r.count }

// Skipped is how many lines did not parse, so far.
func (r *TranscriptReader) Skipped() int { return r.p.skipped }

// Truncated says the transcript ended at MaxUnpacked, not at its end.
func (r *TranscriptReader) Truncated() bool { return r.rf.truncated() }

// pull parses lines until the next message.
func (r *TranscriptReader) pull() (Message, error) {
	for !r.eof {
		if r.lines%4096 == 0 && r.ctx.Err() != nil {
			return Message{}, r.ctx.Err()
		}
		r.lines++
		raw, _, tooLong, err := r.rf.next()
		if errors.Is(err, io.EOF) {
			r.eof = true
			r.tail = r.p.flush()
			break
		}
		if err != nil {
			return Message{}, err
		}
		if tooLong {
			r.p.skipped++
			continue
		}
		if m := r.p.feed(raw); m != nil {
			return *m, nil
		}
	}
	if len(r.tail) > 0 {
		m := r.tail[0]
		r.tail = r.tail[1:]
		return m, nil
	}
	return Message{}, io.EOF
}

// ReadRollout parses a whole rollout file (.jsonl or .jsonl.zst) into
// memory. Lines that do not parse are counted in Skipped; only I/O errors
// fail.
func ReadRollout(ctx context.Context, path string) (Transcript, error) {
	r, err := OpenRollout(ctx, path)
	if err != nil {
		return Transcript{}, err
	}
	defer r.Close()
	return r.collect()
}

func (r *TranscriptReader) collect() (Transcript, error) {
	h, err := r.Header()
	if err != nil {
		return Transcript{}, err
	}
	msgs := []Message{}
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Transcript{}, err
		}
		msgs = append(msgs, m)
	}
	return Transcript{
		ID:        h.ID,
		Title:     firstNonEmpty(r.title, ShortTitle(r.p.firstUser)),
		Cwd:       h.Cwd,
		Messages:  msgs,
		Skipped:   r.Skipped(),
		Truncated: r.Truncated(),
		Started:   r.p.started,
		Path:      r.path,
	}, nil
}

// checkpoint is parser state right after message n-1 was produced, and the
// byte offset of the line after it: a paged read resumes from here.
type checkpoint struct {
	n   int
	off int64
	p   *parser
}

type fileCheckpoints struct {
	size  int64
	mtime time.Time
	cps   []checkpoint // sorted by n
	used  time.Time
}

// pageCache remembers checkpoints for the last few rollouts opened, so
// paging forward through a 100 MB file never re-reads what came before.
var pageCache = struct {
	sync.Mutex
	files map[string]*fileCheckpoints
}{files: map[string]*fileCheckpoints{}}

const (
	maxCachedFiles  = 16
	checkpointEvery = 256 // messages between remembered points within a page
)

func cachedCheckpoint(path string, fi fs.FileInfo, offset int) checkpoint {
	pageCache.Lock()
	defer pageCache.Unlock()
	fc := pageCache.files[path]
	// Rollouts are append-only: checkpoints stay valid while the file only
	// grows. A shrink or same-size rewrite invalidates them.
	if fc == nil || fi.Size() < fc.size || (fi.Size() == fc.size && !fi.ModTime().Equal(fc.mtime)) {
		return checkpoint{p: newParser()}
	}
	fc.used = time.Now()
	best := checkpoint{p: newParser()}
	for _, c := range fc.cps {
		if c.n > offset {
			break
		}
		best = c
	}
	best.p = best.p.clone()
	return best
}

func storeCheckpoints(path string, fi fs.FileInfo, cps []checkpoint) {
	pageCache.Lock()
	defer pageCache.Unlock()
	fc := pageCache.files[path]
	if fc == nil || fi.Size() < fc.size || (fi.Size() == fc.size && !fi.ModTime().Equal(fc.mtime)) {
		if len(pageCache.files) >= maxCachedFiles {
			var oldest string
			for k, v := range pageCache.files {
				if oldest == "" || v.used.Before(pageCache.files[oldest].used) {
					oldest = k
				}
			}
			delete(pageCache.files, oldest)
		}
		fc = &fileCheckpoints{}
		pageCache.files[path] = fc
	}
	fc.size, fc.mtime, fc.used = fi.Size(), fi.ModTime(), time.Now()
	for _, c := range cps {
		i := sort.Search(len(fc.cps), func(i int) bool { return fc.cps[i].n >= c.n })
		if i < len(fc.cps) && fc.cps[i].n == c.n {
			continue
		}
		fc.cps = append(fc.cps, checkpoint{})
		copy(fc.cps[i+1:], fc.cps[i:])
		fc.cps[i] = c
	}
}

// ReadRolloutPage returns messages [offset, offset+limit) of a rollout.
// It resumes from the nearest remembered point, so the first page of a
// huge file reads only its head and later pages continue where the last
// one stopped. limit <= 0 means 100.
func ReadRolloutPage(ctx context.Context, path string, offset, limit int) (TranscriptPage, error) {
	if offset < 0 {
		return TranscriptPage{}, fmt.Errorf("read %s: negative offset %d", path, offset)
	}
	if limit <= 0 {
		limit = 100
	}
	fi, err := os.Stat(path)
	if err != nil {
		return TranscriptPage{}, fmt.Errorf("read rollout: %w", err)
	}
	start := cachedCheckpoint(path, fi, offset)
	rf, err := openRollout(path, start.off)
	if err != nil {
		return TranscriptPage{}, err
	}
	defer rf.Close()
	p := start.p
	page := TranscriptPage{Offset: offset, Messages: []Message{}}
	var newCps []checkpoint
	end := offset + limit
	eof := false
	// Read until one message past the page (to know whether it is the last)
	// or the end of the file.
	for n := 0; p.emitted <= end; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return TranscriptPage{}, ctx.Err()
		}
		raw, lineEnd, tooLong, err := rf.next()
		if errors.Is(err, io.EOF) {
			eof = true
			break
		}
		if err != nil {
			return TranscriptPage{}, err
		}
		if tooLong {
			p.skipped++
			continue
		}
		m := p.feed(raw)
		if m == nil {
			continue
		}
		idx := p.emitted - 1
		if idx >= offset && idx < end {
			page.Messages = append(page.Messages, *m)
		}
		if p.emitted == end || (p.emitted > offset && p.emitted%checkpointEvery == 0) {
			newCps = append(newCps, checkpoint{n: p.emitted, off: lineEnd, p: p.clone()})
		}
	}
	page.Truncated = eof && rf.truncated()
	if eof {
		// Calls that never got a result come last.
		for _, m := range p.flush() {
			idx := p.emitted
			p.emitted++
			if idx >= offset && idx < end {
				page.Messages = append(page.Messages, m)
			}
		}
		page.Done = p.emitted <= end
	}
	storeCheckpoints(path, fi, newCps)
	page.ID = firstNonEmpty(p.id, idFromPath(path))
	page.Title = ShortTitle(p.firstUser)
	page.Cwd = p.cwd
	page.NextOffset = offset + len(page.Messages)
	page.Skipped = p.skipped
	return page, nil
}

// FindRollout returns the rollout file of session id, searching sessions/
// then archived_sessions/. A file name ends with the session's uuid.
func (h Home) FindRollout(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
		return "", fmt.Errorf("find session %q: invalid id", id)
	}
	if h.Dir == "" {
		return "", fmt.Errorf("find session %s: %w", id, ErrNotFound)
	}
	var found string
	for _, sub := range []string{"sessions", "archived_sessions"} {
		root := h.path(sub)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable folder: keep looking elsewhere
			}
			if d.IsDir() {
				return nil
			}
			if isRollout(d.Name()) && idFromPath(d.Name()) == id {
				found = path
				return fs.SkipAll
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("find session %s: %w", id, err)
		}
		if found != "" {
			return found, nil
		}
	}
	return "", fmt.Errorf("find session %s: %w", id, ErrNotFound)
}

// OpenTranscript opens session id's transcript for streaming; the title
// comes from session_index.jsonl when the session was named.
func (h Home) OpenTranscript(ctx context.Context, id string) (*TranscriptReader, error) {
	path, err := h.FindRollout(id)
	if err != nil {
		return nil, err
	}
	r, err := OpenRollout(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	if e, ok := h.indexEntry(id); ok {
		r.title = e.Name
	}
	return r, nil
}

// Transcript reads session id's whole transcript into memory (see
// Transcript).
func (h Home) Transcript(ctx context.Context, id string) (Transcript, error) {
	r, err := h.OpenTranscript(ctx, id)
	if err != nil {
		return Transcript{}, err
	}
	defer r.Close()
	t, err := r.collect()
	if err != nil {
		return Transcript{}, fmt.Errorf("load session %s: %w", id, err)
	}
	return t, nil
}

// TranscriptPage reads one page of session id's transcript.
func (h Home) TranscriptPage(ctx context.Context, id string, offset, limit int) (TranscriptPage, error) {
	path, err := h.FindRollout(id)
	if err != nil {
		return TranscriptPage{}, err
	}
	pg, err := ReadRolloutPage(ctx, path, offset, limit)
	if err != nil {
		return TranscriptPage{}, fmt.Errorf("load session %s: %w", id, err)
	}
	if e, ok := h.indexEntry(id); ok {
		pg.Title = e.Name
	}
	return pg, nil
}

// isRollout reports whether a file name is a rollout.
func isRollout(name string) bool {
	return strings.HasPrefix(name, "rollout-") &&
		(strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zst"))
}

// idFromPath takes the session uuid from a rollout file name
// (rollout-<timestamp>-<uuid>.jsonl[.zst]).
func idFromPath(path string) string {
	name := filepath.Base(path)
	name = strings.TrimSuffix(name, ".zst")
	name = strings.TrimSuffix(name, ".jsonl")
	if len(name) < 36 {
		return ""
	}
	id := name[len(name)-36:]
	if strings.Count(id, "-") != 4 || id[8] != '-' || id[13] != '-' {
		return ""
	}
	return id
}

// ShortTitle makes a one-line title (~80 characters) from a message.
func ShortTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const max = 80
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := string(r[:max-1])
	if i := strings.LastIndex(cut, " "); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}
