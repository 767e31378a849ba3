package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Session update kinds (the "sessionUpdate" discriminator).
const (
	UpdateUserMessageChunk  = "user_message_chunk"
	UpdateAgentMessageChunk = "agent_message_chunk"
	UpdateAgentThoughtChunk = "agent_thought_chunk"
	UpdateToolCall          = "tool_call"
	UpdateToolCallUpdate    = "tool_call_update"
	UpdatePlan              = "plan"
	UpdateAvailableCommands = "available_commands_update"
	UpdateCurrentMode       = "current_mode_update"
	UpdateConfigOption      = "config_option_update"
	UpdateSessionInfo       = "session_info_update"
	UpdateUsage             = "usage_update"
)

// SessionNotification is the params of session/update.
type SessionNotification struct {
	SessionID string          `json:"sessionId"`
	Update    SessionUpdate   `json:"update"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// SessionUpdate is one update: its kind, its variant decoded into the
// field of that kind, and the update as the agent sent it (Raw). Every
// kind this client knows is decoded once, where the line is read; an
// unknown kind fills only Kind and Raw.
type SessionUpdate struct {
	Kind      string
	Content   *ContentBlock // the chunk kinds
	MessageID string        // the chunk kinds
	ToolCall  *ToolCall     // tool_call, tool_call_update
	Plan      *Plan         // plan
	// ConfigOptions are every option after a config_option_update.
	ConfigOptions []ConfigOption
	Commands      []Command          // available_commands_update
	ModeID        string             // current_mode_update
	Usage         *UsageUpdate       // usage_update
	Info          *SessionInfoUpdate // session_info_update
	Raw           json.RawMessage
}

// IsChunk reports whether the update is a user/agent/thought chunk.
func (u SessionUpdate) IsChunk() bool {
	switch u.Kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		return true
	}
	return false
}

// Known reports whether the kind is one this client decodes.
func (u SessionUpdate) Known() bool {
	switch u.Kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk,
		UpdateToolCall, UpdateToolCallUpdate, UpdatePlan, UpdateAvailableCommands,
		UpdateCurrentMode, UpdateConfigOption, UpdateSessionInfo, UpdateUsage:
		return true
	}
	return false
}

// UnmarshalJSON reads the discriminator and the variant of that kind.
func (u *SessionUpdate) UnmarshalJSON(b []byte) error {
	var h struct {
		Kind      string          `json:"sessionUpdate"`
		Content   json.RawMessage `json:"content"`
		MessageID *string         `json:"messageId"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	*u = SessionUpdate{Kind: h.Kind, Raw: append(json.RawMessage(nil), b...)}
	if !u.IsChunk() {
		return u.decodeVariant()
	}
	if h.MessageID != nil {
		u.MessageID = *h.MessageID
	}
	if len(h.Content) == 0 {
		return fmt.Errorf("%s without content", h.Kind)
	}
	var c ContentBlock
	if err := json.Unmarshal(h.Content, &c); err != nil {
		return fmt.Errorf("%s content: %w", h.Kind, err)
	}
	u.Content = &c
	return nil
}

