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
	"errors"
	"fmt"
	"strings"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/toolcall"
)

// Event types: the wire name of each payload kind.
const (
	EventText           = "text"                // TextChunk
	EventThought        = "thought"             // ThoughtChunk
	EventUserText       = "user_text"           // UserText
	EventToolCall       = "tool_call"           // ToolCallStarted
	EventToolCallUpdate = "tool_call_update"    // ToolCallUpdated
	EventPlan           = "plan"                // PlanUpdate
	EventPermission     = "permission"          // PermissionAsked
	EventAnswered       = "permission_answered" // PermissionAnswered
	EventUsage          = "usage"               // UsageUpdate
	EventError          = "error"               // ErrorEvent
	EventWarning        = "warning"             // Warning
	EventAuthRequired   = "auth_required"       // AuthRequired
	EventSession        = "session"             // SessionSetup
	EventConfigOptions  = "config_options"      // ConfigOptionsUpdate
	EventCommands       = "commands"            // CommandsUpdate
	EventSessionInfo    = "session_info"        // SessionInfo
	EventMode           = "mode"                // ModeChanged
	EventAgent          = "agent"               // AgentCapabilities
	EventDone           = "done"                // Done
	EventUpdate         = "update"              // UnknownUpdate
	EventStatus         = "status"              // StatusNotice
	EventRefused        = "option_refused"      // OptionRefused
	EventReady          = "ready"               // Ready
	EventInstall        = "install"             // InstallProgress
)

// Event is one thing that happened in a turn, in the order it happened:
// the envelope every event carries, and the payload of its kind. Payload
// is a closed union (one struct per kind, sealed by an unexported method),
// so a consumer switches on its type and the compiler checks which fields
// it reads, as Zed's acp_thread does with its typed events. Every update
// kind this client knows arrives decoded in its own payload; only an
// update of an unknown kind is passed on raw (UnknownUpdate).
//
// On the wire (the UI, the serve socket) an event stays one flat object:
// {"type":…,"turnId":…,"sessionId":…, the payload's fields…,"replay":…};
// see MarshalJSON.
//
// The tags say how MarshalJSON writes the envelope (internal/tools/tsgen reads
// them for the TS ChatEventBase).
type Event struct {
	TurnID    string `json:"turnId,omitempty"` // set by the app layer
	SessionID string `json:"sessionId,omitempty"`
	// Replay marks history the agent replays while session/load opens the
	// session (Turn.History); it is not this turn's output.
	Replay  bool    `json:"replay,omitempty"`
	Payload Payload `json:"-"`
}

// Payload is what one kind of event says. Only this package's types
// implement it (payloadType is unexported), so a type switch over the list
// below is the whole story.
type Payload interface {
	payloadType() string
}

// Type is the event's kind on the wire (one of the Event* constants), ""
// without a payload.
func (e Event) Type() string {
	if e.Payload == nil {
		return ""
	}
	return e.Payload.payloadType()
}

// TextChunk is a piece of the agent's answer: Text, or Content when the
// chunk is no text (an image, a resource link).
type TextChunk struct {
	Text    string            `json:"text,omitempty"`
	Content *acp.ContentBlock `json:"content,omitempty"`
}

// ThoughtChunk is a piece of the agent's reasoning, shaped as TextChunk.
type ThoughtChunk struct {
	Text    string            `json:"text,omitempty"`
	Content *acp.ContentBlock `json:"content,omitempty"`
}

// UserText is a piece of the user's message, as a replay repeats it.
type UserText struct {
	Text    string            `json:"text,omitempty"`
	Content *acp.ContentBlock `json:"content,omitempty"`
}

// ToolCallStarted announces a tool call.
type ToolCallStarted struct {
	ToolCall *acp.ToolCall `json:"toolCall,omitempty"`
	// Terminal is what the update says of its command's output.
	Terminal *toolcall.Terminal `json:"terminal,omitempty"`
	// Command is the command line the tool call runs, from its raw input.
	Command string `json:"command,omitempty"`
}

// ToolCallUpdated changes a tool call: fields absent in ToolCall are
// unchanged.
type ToolCallUpdated struct {
	ToolCall *acp.ToolCall      `json:"toolCall,omitempty"`
	Terminal *toolcall.Terminal `json:"terminal,omitempty"`
	Command  string             `json:"command,omitempty"`
}

// PlanUpdate is the whole plan, replacing the last.
type PlanUpdate struct {
	Plan *acp.Plan `json:"plan,omitempty"`
}

// PermissionAsked is a request of the agent the user is to answer.
type PermissionAsked struct {
	Permission *permission.Permission `json:"permission,omitempty"`
}

// PermissionAnswered says how a request was answered (by the user, or
// Remembered, when permission.Permission is the request nobody was asked).
type PermissionAnswered struct {
	Permission *permission.Permission `json:"permission,omitempty"`
	Answer     *Answer                `json:"answer,omitempty"`
}

// UsageUpdate is the agent's report of the context window and cost.
type UsageUpdate struct {
	Usage *acp.UsageUpdate `json:"usage,omitempty"`
}

