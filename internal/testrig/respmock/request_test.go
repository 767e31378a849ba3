package respmock

import (
	"strings"
	"testing"
)

func TestRequestParse(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		model      string
		title      bool
		compaction bool
		users      []string
		assistants []string
		tools      []string
		lastTool   string
		hasTool    bool
	}{
		{
			name:  "first turn with injected context",
			body:  `{"model":"gpt-5.5","stream":true,"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"Say hello"}]}]}`,
			model: "gpt-5.5",
			users: []string{"Say hello"},
		},
		{
			name:       "second turn carries the first",
			body:       `{"model":"gpt-6-sol","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"one"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"answer "},{"type":"output_text","text":"one"}]},{"type":"reasoning","summary":[]},{"type":"message","role":"user","content":[{"type":"input_text","text":"two"}]}]}`,
			model:      "gpt-6-sol",
			users:      []string{"one", "two"},
			assistants: []string{"answer one"},
		},
		{
			name:     "tool output as a string",
			body:     `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"run"}]},{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"Process exited with code 0\nOutput:\nok"}]}`,
			model:    "m",
			users:    []string{"run"},
			tools:    []string{"Process exited with code 0\nOutput:\nok"},
			lastTool: "Process exited with code 0\nOutput:\nok",
			hasTool:  true,
		},
		{
			name:     "tool output as content parts, then a user message",
			body:     `{"model":"m","input":[{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]},{"type":"message","role":"user","content":"plain string content"}]}`,
			model:    "m",
			users:    []string{"plain string content"},
			tools:    []string{"ab"},
			lastTool: "",
			hasTool:  false,
		},
		{
			name:  "title request",
			body:  `{"model":"gpt-5.6-luna","text":{"format":{"type":"json_schema"}},"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"title please"}]}]}`,
			model: "gpt-5.6-luna",
			title: true,
			users: []string{"title please"},
		},
		{
			name:       "compaction before a model switch is not a turn",
			body:       `{"model":"gpt-5.5","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"first"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary."}]}]}`,
			model:      "gpt-5.5",
			compaction: true,
			users:      []string{"first", "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary."},
			assistants: []string{"hi"},
		},
		{
			name:  "unknown input shapes are skipped, not fatal",
			body:  `{"model":"m","input":[42,"str",{"type":"message","role":"user","content":[{"type":"input_text","text":"kept"}]}]}`,
			model: "m",
			users: []string{"kept"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Request{Method: "POST", Path: "/v1/responses", Body: []byte(tt.body)}
			if err := r.parse(); err != nil {
				t.Fatal(err)
			}
			if r.Model != tt.model || r.IsTitle() != tt.title || r.IsCompaction() != tt.compaction ||
				r.IsTurn() != (!tt.title && !tt.compaction) {
				t.Errorf("model %q title %v compaction %v turn %v", r.Model, r.IsTitle(), r.IsCompaction(), r.IsTurn())
			}
			eq := func(what string, got, want []string) {
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			eq("users", r.UserTexts(), tt.users)
			eq("assistants", r.AssistantTexts(), tt.assistants)
			eq("tools", r.ToolOutputs(), tt.tools)
			out, ok := r.LastToolOutput()
			if ok != tt.hasTool || out != tt.lastTool {
				t.Errorf("LastToolOutput = %q %v", out, ok)
			}
			if last := r.LastUserText(); len(tt.users) > 0 && last != tt.users[len(tt.users)-1] {
				t.Errorf("LastUserText = %q", last)
			}
		})
	}
}

func TestRequestParseRejectsNonJSON(t *testing.T) {
	for _, body := range []string{"{", "[1,2]", "null x"} {
		r := Request{Body: []byte(body)}
		if err := r.parse(); err == nil {
			t.Errorf("parse(%q) accepted", body)
		}
	}
}

func TestEcho(t *testing.T) {
	tests := []struct {
		body, want string
	}{
		{`{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Say hello"}]}]}`, "Hello from the mock model! You said: Say hello"},
		{`{"input":[{"type":"function_call_output","call_id":"c","output":"hello-from-shell\n"}]}`, "The command ran. Output: hello-from-shell"},
		{`{"input":[]}`, "Hello from the mock model! You said: "},
	}
	for _, tt := range tests {
		r := Request{Body: []byte(tt.body)}
		if err := r.parse(); err != nil {
			t.Fatal(err)
		}
		if got := Echo(r).Text; got != tt.want {
			t.Errorf("Echo(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

func TestSplitWords(t *testing.T) {
	tests := map[string][]string{
		"":               nil,
		"one":            {"one"},
		"Say hello":      {"Say ", "hello"},
		"a  b ":          {"a  ", "b "},
		" lead":          {" ", "lead"},
		"line\nbreak ok": {"line\nbreak ", "ok"},
	}
	for in, want := range tests {
		got := splitWords(in)
		if strings.Join(got, "|") != strings.Join(want, "|") || strings.Join(got, "") != in {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}
