// Package chathistory pages through a chat's earlier messages from its
// Codex rollout, newest page first, for the chat to show above its new
// turns; without a rollout the agent's own replay is the history.
package chathistory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cdxtheme/core/codexhome"
)

// The sources of a chat's history.
const (
	Rollout = "rollout" // Codex's rollout file: paged, complete
	Agent   = "agent"   // no rollout: the agent's own replay when the chat opens, if it has one
)

// Page is a window of a chat's earlier messages, oldest first.
type Page struct {
	Source   string              `json:"source"`
	Messages []codexhome.Message `json:"messages"`
	Offset   int                 `json:"offset"` // index of Messages[0] in the whole history
	Total    int                 `json:"total"`
	Skipped  int                 `json:"skipped"` // rollout lines that did not parse
}

// historyScan is the page size used to count a rollout's messages.
const historyScan = 500

// Read returns up to limit messages of a chat's history in h ending
// before index before (before < 0: the newest ones). A session without a
// rollout is no error: Source says the history comes from the agent.
func Read(ctx context.Context, h codexhome.Home, sessionID string, before, limit int) (Page, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	if _, err := h.FindRollout(sessionID); err != nil {
		if errors.Is(err, codexhome.ErrNotFound) {
			return Page{Source: Agent, Messages: []codexhome.Message{}}, nil
		}
		return Page{}, fmt.Errorf("read the history of %s: %w", sessionID, err)
	}
	total := before
	skipped := 0
	if before < 0 {
		// Count: the paging API reads forward; its remembered offsets make
		// the older pages read afterwards cheap.
		total = 0
		for {
			p, err := h.TranscriptPage(ctx, sessionID, total, historyScan)
			if err != nil {
				return Page{}, fmt.Errorf("read the history of %s: %w", sessionID, err)
			}
			total += len(p.Messages)
			skipped = p.Skipped
			if p.Done || len(p.Messages) == 0 {
				break
			}
		}
	}
	from := max(0, total-limit)
	out := Page{Source: Rollout, Offset: from, Total: total, Messages: []codexhome.Message{}, Skipped: skipped}
	if total == 0 {
		return out, nil
	}
	p, err := h.TranscriptPage(ctx, sessionID, from, total-from)
	if err != nil {
		return Page{}, fmt.Errorf("read the history of %s: %w", sessionID, err)
	}
	out.Messages = p.Messages
	if p.Skipped > out.Skipped {
		out.Skipped = p.Skipped
	}
	return out, nil
}

// ExportName is the file name a chat's export suggests: the title's
// letters, digits, '-' and '_', spaces as '-', at most 60 characters
// before ".md" (a long first message must not make an unwieldy name);
// the session id when nothing is left.
func ExportName(title, id string) string {
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