// ErrorEvent is the turn's failure (the last event before none more).
type ErrorEvent struct {
	Text   string   `json:"text,omitempty"`
	Code   string   `json:"code,omitempty" ts:"Code"`
	Stderr []string `json:"stderr,omitempty"` // the agent's last stderr lines
	Agent  string   `json:"agent,omitempty"`  // the resolved command and why
	Status *Status  `json:"status,omitempty"` // the agent's last status before it
	// Server names the model server (set by the app layer, which reads
	// the agent's configuration) on a model_server error.
	Server string `json:"server,omitempty"`
}

// Warning is something the user should know that does not end the turn.
type Warning struct {
	Text string `json:"text,omitempty"`
	// Action names the one-click undo the page offers beside the text
	// (WarnDropCompanion), "" for none.
	Action string `json:"action,omitempty"`
}

// WarnDropCompanion: the app kept the light/dark variant an agent's rewrite
// left out; the page offers to drop it after all.
const WarnDropCompanion = "drop-companion"

// AuthRequired: the agent wants one of AuthMethods before it works.
type AuthRequired struct {
	AuthMethods []acp.AuthMethod `json:"authMethods,omitempty"`
}

// SessionSetup is the session's options and modes as the agent reports
// them now.
type SessionSetup struct {
	Setup *acp.SessionSetup `json:"setup,omitempty"`
}

// ConfigOptionsUpdate is every config option (none when absent).
type ConfigOptionsUpdate struct {
	ConfigOptions []acp.ConfigOption `json:"configOptions,omitempty"`
}

// CommandsUpdate is the agent's slash commands.
type CommandsUpdate struct {
	Commands []acp.Command `json:"commands,omitempty"`
}

// SessionInfo is what the agent says of the session (its title, …).
type SessionInfo struct {
	Info *acp.SessionInfoUpdate `json:"info,omitempty"`
}

// ModeChanged: the current mode id (current_mode_update).
type ModeChanged struct {
	Mode string `json:"mode,omitempty"`
}

// AgentCapabilities is what the agent takes in a prompt (initialize).
type AgentCapabilities struct {
	Capabilities *acp.PromptCapabilities `json:"capabilities,omitempty"`
}

// Done ends a turn that did not fail.
type Done struct {
	StopReason string `json:"stopReason,omitempty"`
}

// UnknownUpdate is a session/update of a kind this client does not know
// (or knows, in a shape it cannot read), as the agent sent it.
type UnknownUpdate struct {
	Update json.RawMessage `json:"update,omitempty"`
}

// StatusNotice is the agent's own word on how the turn goes (Codex:
// "Reconnecting... waiting for network").
type StatusNotice struct {
	Status *Status `json:"status,omitempty"`
}

// OptionRefused says the agent refused a setting; Text is why. The options
// it reports afterwards still hold the old value.
type OptionRefused struct {
	Text    string   `json:"text,omitempty"`
	Refused *Refusal `json:"refused,omitempty"`
}

// Ready ends an Open: the session is open on a live connection.
type Ready struct{}

// InstallProgress: the sidecar's adapter is being installed before the
// turn, this far.
type InstallProgress struct {
	Install *agent.InstallProgress `json:"install,omitempty"`
}

func (TextChunk) payloadType() string           { return EventText }
func (ThoughtChunk) payloadType() string        { return EventThought }
func (UserText) payloadType() string            { return EventUserText }
func (ToolCallStarted) payloadType() string     { return EventToolCall }
func (ToolCallUpdated) payloadType() string     { return EventToolCallUpdate }
func (PlanUpdate) payloadType() string          { return EventPlan }
func (PermissionAsked) payloadType() string     { return EventPermission }
func (PermissionAnswered) payloadType() string  { return EventAnswered }
func (UsageUpdate) payloadType() string         { return EventUsage }
func (ErrorEvent) payloadType() string          { return EventError }
func (Warning) payloadType() string             { return EventWarning }
func (AuthRequired) payloadType() string        { return EventAuthRequired }
func (SessionSetup) payloadType() string        { return EventSession }
func (ConfigOptionsUpdate) payloadType() string { return EventConfigOptions }
func (CommandsUpdate) payloadType() string      { return EventCommands }
func (SessionInfo) payloadType() string         { return EventSessionInfo }
func (ModeChanged) payloadType() string         { return EventMode }
func (AgentCapabilities) payloadType() string   { return EventAgent }
func (Done) payloadType() string                { return EventDone }
func (UnknownUpdate) payloadType() string       { return EventUpdate }
func (StatusNotice) payloadType() string        { return EventStatus }
func (OptionRefused) payloadType() string       { return EventRefused }
func (Ready) payloadType() string               { return EventReady }
func (InstallProgress) payloadType() string     { return EventInstall }

