// Package chat runs one turn of a conversation with an ACP agent: connect,
// initialize, open the session (new, resume or load), apply the model,
// prompt, stream typed events, finish. It owns the permission broker, the
// timeout, cancellation and the warm connection kept for the open chat.
package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
)

// Event types.
const (
	EventText           = "text"
	EventThought        = "thought"
	EventUserText       = "user_text"
	EventToolCall       = "tool_call"
	EventToolCallUpdate = "tool_call_update"
	EventPlan           = "plan"
	EventPermission     = "permission"
	EventUsage          = "usage"
	EventError          = "error"
	EventWarning        = "warning"
	EventAuthRequired   = "auth_required"
	EventSession        = "session"
	EventConfigOptions  = "config_options"
	EventCommands       = "commands"
	EventSessionInfo    = "session_info"
	EventMode           = "mode"  // current_mode_update: Update has currentModeId
	EventAgent          = "agent" // Update is the initialize result (capabilities, auth methods, agent info)
	EventDone           = "done"
	EventUpdate         = "update" // a session/update variant we do not know, passed on raw
	// EventStatus is the agent's own word on how the turn goes (Codex:
	// "Reconnecting... waiting for network"), in Status.
	EventStatus = "status"
	// EventRefused says the agent refused a setting (Refused); Text is why.
	// The options it reports afterwards still hold the old value.
	EventRefused = "option_refused"
	// EventReady ends an Open: the session is open on a live connection.
	EventReady   = "ready"
	EventInstall = "install" // the sidecar's adapter is being installed before the turn: Install says how far
)

// Event is one thing that happened in a turn, in the order it happened.
type Event struct {
	Type        string          `json:"type"`
	TurnID      string          `json:"turnId,omitempty"` // set by the app layer
	SessionID   string          `json:"sessionId,omitempty"`
	Text        string          `json:"text,omitempty"`   // text/thought/user_text chunk; error/warning message
	Update      json.RawMessage `json:"update,omitempty"` // the session/update object as the agent sent it
	Permission  *Permission     `json:"permission,omitempty"`
	AuthMethods json.RawMessage `json:"authMethods,omitempty"`
	StopReason  string          `json:"stopReason,omitempty"` // done
	Code        string          `json:"code,omitempty"`       // error
	Stderr      []string        `json:"stderr,omitempty"`     // error: the agent's last stderr lines
	Agent       string          `json:"agent,omitempty"`      // error: the resolved command and why
	// Replay marks history the agent replays while session/load opens the
	// session (Turn.History); it is not this turn's output.
	Replay  bool     `json:"replay,omitempty"`
	Status  *Status  `json:"status,omitempty"`  // status; error: the agent's last status before it
	Refused *Refusal `json:"refused,omitempty"` // option_refused
	// Server names the model server (set by the app layer, which reads the
	// agent's configuration) on a model_server error.
	Server  string                 `json:"server,omitempty"`
	Install *agent.InstallProgress `json:"install,omitempty"` // install
}

// Status is a notice from the agent about the turn itself, e.g. that it
// lost the model server and retries.
type Status struct {
	Message string `json:"message"`
	Details string `json:"details,omitempty"`
	// Code names the kind of trouble as the agent classes it (Codex's
	// codexErrorInfo, e.g. "responseStreamDisconnected").
	Code     string `json:"code,omitempty"`
	Retrying bool   `json:"retrying,omitempty"`
}

// Refusal is a setting the agent did not take.
type Refusal struct {
	ConfigID string `json:"configId"`
	Name     string `json:"name,omitempty"`
	Value    any    `json:"value"`
	Current  any    `json:"current,omitempty"` // what the agent still runs
}

// PermissionOption is one answer the agent offers: {optionId, name, kind}.
type PermissionOption = acp.PermissionOption

// Permission is a request of the agent to run a tool call.
type Permission struct {
	RequestID string             `json:"requestId"` // the raw JSON id as a string, e.g. `0` or `"uuid"`
	ToolCall  json.RawMessage    `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
}

// Error codes of *Error (and of error events).
const (
	CodeAgentMissing = "agent_missing" // no agent command, or it cannot be executed
	CodeAgentExit    = "agent_exit"    // the agent exited (or closed its output) during the turn
	CodeTimeout      = "timeout"       // Options.Timeout elapsed
	CodeCancelled    = "cancelled"     // the caller cancelled the context
	CodeProtocol     = "protocol"      // the agent spoke something we cannot work with
	CodeAuth         = "auth"          // the agent wants authentication first
	CodeRPC          = "rpc"           // the agent answered a call with an error
	CodeInput        = "input"         // the turn itself is invalid (cwd, prompt blocks)
	// CodeModelServer: the agent said it cannot reach its model server, and
	// the turn failed or timed out after that.
	CodeModelServer = "model_server"
	CodeInstall     = "install" // the sidecar's adapter could not be installed
)

// Error is every error Run, Authenticate return.
type Error struct {
	Code    string
	Message string
	Stderr  []string // the agent's last stderr lines, when it matters
	Agent   string   // the command that was run and why it was chosen
	Status  *Status  // the agent's last status notice, when it explains the failure
	Err     error    // the underlying error, if any
}

// stderrQuoted is how many stderr lines go into the message itself.
const stderrQuoted = 8

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Agent != "" {
		fmt.Fprintf(&b, " [agent: %s]", e.Agent)
	}
	if n := len(e.Stderr); n > 0 {
		from := max(0, n-stderrQuoted)
		fmt.Fprintf(&b, "; agent stderr (last %d lines):\n  %s", n-from, strings.Join(e.Stderr[from:], "\n  "))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// event renders the error as the turn's final error event.
func (e *Error) event(sessionID string) Event {
	return Event{Type: EventError, SessionID: sessionID, Text: e.Message, Code: e.Code, Stderr: e.Stderr, Agent: e.Agent, Status: e.Status}
}
