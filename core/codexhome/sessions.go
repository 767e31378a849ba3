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
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
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
)

// Session is one saved Codex session.
type Session struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	UpdatedAt time.Time `json:"updatedAt"`
	Cwd       string    `json:"cwd"`
	Path      string    `json:"path"` // "" for a session only the agent knows
	Archived  bool      `json:"archived"`

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
	Search        string       // case-insensitive, on title and cwd
	InTranscripts bool         // also match Search against the messages
	Limit         int          // 0 = all
	ACP           []ACPSession // the agent's session/list, merged by id
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
	parsed         bool // the head was read (err tells whether it worked)
	err            error
}

type indexEntry struct {
	Name      string
	UpdatedAt time.Time
}

// Lister lists sessions and remembers what it read, so a re-list stats
// every file but parses only the new and changed ones. Safe for
// concurrent use.
type Lister struct {
	home Home

	mu         sync.Mutex
	files      map[string]*fileHead
	index      map[string]indexEntry
	indexSize  int64
	indexMtime time.Time
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
		out.Sessions = Merge(nil, opts.ACP)
		out.Sessions = filterLimit(ctx, out.Sessions, opts)
		return out, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()

	index, err := l.loadIndex()
	if err != nil {
		out.Warnings = append(out.Warnings, err.Error())
		out.unreadable(l.home, err)
	}
	seen := map[string]bool{}
	var stale []string
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
			seen[path] = true
			fh := l.files[path]
			if fh == nil || fh.size != fi.Size() || !fh.mtime.Equal(fi.ModTime()) {
				l.files[path] = &fileHead{size: fi.Size(), mtime: fi.ModTime(), archived: archived}
				stale = append(stale, path)
			}
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("list sessions: %w", err)
		}
		if ctx.Err() != nil {
			for _, p := range stale {
				delete(l.files, p) // not parsed: must not look fresh next time
			}
			return out, ctx.Err()
		}
	}
	for p := range l.files {
		if !seen[p] {
			delete(l.files, p)
		}
	}
	// A page without a search needs only the newest heads: the rest are
	// read when a search or a longer page asks for them.
	if strings.TrimSpace(opts.Search) == "" && opts.Limit > 0 {
		if err := l.readNewest(ctx, index, opts.Limit); err != nil {
			return out, err
		}
	} else if err := l.readHeads(ctx, l.unread()); err != nil {
		return out, err
	}

	byID := map[string]Session{}
	for path, fh := range l.files {
		if !fh.parsed {
			continue // older than the page asked for
		}
		if fh.err != nil {
			out.Warnings = append(out.Warnings, fh.err.Error())
			continue
		}
		s := Session{
			ID:        firstNonEmpty(fh.id, idFromPath(path)),
			Cwd:       fh.cwd,
			Path:      path,
			Archived:  fh.archived,
			UpdatedAt: fh.mtime,
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
		if old, ok := byID[s.ID]; ok && !s.UpdatedAt.After(old.UpdatedAt) {
			continue
		}
		byID[s.ID] = s
	}
	list := make([]Session, 0, len(byID))
	for _, s := range byID {
		list = append(list, s)
	}
	sort.Strings(out.Warnings)
	out.Sessions = filterLimit(ctx, Merge(list, opts.ACP), opts)
	return out, nil
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
func (l *Lister) readNewest(ctx context.Context, index map[string]indexEntry, limit int) error {
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
	sort.Slice(paths, func(i, j int) bool {
		if !keys[paths[i]].Equal(keys[paths[j]]) {
			return keys[paths[i]].After(keys[paths[j]])
		}
		return paths[i] < paths[j]
	})
	for end := 0; end < len(paths); {
		next := min(len(paths), end+limit)
		var batch []string
		for _, p := range paths[end:next] {
			if !l.files[p].parsed {
				batch = append(batch, p)
			}
		}
		if err := l.readHeads(ctx, batch); err != nil {
			return err
		}
		end = next
		ids := map[string]bool{}
		for _, p := range paths[:end] {
			if fh := l.files[p]; fh != nil && fh.err == nil {
				ids[firstNonEmpty(fh.id, idFromPath(p))] = true
			}
		}
		if len(ids) >= limit {
			break
		}
	}
	return nil
}

// readHeads parses the heads of paths in parallel (listing is I/O bound).
func (l *Lister) readHeads(ctx context.Context, paths []string) error {
	work := make(chan *fileHead)
	var wg sync.WaitGroup
	workers := min(2*runtime.GOMAXPROCS(0), 16, len(paths))
	jobs := make(map[*fileHead]string, len(paths))
	for _, p := range paths {
		jobs[l.files[p]] = p
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fh := range work {
				readHead(jobs[fh], fh)
			}
		}()
	}
	var err error
	for fh := range jobs {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- fh
	}
	close(work)
	wg.Wait()
	if err != nil {
		// Half-read heads must not be trusted next time.
		for _, p := range paths {
			delete(l.files, p)
		}
	}
	return err
}

