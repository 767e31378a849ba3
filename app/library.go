package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"
	"time"

	"cdxtheme/app/chathistory"
	"cdxtheme/app/searchindex"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/notes"
	"cdxtheme/core/search"
	"cdxtheme/core/workspace"
)

// library reads Codex's own files; the lister is kept so a re-list only
// parses files that changed. What the agent's session/list adds is kept
// beside it and refreshed in the background.
type library struct {
	mu     sync.Mutex
	dir    string
	lister *codexhome.Lister
	index  searchindex.Indexer
	notes  *notes.Store

	fromAgent  []codexhome.ACPSession
	askedAt    time.Time
	refreshing bool
}

// agentListEvery spaces the background session/list refreshes: each may
// start an agent, which costs far more than reading the disk.
const agentListEvery = 5 * time.Minute

func (li *Library) lister() *codexhome.Lister {
	h := li.settings.home()
	li.lib.mu.Lock()
	defer li.lib.mu.Unlock()
	if li.lib.lister == nil || li.lib.dir != h.Dir {
		li.lib.lister = codexhome.NewLister(h)
		li.lib.dir = h.Dir
	}
	return li.lib.lister
}

func (a *env) bg() context.Context {
	if a.ctx != nil {
		return a.ctx
	}
	return context.Background()
}

// Models lists the models for the picker, from disk (never spawns).
func (li *Library) Models() codexhome.ModelList { return li.models() }

// models is Models, for the other services too.
func (li *Library) models() codexhome.ModelList {
	ml := li.settings.home().Models()
	for _, w := range ml.Warnings {
		li.log.Warn().Str("codex_home", li.settings.home().Dir).Msg(w)
	}
	return ml
}

// SessionQuery is what Home asks the library for.
type SessionQuery struct {
	Search       string `json:"search"` // words, word*, "a phrase": titles, folders and message text
	Limit        int    `json:"limit"`
	ShowInternal bool   `json:"showInternal"` // sub-agent sessions too
	ShowHidden   bool   `json:"showHidden"`   // sessions the user hid too
}

// Sessions lists saved Codex sessions, newest first: the disk at once,
// merged with what the agent's session/list last said (a background refresh
// of it sends a "sessions" event when it changed the picture), with the
// user's own titles. A search also matches message text through the index,
// which is brought up to date in the background ("search-index" events).
func (li *Library) Sessions(q SessionQuery) (search.Results, error) {
	li.lib.mu.Lock()
	fromAgent := li.lib.fromAgent
	li.lib.mu.Unlock()
	li.refreshAgentSessions()
	li.refreshIndex(false)
	n, err := li.sessionNotes().Get()
	if err != nil {
		li.log.Warn().Err(err).Msg("session titles")
	}
	// A build's sessions go by the build's name, as its card and chat do.
	titles := workspace.SessionTitles(workspace.Root(), n.Titles)
	opts := codexhome.ListOptions{Limit: q.Limit, ACP: fromAgent, Titles: titles, Hidden: n.Hidden,
		ShowInternal: q.ShowInternal, ShowHidden: q.ShowHidden}
	var (
		ix      *search.Index
		openErr error
	)
	if h := li.settings.home(); h.Exists() && !search.ParseQuery(q.Search).Empty() {
		ix, openErr = li.lib.index.Open(h)
	}
	res, err := search.Find(li.bg(), li.lister(), ix, q.Search, opts)
	// Home says so when text was not searched, as the CLI does.
	var updateErr error
	if ix != nil {
		updateErr = li.lib.index.Err()
	}
	res.Degraded(q.Search, openErr, updateErr)
	for _, w := range res.Warnings {
		li.log.Warn().Msg(w)
	}
	return res, wrapf(err, "list sessions")
}

func (li *Library) sessionNotes() *notes.Store {
	li.lib.mu.Lock()
	defer li.lib.mu.Unlock()
	if li.lib.notes == nil {
		li.lib.notes = notes.Open(notes.DefaultPath())
	}
	return li.lib.notes
}

// RenameSession names a session in the app (CODEX_HOME is not touched);
// an empty title gives it back its own. A build's session goes by the
// build's name, so renaming it renames the build (RenameBuild).
func (li *Library) RenameSession(id, title string) error {
	if m, ok := workspace.BySession(workspace.Root(), id); ok {
		_, err := li.builds.renameBuild(m.ID, title)
		return err
	}
	return wrapf(li.sessionNotes().SetTitle(id, title), "rename session")
}

