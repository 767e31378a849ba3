package codexhome

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/fsread"
)

// headBytes bounds how much of a rollout a listing reads: enough for
// session_meta (with its long base instructions) and the first user turn.
const headBytes = 512 << 10

// Where a session's title came from, strongest first.
const (
	titleNone = iota
	titleMessage
	titleACP
	titleIndex
	titleUser // the app's own rename (ListOptions.Titles)
)

// Session is one saved Codex session.
type Session struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
	Cwd       string    `json:"cwd"`
	Path      string    `json:"path"` // "" for a session only the agent knows
	Archived  bool      `json:"archived"`
	// Internal: a sub-agent session Codex started itself (a review, a
	// guardian), listed only with ListOptions.ShowInternal.
	Internal bool `json:"internal,omitempty"`
	// Hidden: the user hid it in the app (ListOptions.Hidden).
	Hidden bool `json:"hidden,omitempty"`
	// Unreadable says why the file is not a readable rollout; such a
	// session can be neither opened nor resumed.
	Unreadable string `json:"unreadable,omitempty"`

	titleFrom int
}

// SessionList is a listing, newest first.
type SessionList struct {
	Sessions []Session `json:"sessions"`
	Hint     string    `json:"hint"`
	// HintCode (one of the Hint* codes) and HintDir say the same for a UI.
	HintCode string `json:"hintCode,omitempty"`
	HintDir  string `json:"hintDir,omitempty"`
	// Warnings are problems worth logging (unreadable files); never fatal.
	Warnings []string `json:"-"`
}

// ListOptions narrows a listing.
type ListOptions struct {
	Search string       // case-insensitive, on title and cwd
	Limit  int          // 0 = all
	ACP    []ACPSession // the agent's session/list, merged by id
	// Titles are the user's own names for sessions (kept by the app, not
	// in CODEX_HOME); they win over every other title.
	Titles map[string]string
	// Hidden sessions (the app's own list) are left out unless ShowHidden.
	Hidden     map[string]bool
	ShowHidden bool
	// ShowInternal lists sub-agent sessions too.
	ShowInternal bool
}

// shows reports whether opts lists a session with these flags.
func (opts ListOptions) shows(internal, hidden bool) bool {
	return (opts.ShowInternal || !internal) && (opts.ShowHidden || !hidden)
}

// ACPSession is one entry of an ACP session/list answer.
type ACPSession struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title"`
	UpdatedAt string `json:"updatedAt"`
}

// fileHead is what a listing learns from one rollout, cached by size and
// modification time.
type fileHead struct {
	size           int64
	mtime          time.Time
	id, cwd, first string
	last           time.Time
	archived       bool
	internal       bool
	parsed         bool // the head was read (err tells whether it worked)
	err            error
	unreadable     string // why the file is no rollout ("" when it is)
}

type indexEntry struct {
	Name      string
	UpdatedAt time.Time
}

// Lister lists sessions and remembers what it read, so a re-list stats
// every file but parses only the new and changed ones. Safe for
// concurrent use: its lock guards the cache only and is never held while
// a file is read, so one slow file cannot stall another caller.
type Lister struct {
	home Home

	mu    sync.Mutex
	files map[string]*fileHead
}

// NewLister returns a Lister for h with an empty cache.
func NewLister(h Home) *Lister {
	return &Lister{home: h, files: map[string]*fileHead{}}
}

// Sessions lists h's sessions once, without a cache to keep.
func (h Home) Sessions(ctx context.Context, opts ListOptions) (SessionList, error) {
	return NewLister(h).List(ctx, opts)
}