// decodeVariant decodes Raw into the field of a non-chunk kind (the
// chunks' content is read with the envelope). An error means the update
// is of a kind this client knows but in a shape it cannot read.
func (u *SessionUpdate) decodeVariant() error {
	var err error
	switch u.Kind {
	case UpdateToolCall, UpdateToolCallUpdate:
		var t ToolCall
		if err = json.Unmarshal(u.Raw, &t); err == nil {
			u.ToolCall = &t
		}
	case UpdatePlan:
		var p Plan
		if err = json.Unmarshal(u.Raw, &p); err == nil {
			u.Plan = &p
		}
	case UpdateConfigOption:
		var c struct {
			ConfigOptions []ConfigOption `json:"configOptions"`
		}
		if err = json.Unmarshal(u.Raw, &c); err == nil {
			u.ConfigOptions = c.ConfigOptions
			if u.ConfigOptions == nil {
				u.ConfigOptions = []ConfigOption{}
			}
		}
	case UpdateAvailableCommands:
		var c struct {
			AvailableCommands commandList `json:"availableCommands"`
		}
		if err = json.Unmarshal(u.Raw, &c); err == nil {
			u.Commands = c.AvailableCommands
			if u.Commands == nil {
				u.Commands = []Command{}
			}
		}
	case UpdateCurrentMode:
		var m struct {
			CurrentModeID string `json:"currentModeId"`
		}
		if err = json.Unmarshal(u.Raw, &m); err == nil {
			u.ModeID = m.CurrentModeID
		}
	case UpdateUsage:
		var us UsageUpdate
		if err = json.Unmarshal(u.Raw, &us); err == nil {
			u.Usage = &us
		}
	case UpdateSessionInfo:
		var in SessionInfoUpdate
		if err = json.Unmarshal(u.Raw, &in); err == nil {
			u.Info = &in
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", u.Kind, err)
	}
	return nil
}

// MarshalJSON writes the update as received.
func (u SessionUpdate) MarshalJSON() ([]byte, error) {
	if len(u.Raw) == 0 {
		return nil, fmt.Errorf("session update %q has no raw form", u.Kind)
	}
	return u.Raw, nil
}

// Tool call kinds and statuses (open sets on the wire).
const (
	ToolExecute = "execute"
	ToolEdit    = "edit"
	ToolOther   = "other"

	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// ToolCall is the common part of tool_call and tool_call_update (and of a
// permission request's toolCall). Pointers and nil lists tell "unchanged"
// from empty in updates. The raw input and output are the agent's own
// (free-form) JSON. A field of the wrong type reads as absent, as the
// schema asks (x-deserialize-default-on-error), and a content or location
// entry that cannot be read is skipped.
type ToolCall struct {
	ToolCallID string             `json:"toolCallId"`
	Title      *string            `json:"title,omitempty"`
	Kind       *string            `json:"kind,omitempty"`
	Status     *string            `json:"status,omitempty"`
	Content    []ToolCallContent  `json:"content"`
	Locations  []ToolCallLocation `json:"locations"`
	RawInput   json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage    `json:"rawOutput,omitempty"`
	Meta       json.RawMessage    `json:"_meta,omitempty"`
}

// UnmarshalJSON decodes strictly, and field by field when that fails.
func (t *ToolCall) UnmarshalJSON(b []byte) error {
	type plain ToolCall
	var p plain
	if err := json.Unmarshal(b, &p); err == nil {
		*t = ToolCall(p)
		return nil
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*t = ToolCall{}
	if err := json.Unmarshal(f["toolCallId"], &t.ToolCallID); err != nil {
		return fmt.Errorf("toolCallId: %w", err)
	}
	t.Title, t.Kind, t.Status = optString(f["title"]), optString(f["kind"]), optString(f["status"])
	t.Content = skipInvalid[ToolCallContent](f["content"])
	t.Locations = skipInvalid[ToolCallLocation](f["locations"])
	t.RawInput, t.RawOutput, t.Meta = f["rawInput"], f["rawOutput"], f["_meta"]
	return nil
}

// optString is a string field that reads as absent when it is not one.
func optString(raw json.RawMessage) *string {
	var s *string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return s
}

// skipInvalid decodes a list, leaving out the items that do not decode;
// nil when raw is absent or no list.
func skipInvalid[T any](raw json.RawMessage) []T {
	var items []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &items) != nil || items == nil {
		return nil
	}
	out := make([]T, 0, len(items))
	for _, it := range items {
		var v T
		if json.Unmarshal(it, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// Tool call content types.
const (
	ToolContentBlock    = "content"
	ToolContentDiff     = "diff"
	ToolContentTerminal = "terminal"
)

// ToolCallContent is one piece of what a tool call shows: a content block
// (Content), a file diff (Path, OldText, NewText) or a terminal
// (TerminalID), by Type.
type ToolCallContent struct {
	Type       string          `json:"type"`
	Content    *ContentBlock   `json:"content,omitempty"`
	Path       string          `json:"path,omitempty"`
	OldText    *string         `json:"oldText,omitempty"` // nil for a new file
	NewText    *string         `json:"newText,omitempty"`
	TerminalID string          `json:"terminalId,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// ToolCallLocation is a file a tool call reads or writes.
type ToolCallLocation struct {
	Path string          `json:"path"`
	Line *int            `json:"line,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// DecodeToolCall reads a tool_call / tool_call_update object.
func DecodeToolCall(raw json.RawMessage) (ToolCall, error) {
	var t ToolCall
	if err := json.Unmarshal(raw, &t); err != nil {
		return ToolCall{}, fmt.Errorf("tool call: %w", err)
	}
	return t, nil
}

// Plan is the agent's plan: every entry, replacing the previous plan.
type Plan struct {
	Entries []PlanEntry     `json:"entries"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}

// UnmarshalJSON skips entries that cannot be read, as the schema asks.
func (p *Plan) UnmarshalJSON(b []byte) error {
	var w struct {
		Entries json.RawMessage `json:"entries"`
		Meta    json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Plan{Entries: skipInvalid[PlanEntry](w.Entries), Meta: w.Meta}
	if p.Entries == nil {
		p.Entries = []PlanEntry{}
	}
	return nil
}

// PlanEntry is one step of a plan.
type PlanEntry struct {
	Content  string          `json:"content"`
	Priority string          `json:"priority,omitempty"`
	Status   string          `json:"status"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// Command is a slash command the agent offers.
type Command struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Input       *CommandInput   `json:"input,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// CommandInput says what to type after the command.
type CommandInput struct {
	Hint string `json:"hint"`
}

// commandList skips commands that cannot be read, or have no name.
type commandList []Command

func (l *commandList) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*l = nil
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return err
	}
	out := make(commandList, 0, len(items))
	for _, it := range items {
		var c Command
		if json.Unmarshal(it, &c) != nil {
			// An input of another shape does not lose the command.
			var bare struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			if json.Unmarshal(it, &bare) != nil {
				continue
			}
			c = Command{Name: bare.Name, Description: bare.Description}
		}
		if c.Name != "" {
			out = append(out, c)
		}
	}
	*l = out
	return nil
}

// ConfigOptionUpdate is the body of config_option_update.
type ConfigOptionUpdate struct {
	ConfigOptions []ConfigOption  `json:"configOptions"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

// SessionInfoUpdate is the body of session_info_update.
type SessionInfoUpdate struct {
	Title     *string         `json:"title,omitempty"`
	UpdatedAt *string         `json:"updatedAt,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// UnmarshalJSON reads a title or time of the wrong type as absent.
func (s *SessionInfoUpdate) UnmarshalJSON(b []byte) error {
	var w struct {
		Title     json.RawMessage `json:"title"`
		UpdatedAt json.RawMessage `json:"updatedAt"`
		Meta      json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = SessionInfoUpdate{Title: optString(w.Title), UpdatedAt: optString(w.UpdatedAt), Meta: w.Meta}
	return nil
}

// UsageUpdate is the body of usage_update (context window use).
type UsageUpdate struct {
	Used int64           `json:"used"`
	Size int64           `json:"size"`
	Cost *Cost           `json:"cost,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// UnmarshalJSON reads a cost of another shape as absent.
func (u *UsageUpdate) UnmarshalJSON(b []byte) error {
	var w struct {
		Used int64           `json:"used"`
		Size int64           `json:"size"`
		Cost json.RawMessage `json:"cost"`
		Meta json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = UsageUpdate{Used: w.Used, Size: w.Size, Meta: w.Meta}
	var c Cost
	if len(w.Cost) > 0 && json.Unmarshal(w.Cost, &c) == nil && !bytes.Equal(w.Cost, []byte("null")) {
		u.Cost = &c
	}
	return nil
}

// Cost is the session's cost so far.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}
