// Package serve lends warm agents across processes: a small NDJSON
// protocol over a unix socket in the user's runtime dir, through which
// `cdxtheme chat --session` runs its turn on an agent another process
// keeps warm (the desktop app, or `cdxtheme serve`). Only the same user may
// connect: the socket is 0600 in a 0700 folder, and on Linux each side
// checks the other's uid (SO_PEERCRED).
//
// One connection carries one request. The client writes a Request line;
// the server answers with Reply lines: the turn's events, "ask" for each
// permission request (the client answers with an "answer" line), and a
// last "result" — or, before anything else, "declined" when it will not
// run the turn (the client then runs it itself). The client may write
// "cancel" at any time (closing the connection does the same).
package serve

import (
	"encoding/json"
	"errors"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
)

// ErrUnsupported: no lending of warm agents on this system (neither unix
// nor Windows: no AF_UNIX sockets); the CLI runs every turn itself.
var ErrUnsupported = errors.New("warm agents are not shared between processes on this system")

// Version is the protocol version; a server answers "declined" to another.
const Version = 1

// Message types.
const (
	TypeRun      = "run"      // client: run Turn on an agent like Agent
	TypeStop     = "stop"     // client: the server should exit (cdxtheme serve --stop)
	TypeCancel   = "cancel"   // client: the user cancelled (SIGINT)
	TypeAnswer   = "answer"   // client: the answer to an ask
	TypeEvent    = "event"    // server: one event of the turn
	TypeAsk      = "ask"      // server: a permission request to decide
	TypeResult   = "result"   // server: how the turn ended (last line)
	TypeDeclined = "declined" // server: not run here (first and last line)
)

// Turn is the part of chat.Turn that crosses the socket.
type Turn struct {
	SessionID string             `json:"sessionId"`
	Cwd       string             `json:"cwd"`
	Model     string             `json:"model,omitempty"`
	Effort    string             `json:"effort,omitempty"`
	Prompt    []acp.ContentBlock `json:"prompt"`
}

// Agent is the agent the client would run itself, already resolved: the
// server runs the turn on one started exactly so, or declines.
type Agent struct {
	Path string   `json:"path"`
	Args []string `json:"args"`
	// Env is the agent's whole environment as the client would start it
	// (its own environment plus what resolution added).
	Env     []string      `json:"env"`
	Timeout time.Duration `json:"timeout"` // the turn's bound (nanoseconds)
	Version string        `json:"version"` // clientInfo.version
}

// Request is the client's first line, and its later cancel/answer lines.
type Request struct {
	Type    string `json:"type"`
	Version int    `json:"version,omitempty"`
	Turn    *Turn  `json:"turn,omitempty"`
	Agent   *Agent `json:"agent,omitempty"`
	// answer
	RequestID string `json:"requestId,omitempty"`
	OptionID  string `json:"optionId,omitempty"`
	Error     string `json:"error,omitempty"` // the client's decider failed
}

// Reply is one line from the server.
type Reply struct {
	Type       string                 `json:"type"`
	Event      *chat.Event            `json:"event,omitempty"`
	Permission *permission.Permission `json:"permission,omitempty"` // ask
	SessionID  string                 `json:"sessionId,omitempty"`  // ask
	Result     *Result                `json:"result,omitempty"`
	Error      *Error                 `json:"error,omitempty"`  // result: how the turn failed
	Reason     string                 `json:"reason,omitempty"` // declined
}

// Result is a chat.Result on the wire. The turn's text came in its
// events: a last line carrying it all again was the longest line of all.
type Result struct {
	SessionID  string `json:"sessionId"`
	StopReason string `json:"stopReason"`
}

// Error is a *chat.Error on the wire.
type Error struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Stderr  []string `json:"stderr,omitempty"`
	Agent   string   `json:"agent,omitempty"`
}

func wireError(err error) *Error {
	if err == nil {
		return nil
	}
	ce, ok := err.(*chat.Error)
	if !ok {
		return &Error{Code: chat.CodeProtocol, Message: err.Error()}
	}
	return &Error{Code: ce.Code, Message: ce.Message, Stderr: ce.Stderr, Agent: ce.Agent}
}

func (e *Error) chatError() error {
	if e == nil {
		return nil
	}
	return &chat.Error{Code: e.Code, Message: e.Message, Stderr: e.Stderr, Agent: e.Agent}
}

// maxLine bounds one line either way. Text events are split into pieces
// of maxPiece (at most 6 bytes of JSON a byte); another event that does not
// fit is replaced by a warning, so no line the server writes is longer.
const maxLine = 80 << 20

// maxPiece is the most text one event line carries.
const maxPiece = 1 << 20

func marshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
