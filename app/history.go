package app

import (
	"cmp"
	"errors"
	"fmt"
	"io"

	"cdxtheme/core/codexhome"
)

// History sources of a chat.
const (
	HistoryRollout = "rollout" // Codex's rollout file: paged, complete
	HistoryAgent   = "agent"   // no rollout: the agent's own replay when the chat opens, if it has one
)

// HistoryPage is a window of a chat's earlier messages, oldest first.
type HistoryPage struct {
	Source   string              `json:"source"`
	Messages []codexhome.Message `json:"messages"`
	Offset   int                 `json:"offset"` // index of Messages[0] in the whole history
	Total    int                 `json:"total"`
	Skipped  int                 `json:"skipped"` // rollout lines that did not parse
}

// historyScan is the page size used to count a rollout's messages.
const historyScan = 500

// ChatHistory returns up to limit messages of a chat's history ending
// before index before (before < 0: the newest ones), for the chat to show
// its earlier turns above the new ones and load older pages as the user
// scrolls up. A session without a rollout is no error: Source says the
// history comes from the agent.
func (c *Chats) ChatHistory(sessionID string, before, limit int) (HistoryPage, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	h := c.settings.home()
	if _, err := h.FindRollout(sessionID); err != nil {
		if errors.Is(err, codexhome.ErrNotFound) {
			return HistoryPage{Source: HistoryAgent, Messages: []codexhome.Message{}}, nil
		}
		return HistoryPage{}, wrapf(err, "read the history of %s", sessionID)
	}
	total := before
	skipped := 0
	if before < 0 {
		// Count: the paging API reads forward; its remembered offsets make
		// the older pages read afterwards cheap.
		total = 0
		for {
			p, err := h.TranscriptPage(c.bg(), sessionID, total, historyScan)
			if err != nil {
				return HistoryPage{}, wrapf(err, "read the history of %s", sessionID)
			}
			total += len(p.Messages)
			skipped = p.Skipped
			if p.Done || len(p.Messages) == 0 {
				break
			}
		}
	}
	from := max(0, total-limit)
	out := HistoryPage{Source: HistoryRollout, Offset: from, Total: total, Messages: []codexhome.Message{}, Skipped: skipped}
	if total == 0 {
		return out, nil
	}
	p, err := h.TranscriptPage(c.bg(), sessionID, from, total-from)
	if err != nil {
		return HistoryPage{}, wrapf(err, "read the history of %s", sessionID)
	}
	out.Messages = p.Messages
	if p.Skipped > out.Skipped {
		out.Skipped = p.Skipped
	}
	return out, nil
}

// maxChatExport bounds the Markdown the UI hands over for a chat without
// a rollout.
const maxChatExport = 32 << 20

// ExportChat saves a chat as Markdown where the user chooses: the whole
// Codex session when a rollout exists, else what the chat shows (markdown,
// written by the UI from its messages). "" when the dialog was cancelled.
func (c *Chats) ExportChat(sessionID, title, markdown string) (string, error) {
	if sessionID != "" {
		if _, err := c.settings.home().FindRollout(sessionID); err == nil {
			return c.library.exportTranscript(sessionID)
		}
	}
	if len(markdown) > maxChatExport {
		return "", fmt.Errorf("the chat is too long to export (%d MB)", len(markdown)>>20)
	}
	path, err := c.desktop.saveDialog(exportName(title, cmp.Or(sessionID, "chat")), func(w io.Writer) error {
		_, err := io.WriteString(w, markdown)
		return err
	})
	return path, wrapf(err, "export the chat")
}
