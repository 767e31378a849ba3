package app

import (
	"cmp"
	"fmt"
	"io"

	"cdxtheme/app/chathistory"
)

// HistoryPage is a window of a chat's earlier messages, oldest first
// (chathistory.Page: its fields are the page's).
type HistoryPage chathistory.Page

// ChatHistory returns up to limit messages of a chat's history ending
// before index before (before < 0: the newest ones), for the chat to show
// its earlier turns above the new ones and load older pages as the user
// scrolls up. A session without a rollout is no error: Source says the
// history comes from the agent.
func (c *Chats) ChatHistory(sessionID string, before, limit int) (HistoryPage, error) {
	p, err := chathistory.Read(c.bg(), c.settings.home(), sessionID, before, limit)
	return HistoryPage(p), err
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
	path, err := c.desktop.saveDialog(chathistory.ExportName(title, cmp.Or(sessionID, "chat")), func(w io.Writer) error {
		_, err := io.WriteString(w, markdown)
		return err
	})
	return path, wrapf(err, "export the chat")
}