// List scans sessions/ and archived_sessions/ and returns the sessions,
// newest first. A missing home gives an empty list and a Hint.
func (l *Lister) List(ctx context.Context, opts ListOptions) (SessionList, error) {
	out := SessionList{Sessions: []Session{}, Hint: l.home.Hint()}
	if out.Hint != "" {
		out.HintCode, out.HintDir = HintNoHome, l.home.hintDir()
		out.Sessions = overlay(Merge(nil, opts.ACP), opts)
		out.Sessions = filterLimit(ctx, out.Sessions, opts)
		return out, nil
	}
	index, err := l.home.sessionIndex()
	if err != nil {
		out.Warnings = append(out.Warnings, err.Error())
		out.unreadable(l.home, err)
	}
	type found struct {
		fi       fs.FileInfo
		archived bool
	}
	seen := map[string]found{}
	for _, sub := range []string{"sessions", "archived_sessions"} {
		archived := sub == "archived_sessions"
		err := filepath.WalkDir(l.home.path(sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					out.Warnings = append(out.Warnings, err.Error())
					out.unreadable(l.home, err)
				}
				return nil
			}
			if d.IsDir() || !isRollout(d.Name()) {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil // vanished between readdir and stat
			}
			seen[path] = found{fi, archived}
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("list sessions: %w", err)
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	l.mu.Lock()
	for p, f := range seen {
		fh := l.files[p]
		if fh == nil || fh.size != f.fi.Size() || !fh.mtime.Equal(f.fi.ModTime()) {
			l.files[p] = &fileHead{size: f.fi.Size(), mtime: f.fi.ModTime(), archived: f.archived}
		}
	}
	for p := range l.files {
		if _, ok := seen[p]; !ok {
			delete(l.files, p)
		}
	}
	l.mu.Unlock()
	// A page without a search needs only the newest heads: the rest are
	// read when a search or a longer page asks for them.
	if strings.TrimSpace(opts.Search) == "" && opts.Limit > 0 {
		if err := l.readNewest(ctx, index, opts); err != nil {
			return out, err
		}
	} else if err := l.readHeads(ctx, l.unread()); err != nil {
		return out, err
	}

	byID := map[string]Session{}
	l.mu.Lock()
	for path, fh := range l.files {
		if !fh.parsed {
			continue // older than the page asked for
		}
		if fh.err != nil {
			out.Warnings = append(out.Warnings, fh.err.Error())
		}
		s := Session{
			ID:         firstNonEmpty(fh.id, idFromPath(path)),
			Cwd:        fh.cwd,
			Path:       path,
			Archived:   fh.archived,
			UpdatedAt:  fh.mtime,
			Internal:   fh.internal,
			Unreadable: fh.unreadable,
		}
		if s.ID == "" {
			s.ID = path // an unreadable file without a uuid in its name still needs a key
		}
		if fh.last.After(s.UpdatedAt) {
			s.UpdatedAt = fh.last
		}
		if e, ok := index[s.ID]; ok {
			if e.UpdatedAt.After(s.UpdatedAt) {
				s.UpdatedAt = e.UpdatedAt
			}
			if e.Name != "" {
				s.Title, s.titleFrom = e.Name, titleIndex
			}
		}
		if s.titleFrom == titleNone && fh.first != "" {
			s.Title, s.titleFrom = ShortTitle(fh.first), titleMessage
		}

		// The same id twice (a copy left in sessions/ after archiving):
		// keep the newer file.
		if old, ok := byID[s.ID]; ok && (!s.UpdatedAt.After(old.UpdatedAt) || (s.Unreadable != "" && old.Unreadable == "")) {
			continue
		}
		byID[s.ID] = s
	}
	l.mu.Unlock()
	list := make([]Session, 0, len(byID))
	for _, s := range byID {
		list = append(list, s)
	}
	sort.Strings(out.Warnings)
	out.Sessions = filterLimit(ctx, overlay(Merge(list, opts.ACP), opts), opts)
	return out, nil
}

// overlay applies the app's own titles and hidden list, and leaves out
// what opts does not show.
func overlay(list []Session, opts ListOptions) []Session {
	out := list[:0]
	for _, s := range list {
		if name := strings.TrimSpace(opts.Titles[s.ID]); name != "" {
			s.Title, s.titleFrom = ShortTitle(name), titleUser
		}
		s.Hidden = opts.Hidden[s.ID]
		if opts.shows(s.Internal, s.Hidden) {
			out = append(out, s)
		}
	}
	return out
}

// unreadable sets the hint for a permission error, unless one is set.
func (s *SessionList) unreadable(h Home, err error) {
	if s.Hint != "" {
		return
	}
	if s.Hint = unreadableHint(h.Dir, err); s.Hint != "" {
		s.HintCode, s.HintDir = HintHomeUnreadable, h.hintDir()
	}
}

// unreadableHint tells the user why a listing came back empty when the
// folder exists but cannot be read; other errors stay warnings in the log.
func unreadableHint(dir string, err error) string {
	if !errors.Is(err, fs.ErrPermission) {
		return ""
	}
	return fmt.Sprintf("The Codex home at %s is not readable (%v); check its permissions", dir, err)
}

// unread lists the files whose heads have not been parsed yet.
func (l *Lister) unread() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var paths []string
	for p, fh := range l.files {
		if !fh.parsed {
			paths = append(paths, p)
		}
	}
	return paths
}

