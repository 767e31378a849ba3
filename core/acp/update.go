package acp

import (
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

// SessionUpdate is one update, kept as the agent sent it (Raw) with its
// kind. For the three chunk kinds the content block is decoded as well,
// since that is the hot path (streamed text); other kinds are decoded on
// demand with the typed accessors, and unknown kinds stay raw.
type SessionUpdate struct {
	Kind      string
	Content   *ContentBlock // chunk kinds only
	MessageID string        // chunk kinds only
	Raw       json.RawMessage
}

// IsChunk reports whether the update is a user/agent/thought chunk.
func (u SessionUpdate) IsChunk() bool {
	switch u.Kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		return true
	}
	return false
}

// UnmarshalJSON reads the discriminator and, for chunks, the content.
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
		return nil
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

// MarshalJSON writes the update as received.
func (u SessionUpdate) MarshalJSON() ([]byte, error) {
	if len(u.Raw) == 0 {
		return nil, fmt.Errorf("session update %q has no raw form", u.Kind)
	}
	return u.Raw, nil
}

// ToolCall is the common part of tool_call and tool_call_update (and of a
// permission request's toolCall). Pointers distinguish "unchanged" from
// empty in updates. Content, locations and raw in/output stay raw.
type ToolCall struct {
	ToolCallID string          `json:"toolCallId"`
	Title      *string         `json:"title,omitempty"`
	Kind       *string         `json:"kind,omitempty"`
	Status     *string         `json:"status,omitempty"`
	Content    json.RawMessage `json:"content,omitempty"`
	Locations  json.RawMessage `json:"locations,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage `json:"rawOutput,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// DecodeToolCall reads a tool_call / tool_call_update object.
func DecodeToolCall(raw json.RawMessage) (ToolCall, error) {
	var t ToolCall
	if err := json.Unmarshal(raw, &t); err != nil {
		return ToolCall{}, fmt.Errorf("tool call: %w", err)
	}
	return t, nil
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

// UsageUpdate is the body of usage_update (context window use).
type UsageUpdate struct {
	Used int64           `json:"used"`
	Size int64           `json:"size"`
	Cost json.RawMessage `json:"cost,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Decode unmarshals the raw update into v (e.g. *ConfigOptionUpdate).
func (u SessionUpdate) Decode(v any) error {
	if err := json.Unmarshal(u.Raw, v); err != nil {
		return fmt.Errorf("%s: %w", u.Kind, err)
	}
	return nil
}
