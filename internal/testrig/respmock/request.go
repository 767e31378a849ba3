package respmock

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Request is one HTTP request the mock received.
type Request struct {
	Seq    int       // 1-based arrival number across all requests
	Time   time.Time // when the request arrived
	Method string    // "POST", "GET", ...
	Path   string    // e.g. "/v1/responses"
	Body   []byte    // decoded body as sent
	Auth   string    // the Authorization header (how the agent signed in)

	// Fields read from a Responses API body (zero when the body is not one).
	Model  string
	Effort string // reasoning.effort, "" when the request has none
	Stream bool
	Input  []Item
	// Tools are the names of the function tools the request offers the
	// model (MCP tools among them, named as the agent qualifies them).
	Tools  []string
	format string // text.format.type, "json_schema" for title requests
}

// Item is one element of a Responses API "input" array.
type Item struct {
	Type   string          `json:"type"` // message, function_call, function_call_output, reasoning, ...
	Role   string          `json:"role,omitempty"`
	Name   string          `json:"name,omitempty"`
	CallID string          `json:"call_id,omitempty"`
	Raw    json.RawMessage `json:"-"`

	Content   json.RawMessage `json:"content,omitempty"`
	Arguments string          `json:"arguments,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
}

// Text is the text of a message item (input_text/output_text parts joined)
// or the output of a function_call_output item.
func (it Item) Text() string {
	switch it.Type {
	case "function_call_output":
		return partsText(it.Output)
	default:
		return partsText(it.Content)
	}
}

// partsText reads either a plain JSON string or an array of {type, text} parts.
func partsText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (r *Request) parse() error {
	var body struct {
		Model  string            `json:"model"`
		Stream bool              `json:"stream"`
		Input  []json.RawMessage `json:"input"`
		Text   struct {
			Format struct {
				Type string `json:"type"`
			} `json:"format"`
		} `json:"text"`
		Reasoning *struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return fmt.Errorf("%w: %v", errNotJSON, err)
	}
	r.Model, r.Stream, r.format = body.Model, body.Stream, body.Text.Format.Type
	if body.Reasoning != nil {
		r.Effort = body.Reasoning.Effort
	}
	for _, tl := range body.Tools {
		if tl.Name != "" {
			r.Tools = append(r.Tools, tl.Name)
		}
	}
	for _, raw := range body.Input {
		var it Item
		if json.Unmarshal(raw, &it) != nil {
			continue // an input shape we do not know: keep the rest
		}
		it.Raw = raw
		r.Input = append(r.Input, it)
	}
	return nil
}

// IsTitle reports a title request: Codex asks for a structured JSON answer.
func (r Request) IsTitle() bool { return r.format == "json_schema" }

// compactionPrompt starts the request Codex sends to summarise the thread
// before it switches to a model with other metadata (seen with 0.166).
const compactionPrompt = "You are performing a CONTEXT CHECKPOINT COMPACTION"

// IsCompaction reports Codex asking the model to summarise the thread.
func (r Request) IsCompaction() bool {
	return strings.HasPrefix(strings.TrimSpace(r.LastUserText()), compactionPrompt)
}

// IsTurn reports a model turn for a user prompt: a POST /v1/responses that
// is neither a title request nor a compaction.
func (r Request) IsTurn() bool {
	return r.Method == "POST" && r.Path == "/v1/responses" && !r.IsTitle() && !r.IsCompaction()
}

// injected reports user-role text Codex adds on its own (environment,
// permissions, AGENTS.md...), which is not what the user typed.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# AGENTS.md")
}

// UserTexts lists the user's own messages in the input, oldest first.
func (r Request) UserTexts() []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == "user" {
			if t := it.Text(); t != "" && !injected(t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// LastUserText is the newest user message in the input ("" if none).
func (r Request) LastUserText() string {
	texts := r.UserTexts()
	if len(texts) == 0 {
		return ""
	}
	return texts[len(texts)-1]
}

// AssistantTexts lists the assistant messages in the input (earlier answers
// the agent sends back as history), oldest first.
func (r Request) AssistantTexts() []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == "assistant" {
			if t := it.Text(); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// sandboxRe finds the sandbox Codex says it runs in, in the permissions
// instructions it sends with every turn (seen with 0.166):
// "`sandbox_mode` is `danger-full-access`: ...".
var sandboxRe = regexp.MustCompile("`sandbox_mode` is `([a-z-]+)`")

// Sandbox is the sandbox mode of the newest permissions instructions in the
// input ("" if none): what the agent's mode amounts to for this request
// (read-only, workspace-write, danger-full-access).
func (r Request) Sandbox() string {
	for i := len(r.Input) - 1; i >= 0; i-- {
		it := r.Input[i]
		if it.Type != "message" || it.Role != "developer" {
			continue
		}
		if m := sandboxRe.FindStringSubmatch(it.Text()); m != nil {
			return m[1]
		}
	}
	return ""
}

// LastToolOutput is the output of the last input item when that item is a
// function_call_output, i.e. the agent is reporting a tool result.
func (r Request) LastToolOutput() (string, bool) {
	if len(r.Input) == 0 {
		return "", false
	}
	last := r.Input[len(r.Input)-1]
	if last.Type != "function_call_output" {
		return "", false
	}
	return last.Text(), true
}

// ToolOutputs lists every function_call_output in the input, oldest first.
func (r Request) ToolOutputs() []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "function_call_output" {
			out = append(out, it.Text())
		}
	}
	return out
}
