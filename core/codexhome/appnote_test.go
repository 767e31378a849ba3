package codexhome

import (
	"encoding/json"
	"strings"
	"testing"

	"cdxtheme/core/handedit"
)

// Issue #37: the <hand-edits> note the app appends to a prompt is the
// app's, not the user's words: a transcript shows the user's words as the
// message and the note apart (Message.Note), from either of Codex's records
// of the prompt (the response item with two text parts, the event with one
// joined text), and the two still pair up as one message.
func TestAppNoteIsNotTheUsersWords(t *testing.T) {
	l := handedit.Log{Changed: map[string]string{"syntax.keyword": "#123456"}, Locked: map[string]string{"ui.accent": "#3355ff"}}
	note := l.PromptNote()
	if note == "" {
		t.Fatal("no note to test with")
	}
	words := "Make the comments easier to read"
	item, _ := json.Marshal(map[string]any{"type": "message", "role": "user", "content": []map[string]string{{"type": "input_text", "text": words}, {"type": "input_text", "text": note}}})
	ev, _ := json.Marshal(map[string]any{"type": "user_message", "message": words + "\n" + note})
	lines := []string{
		`{"timestamp":"2026-12-01T00:00:00Z","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-12-01T00:00:01Z","type":"response_item","payload":` + string(item) + `}`,
		`{"timestamp":"2026-12-01T00:00:01Z","type":"event_msg","payload":` + string(ev) + `}`,
	}
	p := newParser()
	var got []Message
	for _, ln := range lines {
		if m := p.feed([]byte(ln)); m != nil {
			got = append(got, *m)
		}
	}
	got = append(got, p.flush()...)
	if len(got) != 1 {
		t.Fatalf("want one user message, got %+v", got)
	}
	m := got[0]
	if m.Role != RoleUser || m.Text != words {
		t.Errorf("the user's words are %q, want %q", m.Text, words)
	}
	if m.Note == "" || m.Note[0] == '<' || !contains(m.Note, "syntax.keyword = #123456") || !contains(m.Note, "ui.accent = #3355ff") {
		t.Errorf("the app's note is %q", m.Note)
	}
	if p.firstUser != words {
		t.Errorf("the title comes from %q, want the user's words", p.firstUser)
	}
	// A user who types the tag mid-message keeps their words whole.
	if w, n := SplitAppNote("see <hand-edits>x</hand-edits> there"); w != "see <hand-edits>x</hand-edits> there" || n != "" {
		t.Errorf("split a message that does not end in the note: %q %q", w, n)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
