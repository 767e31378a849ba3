package chat

import (
	"encoding/json"
	"fmt"
	"regexp"
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

// modelFailureRe matches how Codex words a model server that failed for
// good (codex-rs CodexErr): an HTTP status, the retry limit, a broken
// stream or connection, an overloaded server.
var modelFailureRe = regexp.MustCompile(`^(?i:unexpected status \d{3}\b|exceeded retry limit\b|stream disconnected before completion\b|error sending request\b|connection failed\b|request timed out\b|we(?:'|’| a)re currently experiencing high demand)`)

// maxNotice bounds the text a failure notice can be: one error message.
const maxNotice = 4096

// failureNotice reports whether an agent text chunk is the agent's word
// that its model server failed rather than the model's answer. codex-acp
// 2.x (to a client without typed session failures) sends that failure as
// one chunk "<message>\n\n" with no messageId, which its model's own text
// always has; it then ends the turn as if all went well. Such a chunk
// counts when it reads like Codex's wording of a failed model server, or
// when the agent said in this turn that it lost its model server
// (retried), and is no warning.
func failureNotice(u *acp.SessionUpdate, text string, retried bool) bool {
	if u.MessageID != "" || len(text) > maxNotice {
		return false
	}
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "Warning:") {
		return false
	}
	return modelFailureRe.MatchString(t) || (retried && strings.HasSuffix(text, "\n\n"))
}

// agentWarning reads an agent text chunk that is a whole warning of the
// agent's own: codex-acp sends Codex's warnings (such as "This session was
// recorded with model X but is resuming with Y") as one message chunk
// "Warning: <message>\n\n" with no message id, when the client takes no
// session notices. It returns the message without the prefix.
func agentWarning(u *acp.SessionUpdate, text string) (string, bool) {
	if u.Kind != acp.UpdateAgentMessageChunk || u.MessageID != "" || len(text) > maxNotice || !strings.HasSuffix(text, "\n\n") {
		return "", false
	}
	msg, ok := strings.CutPrefix(text, "Warning: ")
	msg = strings.TrimSpace(msg)
	if !ok || msg == "" || strings.Contains(msg, "\n\n") {
		return "", false
	}
	return msg, true
}

// beside reports whether an event of this kind goes beside a turn's
// answer (its settings, usage, status) rather than being part of it, so it
// does not release a held failure notice.
func beside(p Payload) bool {
	switch p.(type) {
	case UsageUpdate, SessionInfo, StatusNotice, ConfigOptionsUpdate, CommandsUpdate, ModeChanged, SessionSetup, AgentCapabilities, UnknownUpdate:
		return true
	}
	return false
}

// modelFailure is the error of a turn the agent ended normally after
// saying, as text, that its model server failed (failureNotice).
func modelFailure(text string, last *Status, agentDesc string) *Error {
	said := oneLine(text, 300)
	st := &Status{Message: said}
	if last != nil {
		st.Code = last.Code
	}
	return &Error{Code: CodeModelServer, Message: "the agent got no answer from its model server: " + said, Status: st, Agent: agentDesc}
}

func (s Status) String() string {
	if s.Details == "" {
		return s.Message
	}
	return fmt.Sprintf("%s (%s)", s.Message, s.Details)
}
