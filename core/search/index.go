// Package search is the full-text index over the user and assistant text
// of every Codex rollout: SQLite FTS5 (through the pure-Go driver, so the
// binary needs no cgo) in a file under the app's cache dir, never in
// CODEX_HOME. It is built once and then kept current file by file: only
// rollouts whose size or modification time changed are read again, and
// those that disappeared are dropped.
package search

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/paths"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// schemaVersion is kept in PRAGMA user_version; an index of another
// version is rebuilt from scratch (it only holds what the rollouts hold).
const schemaVersion = 6 // 6: a prompt's <hand-edits> note is no longer indexed as the user's words

// Bounds on what one rollout may put into the index: a hostile or giant
// session must not make the index (or a query's snippet) unbounded.
const (
	maxMessageText = 32 << 10 // bytes of one message that are indexed
	maxFileText    = 8 << 20  // bytes of one rollout that are indexed
)

// fileBits: a message's rowid is its file's number << fileBits plus its
// index in the transcript, so a query can group its matches by file inside
// SQLite (rowid >> fileBits) instead of handing every match to Go. Messages
// past the 2^fileBits-th of one rollout are not indexed.
const fileBits = 20

// Snippet markers: control characters, which are stripped from indexed
// text, so text from a rollout can never fake a highlight.
const (
	markOpen  = "\x02"
	markClose = "\x03"
)

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
	path TEXT PRIMARY KEY,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	session TEXT NOT NULL,
	base INTEGER NOT NULL, -- the rowid of the file's message 0: its number << fileBits
	count INTEGER NOT NULL -- rowids base .. base+count-1 belong to it
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
	text, role UNINDEXED,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