// readHead fills fh from the start of the rollout: session_meta and the
// first real user message, reading at most headBytes.
func readHead(path string, fh *fileHead) {
	fh.parsed = true
	rf, err := openRolloutBuf(path, 0, headBufSize)
	if err != nil {
		fh.err = err
		return
	}
	defer rf.Close()
	rf.maxLen = headBytes
	p := newParser()
	for rf.off < headBytes && (p.id == "" || p.firstUser == "") {
		raw, _, tooLong, err := rf.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fh.err = err
			}
			break
		}
		if !tooLong {
			p.feed(raw)
		}
	}
	fh.id, fh.cwd, fh.first, fh.last = p.id, p.cwd, p.firstUser, p.last
}

// loadIndex reads session_index.jsonl (cached by size and mtime). The last
// line for an id wins: it is the latest rename.
func (l *Lister) loadIndex() (map[string]indexEntry, error) {
	p := l.home.path("session_index.jsonl")
	fi, err := os.Stat(p)
	if err != nil {
		l.index = nil
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if l.index != nil && fi.Size() == l.indexSize && fi.ModTime().Equal(l.indexMtime) {
		return l.index, nil
	}
	idx, err := readIndex(p)
	if err != nil {
		return nil, err
	}
	l.index, l.indexSize, l.indexMtime = idx, fi.Size(), fi.ModTime()
	return idx, nil
}

func readIndex(path string) (map[string]indexEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return map[string]indexEntry{}, nil
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	idx := map[string]indexEntry{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
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
	if err := sc.Err(); err != nil {
		return idx, fmt.Errorf("read %s: %w", path, err)
	}
	return idx, nil
}

// indexEntry looks up one id in session_index.jsonl.
func (h Home) indexEntry(id string) (indexEntry, bool) {
	if h.Dir == "" {
		return indexEntry{}, false
	}
	idx, _ := readIndex(h.path("session_index.jsonl"))
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
func filterLimit(ctx context.Context, list []Session, opts ListOptions) []Session {
	q := strings.ToLower(strings.TrimSpace(opts.Search))
	out := list[:0:0]
	for _, s := range list {
		if opts.Limit > 0 && len(out) >= opts.Limit {
			break
		}
		if q == "" || matches(ctx, s, q, opts.InTranscripts) {
			out = append(out, s)
		}
	}
	return out
}

func matches(ctx context.Context, s Session, q string, deep bool) bool {
	if strings.Contains(strings.ToLower(s.Title), q) || strings.Contains(strings.ToLower(s.Cwd), q) {
		return true
	}
	if !deep || s.Path == "" {
		return false
	}
	t, err := ReadRollout(ctx, s.Path)
	if err != nil {
		return false
	}
	for _, m := range t.Messages {
		if strings.Contains(strings.ToLower(m.Text), q) {
			return true
		}
		if m.Tool != nil && strings.Contains(strings.ToLower(m.Tool.Output), q) {
			return true
		}
	}
	return false
}