// readNewest parses heads newest first, by what is known without reading
// them (file time, the index's updated_at), until limit distinct sessions
// are known: Home's first page of 10,000 sessions costs 50 reads, not 10,000.
// What a head adds (timestamps inside the file) is written before the file's
// mtime, so the page matches the one reading every head would give.
func (l *Lister) readNewest(ctx context.Context, index map[string]indexEntry, opts ListOptions) error {
	limit := opts.Limit
	l.mu.Lock()
	paths := make([]string, 0, len(l.files))
	keys := make(map[string]time.Time, len(l.files))
	for p, fh := range l.files {
		k := fh.mtime
		if e, ok := index[idFromPath(p)]; ok && e.UpdatedAt.After(k) {
			k = e.UpdatedAt
		}
		paths = append(paths, p)
		keys[p] = k
	}
	l.mu.Unlock()
	sort.Slice(paths, func(i, j int) bool {
		if !keys[paths[i]].Equal(keys[paths[j]]) {
			return keys[paths[i]].After(keys[paths[j]])
		}
		return paths[i] < paths[j]
	})
	for end := 0; end < len(paths); {
		next := min(len(paths), end+limit)
		var batch []string
		l.mu.Lock()
		for _, p := range paths[end:next] {
			if fh := l.files[p]; fh != nil && !fh.parsed {
				batch = append(batch, p)
			}
		}
		l.mu.Unlock()
		if err := l.readHeads(ctx, batch); err != nil {
			return err
		}
		end = next
		ids := map[string]bool{}
		l.mu.Lock()
		for _, p := range paths[:end] {
			if fh := l.files[p]; fh != nil {
				id := firstNonEmpty(fh.id, idFromPath(p), p)
				if opts.shows(fh.internal, opts.Hidden[id]) {
					ids[id] = true
				}
			}
		}
		l.mu.Unlock()
		if len(ids) >= limit {
			break
		}
	}
	return nil
}

// readHeads parses the heads of paths in parallel (listing is I/O bound),
// without the lock; each result is stored only if the file's entry is
// still the one it was read for.
func (l *Lister) readHeads(ctx context.Context, paths []string) error {
	type job struct {
		path  string
		entry *fileHead // the entry the head is read for
		got   fileHead
	}
	l.mu.Lock()
	jobs := make([]*job, 0, len(paths))
	for _, p := range paths {
		if fh := l.files[p]; fh != nil {
			jobs = append(jobs, &job{path: p, entry: fh})
		}
	}
	l.mu.Unlock()
	work := make(chan *job)
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), 16, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				readHead(j.path, &j.got)
			}
		}()
	}
	var err error
	sent := 0
	for _, j := range jobs {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- j
		sent++
	}
	close(work)
	wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	// Heads not read (a cancel) stay unparsed and are read next time.
	for _, j := range jobs[:sent] {
		if l.files[j.path] != j.entry {
			continue // the file changed meanwhile; its new entry is unread
		}
		fh := j.entry
		fh.parsed, fh.err = true, j.got.err
		fh.id, fh.cwd, fh.first, fh.last = j.got.id, j.got.cwd, j.got.first, j.got.last
		fh.internal, fh.unreadable = j.got.internal, j.got.unreadable
	}
	return err
}

// readHead fills fh from the start of the rollout: session_meta and the
// first real user message, reading at most headBytes however the file
// looks (no newline for gigabytes, a compression bomb).
func readHead(path string, fh *fileHead) {
	rf, err := openRolloutBuf(path, 0, headBufSize, headBytes)
	if err != nil {
		fh.err = err
		fh.unreadable = reason(err)
		return
	}
	defer rf.Close()
	rf.maxLen = headBytes
	p := newParser()
	for p.id == "" || p.firstUser == "" {
		raw, _, tooLong, err := rf.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fh.err = err
				fh.unreadable = reason(err)
			}
			break
		}
		if !tooLong {
			p.feed(raw)
		}
	}
	fh.id, fh.cwd, fh.first, fh.last, fh.internal = p.id, p.cwd, p.firstUser, p.last, p.internal
	// Codex writes session_meta first; a head without it (and without a
	// single message) is not a rollout: garbage, a torn copy, another file.
	if fh.unreadable == "" && !p.meta && p.emitted == 0 {
		switch {
		case rf.off == 0:
			fh.unreadable = "the file is empty"
		case p.skipped > 0:
			fh.unreadable = fmt.Sprintf("not a Codex rollout: %d lines that are not JSON and no session_meta", p.skipped)
		default:
			fh.unreadable = "not a Codex rollout: no session_meta line"
		}
	}
}

// reason words an I/O error for the list, without the path it repeats.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// maxIndex bounds session_index.jsonl (a line per named session, ~150
// bytes: this is some 400,000 names).
const maxIndex = 64 << 20

// indexCache keeps each session_index.jsonl parsed, by path, until its
// size or modification time changes: listings and every transcript look
// names up there. The lock is never held while the file is read.
var indexCache = struct {
	sync.Mutex
	byPath map[string]*parsedIndex
}{byPath: map[string]*parsedIndex{}}

