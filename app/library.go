package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"cdxtheme/core/codexhome"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// library reads Codex's own files; the lister is kept so a re-list only
// parses files that changed.
type library struct {
	mu     sync.Mutex
	dir    string
	lister *codexhome.Lister
}

func (a *App) home() codexhome.Home { return codexhome.Locate(a.GetSettings().CodexHome) }

func (a *App) lister() *codexhome.Lister {
	h := a.home()
	a.lib.mu.Lock()
	defer a.lib.mu.Unlock()
	if a.lib.lister == nil || a.lib.dir != h.Dir {
		a.lib.lister = codexhome.NewLister(h)
		a.lib.dir = h.Dir
	}
	return a.lib.lister
}

func (a *App) bg() context.Context {
	if a.ctx != nil {
		return a.ctx
	}
	return context.Background()
}

// Models lists the models for the picker, from disk (never spawns).
func (a *App) Models() codexhome.ModelList {
	ml := a.home().Models()
	for _, w := range ml.Warnings {
		a.log.Warn().Str("codex_home", a.home().Dir).Msg(w)
	}
	return ml
}

// Sessions lists saved Codex sessions, newest first.
func (a *App) Sessions(search string, limit int) (codexhome.SessionList, error) {
	sl, err := a.lister().List(a.bg(), codexhome.ListOptions{Search: search, Limit: limit})
	for _, w := range sl.Warnings {
		a.log.Warn().Msg(w)
	}
	return sl, wrapf(err, "list sessions")
}

// TranscriptPage reads one page of a saved session.
func (a *App) TranscriptPage(id string, offset, limit int) (codexhome.Page, error) {
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	p, err := a.home().TranscriptPage(a.bg(), id, offset, limit)
	return p, wrapf(err, "read transcript %s", id)
}

// ExportTranscript saves a session as Markdown where the user chooses; ""
// when the dialog was cancelled.
func (a *App) ExportTranscript(id string) (string, error) {
	t, err := a.home().Transcript(a.bg(), id)
	if err != nil {
		return "", fmt.Errorf("read transcript %s: %w", id, err)
	}
	var buf bytes.Buffer
	if err := codexhome.WriteMarkdown(&buf, t); err != nil {
		return "", fmt.Errorf("export transcript %s: %w", id, err)
	}
	path, err := a.saveDialog(exportName(t.Title, id), buf.Bytes())
	return path, wrapf(err, "export transcript %s", id)
}

// saveDialog asks where to save and writes data there. Tests (and the
// headless self-test) set saveTo to skip the native dialog.
func (a *App) saveDialog(name string, data []byte) (string, error) {
	path := a.saveTo
	if path == "" {
		if a.ctx == nil {
			return "", fmt.Errorf("no window to ask where to save")
		}
		var err error
		path, err = runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
			DefaultFilename: name,
			Filters:         []runtime.FileFilter{{DisplayName: "Markdown", Pattern: "*.md"}},
		})
		if err != nil || path == "" {
			return "", err
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

func exportName(title, id string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r == ' ':
			return '-'
		}
		return -1
	}, title)
	if len(name) > 60 {
		name = name[:60]
	}
	if name == "" {
		name = id
	}
	return name + ".md"
}
