// Package toolcall reads what a tool call runs and prints, which is not
// in ACP's typed fields: each adapter puts it in its own extensions
// (codex-acp in _meta, the Rust adapter in rawInput and rawOutput). They
// are read here, once, so the UI and the CLI get it typed.
package toolcall

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
)

// Terminal is what one tool call update says of the command's output. The
// adapters report it in their own extensions: codex-acp streams it in
// _meta (terminal_output_delta, terminal_output, terminal_exit); the Rust
// adapter gives it once, in rawOutput, when the command is done (Late).
type Terminal struct {
	Append string  `json:"append,omitempty"` // more output, after what was shown
	Output *string `json:"output,omitempty"` // all the output so far, replacing what was shown
	Exited bool    `json:"exited,omitempty"` // the command ended
	// ExitCode is its exit status (nil with Exited: it ended by a signal).
	ExitCode *int `json:"exitCode,omitempty"`
	// Late: from rawOutput, to show only where nothing else showed output.
	Late bool `json:"late,omitempty"`
}

// TerminalOf reads a tool call update's command output: codex-acp's _meta
// (terminal_output_delta {data}, terminal_output as text or {data|output},
// terminal_exit {exit_code}), else the Rust adapter's rawOutput
// (formatted_output, aggregated_output or stdout, and exit_code), which it
// only gives when the command is done. Nil when the update says nothing of
// it.
func TerminalOf(tc *acp.ToolCall) *Terminal {
	if t := metaTerminal(tc.Meta); t != nil {
		return t
	}
	var out struct {
		Formatted  string          `json:"formatted_output"`
		Aggregated string          `json:"aggregated_output"`
		Stdout     string          `json:"stdout"`
		ExitCode   json.RawMessage `json:"exit_code"`
	}
	if len(tc.RawOutput) == 0 || tc.RawOutput[0] != '{' || json.Unmarshal(tc.RawOutput, &out) != nil {
		return nil
	}
	t := &Terminal{Late: true}
	if text := cmp.Or(out.Formatted, out.Aggregated, out.Stdout); text != "" {
		t.Output = &text
	}
	if code, ok := exitCode(out.ExitCode); ok && code != nil {
		t.Exited, t.ExitCode = true, code
	}
	if t.Output == nil && !t.Exited {
		return nil
	}
	return t
}

func metaTerminal(meta json.RawMessage) *Terminal {
	var m struct {
		Delta *struct {
			Data string `json:"data"`
		} `json:"terminal_output_delta"`
		Output json.RawMessage `json:"terminal_output"`
		Exit   *struct {
			ExitCode json.RawMessage `json:"exit_code"`
		} `json:"terminal_exit"`
	}
	if len(meta) == 0 || meta[0] != '{' || json.Unmarshal(meta, &m) != nil {
		return nil
	}
	t := &Terminal{}
	seen := false
	if m.Delta != nil && m.Delta.Data != "" {
		t.Append, seen = m.Delta.Data, true
	}
	if s, ok := outputText(m.Output); ok {
		t.Output, seen = &s, true
	}
	if m.Exit != nil {
		if code, ok := exitCode(m.Exit.ExitCode); ok {
			t.Exited, t.ExitCode, seen = true, code, true
		}
	}
	if !seen {
		return nil
	}
	return t
}

// outputText reads terminal_output: a string, or an object with data or
// output.
func outputText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var o struct {
		Data   *string `json:"data"`
		Output *string `json:"output"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return "", false
	}
	switch {
	case o.Data != nil:
		return *o.Data, true
	case o.Output != nil:
		return *o.Output, true
	}
	return "", false
}

// exitCode reads an exit_code: a number, or null for a command ended by a
// signal; ok is false when it is neither.
func exitCode(raw json.RawMessage) (*int, bool) {
	raw = bytes.TrimSpace(raw)
	if bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	var f float64
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return nil, false
	}
	n := int(f)
	return &n, true
}

// CommandOf is the command line in a tool call's raw input ({"command":
// "ls -l"} or {"command": ["ls", "-l"]}, its words quoted as a shell needs
// them), "" without one.
func CommandOf(rawInput json.RawMessage) string {
	if len(rawInput) == 0 || rawInput[0] != '{' {
		return ""
	}
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if json.Unmarshal(rawInput, &in) != nil || len(in.Command) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(in.Command, &s) == nil {
		return s
	}
	var words []json.RawMessage
	if json.Unmarshal(in.Command, &words) != nil {
		return ""
	}
	parts := make([]string, 0, len(words))
	for _, w := range words {
		var ws string
		switch {
		case json.Unmarshal(w, &ws) == nil:
			parts = append(parts, ws)
		case bytes.Equal(w, []byte("null")):
			parts = append(parts, "")
		default:
			var f float64
			if json.Unmarshal(w, &f) == nil {
				parts = append(parts, strconv.FormatFloat(f, 'f', -1, 64))
			}
		}
	}
	return agent.ShellWords(parts)
}
