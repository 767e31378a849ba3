package codexhome

import (
	"encoding/json"
	"testing"
)

func TestIsInjected(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"<environment_context>\n  <cwd>/x</cwd>", true},
		{"  <permissions instructions>\nFilesystem sandboxing", true},
		{"# AGENTS.md instructions for /home/dev\n\n<INSTRUCTIONS>", true},
		{"<user_instructions>be terse</user_instructions>", true},
		{"Theme please", false},
		{"Make <div> elements purple", false},
		{"what does # AGENTS.md do?", false},
	}
	for _, tt := range tests {
		if got := IsInjected(tt.text); got != tt.want {
			t.Errorf("IsInjected(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestToolOutput(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		wantText string
		wantCode *int
	}{
		{"exec header peeled", `"Chunk ID: a9efd1\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\nhello-from-shell\n"`, "hello-from-shell\n", ptr(0)},
		{"nested apply_patch header", `"Wall time: 0.0000 seconds\nOutput:\nExit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA theme.css\n"`, "Success. Updated the following files:\nA theme.css\n", ptr(0)},
		{"failing command", `"Process exited with code 2\nOutput:\nls: cannot access 'x'\n"`, "ls: cannot access 'x'\n", ptr(2)},
		{"older JSON output with metadata", `"{\"output\":\"done\\n\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.1}}"`, "done\n", ptr(1)},
		{"plain text kept whole", `"just text\nOutput:\nnot a header above"`, "just text\nOutput:\nnot a header above", nil},
		{"content parts", `[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]`, "a\nb", nil},
		{"object with content", `{"content":"ok","success":true}`, "ok", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, code := toolOutput(json.RawMessage(tt.raw))
			if text != tt.wantText {
				t.Errorf("text = %q, want %q", text, tt.wantText)
			}
			if (code == nil) != (tt.wantCode == nil) || code != nil && *code != *tt.wantCode {
				t.Errorf("code = %v, want %v", deref(code), deref(tt.wantCode))
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestCommandString(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`["/bin/bash","-lc","echo hi"]`, "echo hi"},
		{`["git","status"]`, "git status"},
		{`"ls -la"`, "ls -la"},
		{``, ""},
		{`{"weird":true}`, ""},
	}
	for _, tt := range tests {
		if got := commandString(json.RawMessage(tt.raw)); got != tt.want {
			t.Errorf("commandString(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	args := []struct{ args, want string }{
		{`{"cmd":"echo hello-from-shell","yield_time_ms":10000}`, "echo hello-from-shell"},
		{`{"command":["bash","-lc","make test"],"workdir":"/x"}`, "make test"},
		{`not json`, "not json"},
	}
	for _, tt := range args {
		if got := commandFromArgs(tt.args); got != tt.want {
			t.Errorf("commandFromArgs(%s) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// A message carried by both an event and a response_item shows once, in
// either order, but the same words said again in a later turn show again.
func TestDedupeAcrossSources(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-01-01T00:00:00Z","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}`,
		`{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"again"}}`,
		`{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"agent_message","message":"ok"}}`,
		`{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}`,
		`{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-01-01T00:00:04Z","type":"event_msg","payload":{"type":"user_message","message":"again"}}`,
		`{"timestamp":"2026-01-01T00:00:04Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}`,
		// Only an event (no response_item): still shown.
		`{"timestamp":"2026-01-01T00:00:05Z","type":"event_msg","payload":{"type":"agent_message","message":"event only"}}`,
	}
	p := newParser()
	var got []string
	for _, l := range lines {
		if m := p.feed([]byte(l)); m != nil {
			got = append(got, m.Role+":"+m.Text)
		}
	}
	want := []string{"user:again", "assistant:ok", "user:again", "assistant:event only"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestUnknownFieldTypesDoNotLoseTheLine(t *testing.T) {
	// "message" as an object (a future variant) must not hide the line's
	// other fields nor count it as broken.
	p := newParser()
	m := p.feed([]byte(`{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"assistant","message":{"x":1},"content":[{"type":"output_text","text":"still here"}]}}`))
	if m == nil || m.Text != "still here" || p.skipped != 0 {
		t.Fatalf("got %+v skipped %d", m, p.skipped)
	}
}

func TestIgnorable(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`{"timestamp":"t","type":"turn_context","payload":{"cwd":"/x"}}`, true},
		{`{"timestamp":"t","ordinal":5,"type":"world_state","payload":{}}`, true},
		{`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{}}}`, true},
		{`{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`, false},
		{`{"timestamp":"t","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","item":{}}}`, false},
		{`{"timestamp":"t","type":"event_msg","payload":{"type":"task_started"}}`, false},
		{`{"timestamp":"t","type":"response_item","payload":{"type":"message"}}`, false},
		{`{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, false},
		// Other key orders or cut lines go to the full decoder.
		{`{"payload":{"type":"token_count"},"type":"event_msg"}`, false},
		{`{"timestamp":"t","type":"event_msg","payload":{"type":"tok`, false},
		{`garbage`, false},
	}
	for _, tt := range tests {
		if got := ignorable([]byte(tt.line)); got != tt.want {
			t.Errorf("ignorable(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// A line of a kind that never yields a message (a token count, a turn
// context), cut off because Codex was killed while writing it, is no
// unreadable line: the transcript does not warn of one it would have
// dropped anyway.
func TestACutIgnoredLineIsNotCountedAsSkipped(t *testing.T) {
	p := newParser()
	for _, l := range []string{
		`{"timestamp":"2026-12-01T00:00:00Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt`,
		`{"timestamp":"2026-12-01T00:00:01Z","type":"event_msg","payload":{"type":"token_count","info":{"total`,
		`{"timestamp":"2026-12-01T00:00:02Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`,
	} {
		p.feed([]byte(l))
	}
	if p.skipped != 0 {
		t.Fatalf("%d lines counted as unreadable, want none", p.skipped)
	}
}