// payloadKinds decode each kind's payload from the whole event object:
// the one list of kinds (Payloads and UnmarshalJSON read it; a test checks
// it against the Event* constants).
var payloadKinds = []func([]byte) (Payload, error){
	decodeAs[TextChunk], decodeAs[ThoughtChunk], decodeAs[UserText],
	decodeAs[ToolCallStarted], decodeAs[ToolCallUpdated], decodeAs[PlanUpdate],
	decodeAs[PermissionAsked], decodeAs[PermissionAnswered], decodeAs[UsageUpdate],
	decodeAs[ErrorEvent], decodeAs[Warning], decodeAs[AuthRequired],
	decodeAs[SessionSetup], decodeAs[ConfigOptionsUpdate], decodeAs[CommandsUpdate],
	decodeAs[SessionInfo], decodeAs[ModeChanged], decodeAs[AgentCapabilities],
	decodeAs[Done], decodeAs[UnknownUpdate], decodeAs[StatusNotice],
	decodeAs[OptionRefused], decodeAs[Ready], decodeAs[InstallProgress],
}

func decodeAs[P Payload](b []byte) (Payload, error) {
	var p P
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	return p, nil
}

// zeroOf is the zero payload a decoder makes.
func zeroOf(dec func([]byte) (Payload, error)) Payload {
	p, err := dec([]byte("{}"))
	if err != nil {
		panic(err) // every payload decodes from {}
	}
	return p
}

// decoders are payloadKinds by type.
var decoders = func() map[string]func([]byte) (Payload, error) {
	m := map[string]func([]byte) (Payload, error){}
	for _, dec := range payloadKinds {
		m[zeroOf(dec).payloadType()] = dec
	}
	return m
}()

// Payloads is one zero payload of every kind, for the TS generator.
func Payloads() []Payload {
	out := make([]Payload, len(payloadKinds))
	for i, dec := range payloadKinds {
		out[i] = zeroOf(dec)
	}
	return out
}

// envelope is the part of the wire object every event has.
type envelope struct {
	Type      string `json:"type"`
	TurnID    string `json:"turnId,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
	Replay    bool   `json:"replay,omitempty"`
}

// MarshalJSON writes the event flat, as the UI and the serve socket read
// it: type, turnId, sessionId, the payload's fields, replay.
func (e Event) MarshalJSON() ([]byte, error) {
	if e.Payload == nil {
		return nil, errors.New("chat: event without a payload")
	}
	head, err := json.Marshal(envelope{Type: e.Type(), TurnID: e.TurnID, SessionID: e.SessionID})
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(e.Payload)
	if err != nil {
		return nil, fmt.Errorf("chat: %s event: %w", e.Type(), err)
	}
	out := head[:len(head)-1] // without its closing brace
	if len(body) > 2 {        // not {}
		out = append(append(out, ','), body[1:len(body)-1]...)
	}
	if e.Replay {
		out = append(out, `,"replay":true`...)
	}
	return append(out, '}'), nil
}

// UnknownTypeError is the error of decoding an event of a type this build
// does not know.
type UnknownTypeError struct{ Type string }

func (e *UnknownTypeError) Error() string { return fmt.Sprintf("chat: unknown event type %q", e.Type) }

// UnmarshalJSON reads what MarshalJSON writes. An unknown type is an
// error (UnknownTypeError), not a payload kept raw that no reader would
// look at: nothing stores events, and the only other build an event can
// come from is a serve socket's other end, whose client skips such a line
// with a warning (app/serve) rather than pass on an event of no kind.
func (e *Event) UnmarshalJSON(b []byte) error {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return err
	}
	dec, ok := decoders[env.Type]
	if !ok {
		return &UnknownTypeError{Type: env.Type}
	}
	p, err := dec(b)
	if err != nil {
		return fmt.Errorf("chat: %s event: %w", env.Type, err)
	}
	*e = Event{TurnID: env.TurnID, SessionID: env.SessionID, Replay: env.Replay, Payload: p}
	return nil
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
	return Event{SessionID: sessionID, Payload: ErrorEvent{Text: e.Message, Code: e.Code, Stderr: e.Stderr, Agent: e.Agent, Status: e.Status}}
}

// TextOf is the message of the kinds that carry one (the chunks, a
// warning, an error, a refusal), "" for the others: for readers that show
// or collect text whatever its kind.
func TextOf(e Event) string {
	switch p := e.Payload.(type) {
	case TextChunk:
		return p.Text
	case ThoughtChunk:
		return p.Text
	case UserText:
		return p.Text
	case Warning:
		return p.Text
	case ErrorEvent:
		return p.Text
	case OptionRefused:
		return p.Text
	}
	return ""
}

// WithText is e with another message, for the kinds TextOf reads (others
// come back as they are): for readers that cut or join a stream's text.
func WithText(e Event, text string) Event {
	switch p := e.Payload.(type) {
	case TextChunk:
		p.Text = text
		e.Payload = p
	case ThoughtChunk:
		p.Text = text
		e.Payload = p
	case UserText:
		p.Text = text
		e.Payload = p
	case Warning:
		p.Text = text
		e.Payload = p
	case ErrorEvent:
		p.Text = text
		e.Payload = p
	case OptionRefused:
		p.Text = text
		e.Payload = p
	}
	return e
}