type parsedIndex struct {
	size    int64
	mtime   time.Time
	entries map[string]indexEntry // never modified once stored
}

// sessionIndex returns session_index.jsonl's entries by id (the last line
// for an id wins: it is the latest rename). A missing file is no entries;
// an unreadable one is an error and what could be read.
func (h Home) sessionIndex() (map[string]indexEntry, error) {
	if h.Dir == "" {
		return nil, nil
	}
	p := h.path("session_index.jsonl")
	f, fi, err := fsread.Open(p, fsread.Follow)
	if err != nil {
		indexCache.Lock()
		delete(indexCache.byPath, p)
		indexCache.Unlock()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	indexCache.Lock()
	c := indexCache.byPath[p]
	indexCache.Unlock()
	if c != nil && c.size == fi.Size() && c.mtime.Equal(fi.ModTime()) {
		return c.entries, nil
	}
	if fi.Size() > maxIndex {
		return nil, fmt.Errorf("read %s: %w (%s; the limit is %s); session names from it are not shown",
			p, fsread.ErrTooLarge, fsread.Size(fi.Size()), fsread.Size(maxIndex))
	}
	idx, err := parseIndex(io.LimitReader(f, maxIndex))
	if err != nil {
		return idx, fmt.Errorf("read %s: %w", p, err)
	}
	indexCache.Lock()
	indexCache.byPath[p] = &parsedIndex{size: fi.Size(), mtime: fi.ModTime(), entries: idx}
	indexCache.Unlock()
	return idx, nil
}

func parseIndex(r io.Reader) (map[string]indexEntry, error) {
	idx := map[string]indexEntry{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e struct {
			ID         string `json:"id"`
			ThreadName string `json:"thread_name"`
			UpdatedAt  string `json:"updated_at"`
		}
		if json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &e) != nil || e.ID == "" {
			continue // a torn or foreign line; the rest still counts
		}
		t, _ := time.Parse(time.RFC3339Nano, e.UpdatedAt)
		idx[e.ID] = indexEntry{Name: strings.TrimSpace(e.ThreadName), UpdatedAt: t}
	}
	return idx, sc.Err()
}

// indexEntry looks up one id in session_index.jsonl.
func (h Home) indexEntry(id string) (indexEntry, bool) {
	idx, _ := h.sessionIndex()
	e, ok := idx[id]
	return e, ok && e.Name != ""
}

// Merge folds the agent's session/list into a disk listing, keyed by id.
// A disk entry keeps its path; the agent's title replaces one guessed from
// the first message (an index title wins over both); a missing cwd is
// filled; the newer time wins. Sessions only the agent knows are added
// without a path. The result is newest first.
func Merge(disk []Session, acp []ACPSession) []Session {
	out := make([]Session, 0, len(disk)+len(acp))
	pos := make(map[string]int, len(disk))
	for _, s := range disk {
		if i, ok := pos[s.ID]; ok {
			if s.UpdatedAt.After(out[i].UpdatedAt) {
				out[i] = s
			}
			continue
		}
		pos[s.ID] = len(out)
		out = append(out, s)
	}
	for _, a := range acp {
		if a.SessionID == "" {
			continue
		}
		t, _ := time.Parse(time.RFC3339Nano, a.UpdatedAt)
		title := strings.TrimSpace(a.Title)
		i, ok := pos[a.SessionID]
		if !ok {
			s := Session{ID: a.SessionID, Cwd: a.Cwd, UpdatedAt: t}
			if title != "" {
				s.Title, s.titleFrom = ShortTitle(title), titleACP
			}
			pos[a.SessionID] = len(out)
			out = append(out, s)
			continue
		}
		s := &out[i]
		if title != "" && s.titleFrom < titleACP {
			s.Title, s.titleFrom = ShortTitle(title), titleACP
		}
		if s.Cwd == "" {
			s.Cwd = a.Cwd
		}
		if t.After(s.UpdatedAt) {
			s.UpdatedAt = t
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// filterLimit applies Search and Limit to a newest-first list.
func filterLimit(_ context.Context, list []Session, opts ListOptions) []Session {
	q := strings.ToLower(strings.TrimSpace(opts.Search))
	out := list[:0:0]
	for _, s := range list {
		if opts.Limit > 0 && len(out) >= opts.Limit {
			break
		}
		if q == "" || Matches(s, q) {
			out = append(out, s)
		}
	}
	return out
}

// Matches reports whether a session's title or folder contains q, which
// must be lower case already.
func Matches(s Session, q string) bool {
	return strings.Contains(strings.ToLower(s.Title), q) || strings.Contains(strings.ToLower(s.Cwd), q)
}