// HideSession hides a session from the list, or shows it again.
func (li *Library) HideSession(id string, hidden bool) error {
	return wrapf(li.sessionNotes().SetHidden(id, hidden), "hide session")
}

// sessionTitle is the app's name for a session: its build's name, else
// the user's own name for it, "" without one.
func (li *Library) sessionTitle(id string) string {
	if m, ok := workspace.BySession(workspace.Root(), id); ok {
		return m.Title
	}
	n, _ := li.sessionNotes().Get()
	return n.Titles[id]
}

// refreshAgentSessions asks the agent for its sessions in the background,
// at most once per agentListEvery.
func (li *Library) refreshAgentSessions() {
	li.lib.mu.Lock()
	if li.lib.refreshing || (!li.lib.askedAt.IsZero() && time.Since(li.lib.askedAt) < agentListEvery) {
		li.lib.mu.Unlock()
		return
	}
	li.lib.refreshing = true
	li.lib.mu.Unlock()
	eng := li.turns.engineFor(li.settings.current(), li.agents.agentFor(li.agents.agentList(), turnrun.Params{}))
	li.turns.track(func() { // Shutdown waits for it like for a turn
		cwd, err := os.UserHomeDir()
		if err != nil {
			cwd = os.TempDir()
		}
		infos, ok, err := eng.ListSessions(li.bg(), cwd)
		var got []codexhome.ACPSession
		for _, s := range infos {
			got = append(got, codexhome.ACPSession{SessionID: s.SessionID, Cwd: s.Cwd, Title: s.Title, UpdatedAt: s.UpdatedAt})
		}
		li.lib.mu.Lock()
		li.lib.askedAt, li.lib.refreshing = time.Now(), false
		changed := err == nil && ok && !reflect.DeepEqual(got, li.lib.fromAgent)
		if changed {
			li.lib.fromAgent = got
		}
		li.lib.mu.Unlock()
		switch {
		case err != nil:
			li.log.Info().Err(err).Msg("the agent's session list is unavailable; showing the disk only")
		case changed:
			li.emit.Emit("sessions", map[string]int{"fromAgent": len(got)})
		}
	})
}

// TranscriptPage reads one page of a saved session.
func (li *Library) TranscriptPage(id string, offset, limit int) (codexhome.TranscriptPage, error) {
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	p, err := li.settings.home().TranscriptPage(li.bg(), id, offset, limit)
	if name := li.sessionTitle(id); name != "" {
		p.Title = name
	}
	return p, wrapf(err, "read transcript %s", id)
}

// ExportTranscript saves a session as Markdown where the user chooses; ""
// when the dialog was cancelled. It streams: a session of any size costs
// one message of memory.
func (li *Library) ExportTranscript(id string) (string, error) { return li.exportTranscript(id) }

// exportTranscript is ExportTranscript, for the other services too.
func (li *Library) exportTranscript(id string) (string, error) {
	r, err := li.settings.home().OpenTranscript(li.bg(), id)
	if err != nil {
		return "", fmt.Errorf("read transcript %s: %w", id, err)
	}
	defer r.Close()
	if name := li.sessionTitle(id); name != "" {
		r.SetTitle(name)
	}
	h, err := r.Header()
	if err != nil {
		return "", fmt.Errorf("read transcript %s: %w", id, err)
	}
	path, err := li.desktop.saveDialog(chathistory.ExportName(h.Title, id), func(w io.Writer) error {
		return codexhome.WriteMarkdown(w, r)
	})
	if err == nil && r.Truncated() {
		li.log.Warn().Str("session", id).Msg(codexhome.TooLargeNote(r.Count()))
	}
	return path, wrapf(err, "export transcript %s", id)
}

// IndexStatus is the payload of the "search-index" event and of
// SearchStatus: how the full-text index is doing.
type IndexStatus searchindex.Status

// SearchStatus tells the UI whether the index is being built (Home shows
// the first build's progress).
func (li *Library) SearchStatus() IndexStatus { return IndexStatus(li.lib.index.Status()) }

// refreshIndex starts a background update of the index unless one ran
// just now (searchindex.Indexer.Refresh).
func (li *Library) refreshIndex(force bool) { li.lib.index.Refresh(li.settings.home(), force) }

// stopIndex cancels a running update and closes the index.
func (li *Library) stopIndex() { li.lib.index.Stop() }
