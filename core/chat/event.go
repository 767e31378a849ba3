// Package chat runs one turn of a conversation with an ACP agent: connect,
// initialize, open the session (new, resume or load), apply the model,
// prompt, stream typed events, finish. It owns the permission broker, the
// timeout, cancellation and the warm connection kept for the open chat.
//
// Start here: docs/ARCHITECTURE.md ("one chat turn, from click to done")
// walks a turn from Engine.Run (engine.go) through warm.go and link.go to
// its last event, and says where each piece of a turn's state lives.
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
	EventText           = "text"    // Text; Content instead when the chunk is no text (an image, a resource link)
	EventThought        = "thought" // Text
	EventUserText       = "user_text"
	EventToolCall       = "tool_call"           // ToolCall, Terminal, Command
	EventToolCallUpdate = "tool_call_update"    // ToolCall (fields absent: unchanged), Terminal
	EventPlan           = "plan"                // Plan: the whole plan, replacing the last
	EventPermission     = "permission"          // Permission
	EventAnswered       = "permission_answered" // Answer, Permission: how a request was answered (by the user, or Remembered)
	EventUsage          = "usage"               // Usage
	EventError          = "error"
	EventWarning        = "warning"
	EventAuthRequired   = "auth_required" // AuthMethods
	EventSession        = "session"       // Setup: the session's options and modes as the agent reports them now
	EventConfigOptions  = "config_options"
	EventCommands       = "commands"     // Commands
	EventSessionInfo    = "session_info" // Info
	EventMode           = "mode"         // Mode: the current mode id (current_mode_update)
	EventAgent          = "agent"        // Capabilities: what the agent takes in a prompt (initialize)
	EventDone           = "done"
	EventUpdate         = "update" // a session/update of a kind this client does not know, in Update as sent
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
// Every update kind this client knows arrives decoded, in the field its
// type names; only an update of an unknown kind is passed on raw (Update).
type Event struct {
	Type      string `json:"type" ts:"EventType"`
	TurnID    string `json:"turnId,omitempty"` // set by the app layer
	SessionID string `json:"sessionId,omitempty"`
	Text      string `json:"text,omitempty"` // text/thought/user_text chunk; error/warning message
	// Content is a message chunk that is not text, as the agent sent it.
	Content  *acp.ContentBlock `json:"content,omitempty"`
	ToolCall *acp.ToolCall     `json:"toolCall,omitempty"`
	// Terminal is what a tool call update says of its command's output.
	Terminal *Terminal `json:"terminal,omitempty"`
	// Command is the command line a tool call runs, from its raw input.
	Command       string                  `json:"command,omitempty"`
	Plan          *acp.Plan               `json:"plan,omitempty"`
	Usage         *acp.UsageUpdate        `json:"usage,omitempty"`
	Setup         *acp.SessionSetup       `json:"setup,omitempty"`
	ConfigOptions []acp.ConfigOption      `json:"configOptions,omitempty"` // config_options: every option (none when absent)
	Commands      []acp.Command           `json:"commands,omitempty"`
	Mode          string                  `json:"mode,omitempty"`
	Info          *acp.SessionInfoUpdate  `json:"info,omitempty"`
	Capabilities  *acp.PromptCapabilities `json:"capabilities,omitempty"`
	Permission    *Permission             `json:"permission,omitempty"`
	// Answer is how a permission request was answered (permission_answered).
	Answer      *Answer          `json:"answer,omitempty"`
	AuthMethods []acp.AuthMethod `json:"authMethods,omitempty"`
	// Update is a session/update of a kind this client does not know (or
	// knows, in a shape it cannot read), as the agent sent it.
	Update     json.RawMessage `json:"update,omitempty"`
	StopReason string          `json:"stopReason,omitempty"`     // done
	Code       string          `json:"code,omitempty" ts:"Code"` // error
	Stderr     []string        `json:"stderr,omitempty"`         // error: the agent's last stderr lines
	Agent      string          `json:"agent,omitempty"`          // error: the resolved command and why
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
	ToolCall  *acp.ToolCall      `json:"toolCall"`
	Command   string             `json:"command,omitempty"` // the command line the tool call runs
	Options   []PermissionOption `json:"options"`
}

// Answer is how a permission request was answered.
type Answer struct {
	RequestID string `json:"requestId"`
	OptionID  string `json:"optionId"`       // "" = cancelled
	Kind      string `json:"kind,omitempty"` // the chosen option's kind
	// Remembered: chosen by an "always" answer the user gave earlier for
	// this kind of tool in this session, without asking again.
	Remembered bool `json:"remembered,omitempty"`
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
