// Package acpstub is a scripted ACP agent in the test's own process, as
// Zed's StubAgentConnection is: each test writes, inline, what the agent
// answers and the session/update notifications it sends, and the peer
// speaks real JSON-RPC over an in-memory pipe to the real client code
// (chat.Engine, through chat.Options.Dial). Tests of the engine's logic
// read as the agent's behaviour; process, pipe and signal behaviour stays
// with the subprocess fake agent (internal/testrig/fakeagent).
package acpstub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Agent is the script: how it answers each method. The zero Agent is not
// ready; use New.
type Agent struct {
	mu       sync.Mutex
	handlers map[string]func(c *Call) (any, error)
	prompt   func(t *Turn) string
	load     func(c *Call)
	calls    []Call
	sessions int
	peers    []*Peer
}

// Call is one request or notification the client sent.
type Call struct {
	Method string
	Params json.RawMessage
	peer   *Peer
	after  []string // session/update params sent right after the answer
}

// New is an agent that answers initialize (protocol 1, loadSession),
// session/new (sessions "s-1", "s-2", …), session/load, session/resume
// and session/set_config_option plainly, and a prompt with "end_turn" and
// nothing said, until the test scripts otherwise (Handle, OnPrompt).
func New() *Agent {
	a := &Agent{handlers: map[string]func(*Call) (any, error){}}
	a.Handle("initialize", func(*Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true,"embeddedContext":true}},"authMethods":[]}`), nil
	})
	a.Handle("session/new", func(*Call) (any, error) {
		a.mu.Lock()
		a.sessions++
		n := a.sessions
		a.mu.Unlock()
		return map[string]any{"sessionId": fmt.Sprintf("s-%d", n)}, nil
	})
	a.Handle("session/load", func(c *Call) (any, error) {
		a.replay(c)
		return struct{}{}, nil
	})
	for _, m := range []string{"session/resume", "session/set_config_option", "session/set_mode", "session/set_model", "authenticate"} {
		a.Handle(m, func(*Call) (any, error) { return struct{}{}, nil })
	}
	a.OnPrompt(func(*Turn) string { return "end_turn" })
	return a
}

// Handle scripts the answer to a request (a returned *Error is the
// JSON-RPC error the client gets).
func (a *Agent) Handle(method string, h func(c *Call) (any, error)) {
	a.mu.Lock()
	a.handlers[method] = h
	a.mu.Unlock()
}

// OnLoad scripts the history session/load replays: f sends it (Update)
// before the answer, whoever answers (New's handler or HoldSettings').
func (a *Agent) OnLoad(f func(c *Call)) {
	a.mu.Lock()
	a.load = f
	a.mu.Unlock()
}

func (a *Agent) replay(c *Call) {
	a.mu.Lock()
	f := a.load
	a.mu.Unlock()
	if f != nil {
		f(c)
	}
}

// OnPrompt scripts the agent's turn: f sends what the agent says and does
// while session/prompt waits, and returns the stop reason.
func (a *Agent) OnPrompt(f func(t *Turn) string) {
	a.mu.Lock()
	a.prompt = f
	a.mu.Unlock()
}

// Calls are the methods the client sent, in order, with their params.
func (a *Agent) Calls() []Call {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Call(nil), a.calls...)
}

// Methods are the names of Calls.
func (a *Agent) Methods() []string {
	var out []string
	for _, c := range a.Calls() {
		out = append(out, c.Method)
	}
	return out
}

// Params are the params of every call of method, in order.
func (a *Agent) Params(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, c := range a.Calls() {
		if c.Method == method {
			out = append(out, c.Params)
		}
	}
	return out
}

// Started counts the peers dialled (the agents the engine started).
func (a *Agent) Started() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.peers)
}

// Live counts the peers the client has not stopped (nor the script ended):
// the agents the engine still holds.
func (a *Agent) Live() int {
	a.mu.Lock()
	peers := append([]*Peer(nil), a.peers...)
	a.mu.Unlock()
	n := 0
	for _, p := range peers {
		select {
		case <-p.done:
		default:
			n++
		}
	}
	return n
}

// Last is the peer dialled last (nil before any).
func (a *Agent) Last() *Peer {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.peers) == 0 {
		return nil
	}
	return a.peers[len(a.peers)-1]
}

// Error is a JSON-RPC error answer.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// Update sends a session/update notification for the call's session from
// inside a handler (e.g. session/load replaying the history).
func (c *Call) Update(sessionID, update string) {
	c.peer.notify("session/update", json.RawMessage(`{"sessionId":`+quote(sessionID)+`,"update":`+update+`}`))
}

// SessionID is the sessionId the call names ("" if none).
func (c *Call) SessionID() string {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(c.Params, &p)
	return p.SessionID
}

// UpdateAfter sends a session/update right after the answer to this call,
// as the real adapters send a new session's commands.
func (c *Call) UpdateAfter(sessionID, update string) {
	c.after = append(c.after, `{"sessionId":`+quote(sessionID)+`,"update":`+update+`}`)
}

// Exit ends the connection from inside a handler, as an agent that quits
// (its last stderr lines, if any, are what the client reads of it).
func (c *Call) Exit(stderr ...string) { c.peer.exit(stderr) }

// Cwd is the folder the client started this agent in.
func (c *Call) Cwd() string { return c.peer.cwd }

// Turn is one session/prompt as the script sees it.
type Turn struct {
	SessionID string
	// Prompt is the prompt's content blocks as the client sent them.
	Prompt    []json.RawMessage
	peer      *Peer
	cancelled <-chan struct{}
}

// Text is the prompt's text blocks, joined.
func (t *Turn) Text() string {
	var b strings.Builder
	for _, raw := range t.Prompt {
		var blk struct{ Type, Text string }
		if json.Unmarshal(raw, &blk) == nil && blk.Type == "text" {
			b.WriteString(blk.Text)
		}
	}
	return b.String()
}

// Update sends one session/update of the turn's session; update is the
// update object's JSON, as an agent writes it.
func (t *Turn) Update(update string) {
	t.peer.notify("session/update", json.RawMessage(`{"sessionId":`+quote(t.SessionID)+`,"update":`+update+`}`))
}

// Say sends a chunk of the agent's answer.
func (t *Turn) Say(text string) {
	t.Update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + quote(text) + `}}`)
}

// Ask sends session/request_permission (toolCall and options as the agent
// writes them) and returns the client's outcome object.
func (t *Turn) Ask(toolCall, options string) json.RawMessage {
	var res struct {
		Outcome json.RawMessage `json:"outcome"`
	}
	params := json.RawMessage(`{"sessionId":` + quote(t.SessionID) + `,"toolCall":` + toolCall + `,"options":` + options + `}`)
	if err := t.peer.call("session/request_permission", params, &res); err != nil {
		return json.RawMessage(`{"error":` + quote(err.Error()) + `}`)
	}
	return res.Outcome
}

// Exit ends the connection mid-turn, as an agent that quits.
func (t *Turn) Exit() { t.peer.exit(nil) }

// Cwd is the folder the client started this agent in.
func (t *Turn) Cwd() string { return t.peer.cwd }

// Cancelled is closed when the client sends session/cancel.
func (t *Turn) Cancelled() <-chan struct{} { return t.cancelled }

// Peer is one connection to the agent: it satisfies chat.Running.
type Peer struct {
	a         *Agent
	cwd       string
	toAgent   *io.PipeReader // what the client writes
	fromAgent *io.PipeWriter // what the client reads
	clientIn  *io.PipeWriter
	clientOut *io.PipeReader

	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan rpcMsg
	cancel  map[string]chan struct{} // per session: closed on session/cancel
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	stderr  []string // set before done is closed
	// what the agent runs with on this connection (HoldSettings), by id,
	// and the ids in the options' order
	settings map[string]any
	order    []string
}

type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Dial starts a connection to the agent (chat.Options.Dial's shape, with
// a *Peer for the chat.Running).
func (a *Agent) Dial(cwd string) (*Peer, error) {
	p := &Peer{a: a, cwd: cwd, pending: map[int]chan rpcMsg{}, cancel: map[string]chan struct{}{}, done: make(chan struct{})}
	p.toAgent, p.clientIn = io.Pipe()
	p.clientOut, p.fromAgent = io.Pipe()
	a.mu.Lock()
	a.peers = append(a.peers, p)
	a.mu.Unlock()
	go p.serve()
	return p, nil
}

func (p *Peer) serve() {
	defer p.Stop()
	sc := bufio.NewScanner(p.toAgent)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var m rpcMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		if m.Method == "" { // a response to one of ours
			var id int
			json.Unmarshal(m.ID, &id)
			p.mu.Lock()
			ch := p.pending[id]
			delete(p.pending, id)
			p.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		c := Call{Method: m.Method, Params: m.Params, peer: p}
		p.a.mu.Lock()
		p.a.calls = append(p.a.calls, c)
		p.a.mu.Unlock()
		if m.ID == nil {
			p.notified(c)
			continue
		}
		// Each request on its own: a prompt waits while cancel and the
		// answers to its permission requests come in.
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			res, err := p.answer(&c)
			out := rpcMsg{ID: m.ID}
			if err != nil {
				e, ok := err.(*Error)
				if !ok {
					e = &Error{Code: -32603, Message: err.Error()}
				}
				out.Error = e
			} else if b, merr := json.Marshal(res); merr != nil {
				// A script's malformed answer is an error the client sees,
				// not a response that never comes (a hung test).
				out.Error = &Error{Code: -32603, Message: "acpstub: the script's answer is not JSON: " + merr.Error()}
			} else {
				out.Result = b
			}
			p.write(out)
			for _, u := range c.after {
				p.notify("session/update", json.RawMessage(u))
			}
		}()
	}
}

func (p *Peer) notified(c Call) {
	if c.Method != "session/cancel" {
		return
	}
	var n struct{ SessionID string }
	json.Unmarshal(c.Params, &n)
	p.mu.Lock()
	if ch := p.cancel[n.SessionID]; ch != nil {
		close(ch)
		delete(p.cancel, n.SessionID)
	}
	p.mu.Unlock()
}

func (p *Peer) answer(c *Call) (any, error) {
	if c.Method == "session/prompt" {
		var req struct {
			SessionID string            `json:"sessionId"`
			Prompt    []json.RawMessage `json:"prompt"`
		}
		json.Unmarshal(c.Params, &req)
		ch := make(chan struct{})
		p.mu.Lock()
		p.cancel[req.SessionID] = ch
		p.mu.Unlock()
		p.a.mu.Lock()
		f := p.a.prompt
		p.a.mu.Unlock()
		stop := f(&Turn{SessionID: req.SessionID, Prompt: req.Prompt, peer: p, cancelled: ch})
		return map[string]string{"stopReason": stop}, nil
	}
	p.a.mu.Lock()
	h := p.a.handlers[c.Method]
	p.a.mu.Unlock()
	if h == nil {
		return nil, &Error{Code: -32601, Message: "Method not found: " + c.Method}
	}
	return h(c)
}

func (p *Peer) write(m rpcMsg) error {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		rpcMsg
	}{"2.0", m})
	if err != nil {
		return err
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err = p.fromAgent.Write(append(b, '\n'))
	return err
}

func (p *Peer) notify(method string, params json.RawMessage) {
	p.write(rpcMsg{Method: method, Params: params})
}

func (p *Peer) call(method string, params json.RawMessage, result any) error {
	ch := make(chan rpcMsg, 1)
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.pending[id] = ch
	p.mu.Unlock()
	if err := p.write(rpcMsg{ID: json.RawMessage(fmt.Sprint(id)), Method: method, Params: params}); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		return json.Unmarshal(m.Result, result)
	case <-p.done:
		return context.Canceled
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Stdin is what the client writes to the agent.
func (p *Peer) Stdin() io.WriteCloser { return p.clientIn }

// Stdout is what the client reads from the agent.
func (p *Peer) Stdout() io.Reader { return p.clientOut }

// StderrTail is what the script gave Exit (nothing before it ends).
func (p *Peer) StderrTail() []string {
	select {
	case <-p.done:
		return p.stderr
	default:
		return nil
	}
}

// Done is closed once the peer stopped.
func (p *Peer) Done() <-chan struct{} { return p.done }

// ExitErr is nil: the peer has no exit status.
func (p *Peer) ExitErr() error { return nil }

// Pid is 0: no process.
func (p *Peer) Pid() int { return 0 }

func (p *Peer) exit(stderr []string) {
	p.once.Do(func() {
		p.stderr = stderr
		close(p.done)
		p.toAgent.Close()
		p.fromAgent.Close()
	})
}

// Stop closes the pipes; the client reads EOF, as from an agent that quit.
func (p *Peer) Stop() error {
	p.exit(nil)
	return nil
}

// Release stops the peer: it has no session to save.
func (p *Peer) Release() { p.Stop() }

// Kill stops the peer.
func (p *Peer) Kill() { p.Stop() }
