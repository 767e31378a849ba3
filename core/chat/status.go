package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"cdxtheme/core/acp"
)

// agentStatus reads the notice an agent attaches to a session_info_update
// (its _meta, the only part of an update this package reads itself)
// about the turn itself. codex-acp 2.x sends `_meta.codex.error`
// ({message, additionalDetails, codexErrorInfo, willRetry}) each time it
// loses its model server and retries, and nothing else the user would see.
func agentStatus(info *acp.SessionInfoUpdate) (*Status, bool) {
	if info == nil || len(info.Meta) == 0 {
		return nil, false
	}
	var meta struct {
		Codex struct {
			Error *struct {
				Message           string          `json:"message"`
				AdditionalDetails string          `json:"additionalDetails"`
				CodexErrorInfo    json.RawMessage `json:"codexErrorInfo"`
				WillRetry         bool            `json:"willRetry"`
			} `json:"error"`
		} `json:"codex"`
	}
	if json.Unmarshal(info.Meta, &meta) != nil || meta.Codex.Error == nil {
		return nil, false
	}
	e := meta.Codex.Error
	if strings.TrimSpace(e.Message) == "" && strings.TrimSpace(e.AdditionalDetails) == "" {
		return nil, false
	}
	s := &Status{Message: oneLine(e.Message, 300), Details: oneLine(e.AdditionalDetails, 300), Retrying: e.WillRetry, Code: errorInfoCode(e.CodexErrorInfo)}
	if s.Message == "" {
		s.Message, s.Details = s.Details, ""
	}
	return s, true
}

// errorInfoCode is the kind of a codexErrorInfo: the string itself
// ("contextWindowExceeded") or the single key of its object form
// ({"responseStreamDisconnected": {...}}).
func errorInfoCode(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return oneLine(s, 80)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		for k := range m {
			return oneLine(k, 80)
		}
	}
	return ""
}

// oneLine keeps status text fit for a status line: one line, bounded.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// modelServerError turns the error that ended a turn into one that says
// what the agent said: it could not reach its model server. Only errors a
// lost model server explains (timeout, the agent's own error answer) are
// rewritten; cancellation and input errors stay as they are.
func modelServerError(ce *Error, last *Status) *Error {
	if last == nil || (ce.Code != CodeTimeout && ce.Code != CodeRPC) {
		return ce
	}
	what := last.Message
	if last.Details != "" {
		what += " (" + last.Details + ")"
	}
	msg := "the agent could not reach its model server: " + what
	if ce.Code == CodeTimeout {
		msg += "; " + ce.Message
	} else {
		msg += "; it answered: " + ce.Message
	}
	out := *ce
	out.Code, out.Message, out.Status = CodeModelServer, msg, last
	return &out
}

func (s Status) String() string {
	if s.Details == "" {
		return s.Message
	}
	return fmt.Sprintf("%s (%s)", s.Message, s.Details)
}