-- One row per rollout (rowid = its number) holding all of its words: which
-- sessions match is answered by at most one row per session, however often
-- a common word occurs. Contentless: the text is kept once, in fts.
CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(
	text, content = '', contentless_delete = 1,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
`

// Index is an open search index. Safe for concurrent use; one Update runs
// at a time, queries run beside it.
type Index struct {
	db   *sql.DB
	home codexhome.Home
	path string

	update sync.Mutex

	mu      sync.Mutex
	gen     string              // meta "gen" when files was cached
	ranges  map[int64]fileRange // by base
	partial bool                // the first build has not finished yet
}

// fileRange is one row of files, as queries map rowids back to sessions.
type fileRange struct {
	base, count int64
	session     string
	path        string
}

// Path is where the index of home lives: one file per Codex home under the
// app's cache dir.
func Path(home codexhome.Home) string {
	sum := sha256.Sum256([]byte(home.Dir))
	return filepath.Join(paths.CacheDir(), "search", hex.EncodeToString(sum[:8])+".db")
}

// Open opens (creating if needed) the index at path for home. An index
// that cannot be read or has another schema is thrown away and rebuilt:
// it is only a cache.
func Open(ctx context.Context, path string, home codexhome.Home) (*Index, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open search index: %w", err)
	}
	ix, err := open(ctx, path, home)
	if err == nil {
		return ix, nil
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if rerr := os.Remove(path + suffix); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return nil, fmt.Errorf("open search index: %w (and it cannot be removed: %v)", err, rerr)
		}
	}
	return open(ctx, path, home)
}

func open(ctx context.Context, path string, home codexhome.Home) (*Index, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open search index %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	ix := &Index{db: db, home: home, path: path}
	if err := ix.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open search index %s: %w", path, err)
	}
	return ix, nil
}

func (ix *Index) init(ctx context.Context) error {
	var v int
	if err := ix.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v != 0 && v != schemaVersion {
		return fmt.Errorf("schema version %d, want %d", v, schemaVersion)
	}
	if _, err := ix.db.ExecContext(ctx, schema); err != nil {
		return err
	}
	if _, err := ix.db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	var home string
	err := ix.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'home'").Scan(&home)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = ix.db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES ('home', ?), ('next', '1'), ('gen', '0'), ('built', '0')", ix.home.Dir)
		return err
	case err != nil:
		return err
	case home != ix.home.Dir:
		return fmt.Errorf("the index is of %s, not %s", home, ix.home.Dir)
	}
	return nil
}

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

// File is the index's file on disk.
func (ix *Index) File() string { return ix.path }

// Built reports whether a first build has finished, so queries see every
// rollout (else they see the part indexed so far).
func (ix *Index) Built(ctx context.Context) bool {
	var v string
	err := ix.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'built'").Scan(&v)
	return err == nil && v == "1"
}

// Progress is how far an Update got.
type Progress struct {
	Done  int  `json:"done"`  // changed files handled so far
	Total int  `json:"total"` // changed files to handle
	First bool `json:"first"` // the first build (queries see only part of the sessions)
}

// Stats sums up an Update.
type Stats struct {
	Files    int // rollouts on disk
	Indexed  int // read (new or changed)
	Removed  int // gone from disk, dropped
	Failed   int // could not be read; kept out until they change
	Messages int // messages written
}

type onDisk struct {
	size  int64
	mtime int64
}

// Update brings the index up to date with the rollouts on disk. progress,
// when set, is called as files are handled. A cancelled Update keeps what
// it committed; the next one goes on from there.
func (ix *Index) Update(ctx context.Context, progress func(Progress)) (Stats, error) {
	ix.update.Lock()
	defer ix.update.Unlock()
	var st Stats
	disk, err := ix.scan()
	if err != nil {
		return st, err
	}
	st.Files = len(disk)
	known := map[string]onDisk{}
	rows, err := ix.db.QueryContext(ctx, "SELECT path, size, mtime FROM files")
	if err != nil {
		return st, fmt.Errorf("update search index: %w", err)
	}
	for rows.Next() {
		var p string
		var d onDisk
		if err := rows.Scan(&p, &d.size, &d.mtime); err != nil {
			rows.Close()
			return st, fmt.Errorf("update search index: %w", err)
		}
		known[p] = d
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("update search index: %w", err)
	}
	var gone, changed []string
	for p := range known {
		if _, ok := disk[p]; !ok {
			gone = append(gone, p)
		}
	}
	for p, d := range disk {
		if k, ok := known[p]; !ok || k != d {
			changed = append(changed, p)
		}
	}
	first := !ix.Built(ctx)
	prog := Progress{Total: len(changed), First: first}
	if progress != nil {
		progress(prog)
	}
	w, err := ix.begin(ctx)
	if err != nil {
		return st, err
	}
	// w is replaced after each intermediate commit: roll back the last one.
	defer func() { w.rollback() }()
	for _, p := range gone {
		if err := w.drop(ctx, p); err != nil {
			return st, err
		}
		st.Removed++
	}
	for i, p := range changed {
		if err := ctx.Err(); err != nil {
			if cerr := w.commit(); cerr != nil {
				return st, cerr
			}
			return st, err
		}
		n, err := w.file(ctx, p, disk[p])
		if errors.Is(err, errUnreadable) {
			st.Failed++
		} else if err != nil {
			return st, err
		}
		st.Indexed++
		st.Messages += n
		// Commit now and then, so a first build's results show up as it
		// goes and a crash loses little.
		if w.written >= 4<<20 || time.Since(w.started) > time.Second {
			if err := w.commit(); err != nil {
				return st, err
			}
			if w, err = ix.begin(ctx); err != nil {
				return st, err
			}
		}
		prog.Done = i + 1
		if progress != nil {
			progress(prog)
		}
	}
	if first {
		if _, err := w.tx.ExecContext(ctx, "UPDATE meta SET value = '1' WHERE key = 'built'"); err != nil {
			return st, fmt.Errorf("update search index: %w", err)
		}
	}
	if err := w.commit(); err != nil {
		return st, err
	}
	return st, nil
}

// scan lists the rollouts on disk: regular files only (a symlink or a FIFO
// left in sessions/ is not followed).
func (ix *Index) scan() (map[string]onDisk, error) {
	out := map[string]onDisk{}
	if ix.home.Dir == "" {
		return out, nil
	}
	for _, sub := range []string{"sessions", "archived_sessions"} {
		err := filepath.WalkDir(filepath.Join(ix.home.Dir, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a missing or unreadable folder: nothing to index there
			}
			if !d.Type().IsRegular() || !isRollout(d.Name()) {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			out[path] = onDisk{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("update search index: %w", err)
		}
	}
	return out, nil
}

func isRollout(name string) bool {
	return strings.HasPrefix(name, "rollout-") && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zst"))
}

// writer is one write transaction on a dedicated connection (BEGIN
// IMMEDIATE, so two processes updating the same index take turns).
type writer struct {
	ix      *Index
	tx      *sql.Tx
	ins     *sql.Stmt
	next    int64 // the next file number
	started time.Time
	written int
	done    bool
}

func (ix *Index) begin(ctx context.Context) (*writer, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("update search index: %w", err)
	}
	// Take the write lock now rather than at the first write, so the
	// files table read below is the one this transaction changes.
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = value + 1 WHERE key = 'gen'"); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("update search index: %w", err)
	}
	w := &writer{ix: ix, tx: tx, started: time.Now()}
	if err := tx.QueryRowContext(ctx, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'next'").Scan(&w.next); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("update search index: %w", err)
	}
	if w.ins, err = tx.PrepareContext(ctx, "INSERT INTO fts(rowid, text, role) VALUES (?, ?, ?)"); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("update search index: %w", err)
	}
	return w, nil
}

func (w *writer) commit() error {
	if w.done {
		return nil
	}
	w.done = true
	if _, err := w.tx.Exec("UPDATE meta SET value = ? WHERE key = 'next'", w.next); err != nil {
		w.tx.Rollback()
		return fmt.Errorf("update search index: %w", err)
	}
	if err := w.tx.Commit(); err != nil {
		return fmt.Errorf("update search index: %w", err)
	}
	return nil
}

func (w *writer) rollback() {
	if !w.done {
		w.done = true
		w.tx.Rollback()
	}
}

// drop removes a file and its messages.
func (w *writer) drop(ctx context.Context, path string) error {
	var base, count int64
	err := w.tx.QueryRowContext(ctx, "SELECT base, count FROM files WHERE path = ?", path).Scan(&base, &count)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("update search index: %w", err)
	}
	if count > 0 {
		if _, err := w.tx.ExecContext(ctx, "DELETE FROM fts WHERE rowid >= ? AND rowid < ?", base, base+count); err != nil {
			return fmt.Errorf("update search index: %w", err)
		}
		if _, err := w.tx.ExecContext(ctx, "DELETE FROM docs WHERE rowid = ?", base>>fileBits); err != nil {
			return fmt.Errorf("update search index: %w", err)
		}
	}
	if _, err := w.tx.ExecContext(ctx, "DELETE FROM files WHERE path = ?", path); err != nil {
		return fmt.Errorf("update search index: %w", err)
	}
	return nil
}

var errUnreadable = errors.New("unreadable rollout")

// dbError marks a failed write inside a scan: that stops the update,
// while a rollout that fails to read only counts as unreadable.
type dbError struct{ err error }

func (e dbError) Error() string { return e.err.Error() }
func (e dbError) Unwrap() error { return e.err }

// file (re)indexes one rollout and returns how many messages it wrote. A
// file that cannot be read is recorded without messages (errUnreadable),
// so it is not read again until it changes.
func (w *writer) file(ctx context.Context, path string, d onDisk) (int, error) {
	if err := w.drop(ctx, path); err != nil {
		return 0, err
	}
	next := w.next << fileBits
	var n, budget int
	var last int = -1
	var doc strings.Builder
	head, scanErr := codexhome.ScanRollout(ctx, path, func(i int, m codexhome.Message) error {
		if i >= 1<<fileBits {
			return nil
		}
		last = i
		if m.Role != codexhome.RoleUser && m.Role != codexhome.RoleAssistant {
			return nil
		}
		text := clean(m.Text, min(maxMessageText, maxFileText-budget))
		if text == "" {
			return nil
		}
		budget += len(text)
		doc.WriteString(text)
		doc.WriteString("\n")
		if _, err := w.ins.ExecContext(ctx, next+int64(i), text, m.Role); err != nil {
			return dbError{err}
		}
		n++
		w.written += len(text)
		return nil
	})
	var dbErr dbError
	if scanErr != nil && (ctx.Err() != nil || errors.As(scanErr, &dbErr)) {
		return n, fmt.Errorf("update search index: %w", scanErr)
	}
	count := int64(last + 1)
	session := head.ID
	if scanErr != nil || !head.Rollout {
		count, session = 0, ""
		if n > 0 {
			if _, err := w.tx.ExecContext(ctx, "DELETE FROM fts WHERE rowid >= ? AND rowid < ?", next, next+int64(last+1)); err != nil {
				return 0, fmt.Errorf("update search index: %w", err)
			}
		}
		n = 0
	}
	if n > 0 {
		if _, err := w.tx.ExecContext(ctx, "INSERT INTO docs(rowid, text) VALUES (?, ?)", w.next, doc.String()); err != nil {
			return 0, fmt.Errorf("update search index: %w", err)
		}
	}
	if _, err := w.tx.ExecContext(ctx, "INSERT INTO files(path, size, mtime, session, base, count) VALUES (?, ?, ?, ?, ?, ?)",
		path, d.size, d.mtime, session, next, count); err != nil {
		return 0, fmt.Errorf("update search index: %w", err)
	}
	w.next++
	if scanErr != nil || !head.Rollout {
		return 0, errUnreadable
	}
	return n, nil
}

// clean makes message text safe to index: valid UTF-8, no control
// characters but newline and tab (so the snippet markers stay unique), at
// most max bytes.
func clean(s string, limit int) string {
	if limit <= 0 {
		return ""
	}
	var b strings.Builder
	for i, r := range s {
		if i >= limit {
			break
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			continue
		case r == '\n' || r == '\t':
		case unicode.IsControl(r):
			r = ' '
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}
