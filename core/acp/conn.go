// Package acp speaks the Agent Client Protocol (v1) as a client: JSON-RPC 2.0
// framed as newline-delimited JSON over a reader/writer pair, plus the ACP
// message types this app needs. It knows nothing of processes, Codex or UIs.
//
// Framing: one message per line, read with a growing buffer, so frames of
// 64 MiB and more pass both ways (DefaultMaxLine is 256 MiB).
//
// Decoding: each line is read once (decode.go): the envelope and, for
// session/update, the typed notification with its content block come out
// of one pass, and handlers get them typed (HandleUpdates); what the pass
// is unsure of goes through encoding/json with the same meaning.
//
// Lines that are not JSON-RPC messages (a debugger banner, a stray print
// from a dependency, a frame over the limit) are logged, counted
// (Conn.BadLines), handed to the OnBadLine handler in order with the other
// messages, and skipped. The connection stays up: an agent that printed
// one wrong line is still worth talking to. Empty lines are ignored.
package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// DefaultMaxLine bounds one inbound frame. Agents send whole files and images
// inline, so this is far above the 64 MiB the app must handle; a longer line
// is skipped (counted as a bad line), never fatal.
const DefaultMaxLine = 256 << 20

// ErrClosed is wrapped by every error caused by the link going away: the
// agent closed its stdout, a write failed, or Close was called. The chat
// layer tests for it to tell "agent died" from an agent-reported error.
var ErrClosed = errors.New("acp: connection closed")

// RequestHandler answers one request from the agent. Returning an *RPCError
// sends that error; any other error is sent as -32603 internal error.
type RequestHandler func(ctx context.Context, id json.RawMessage, params json.RawMessage) (any, error)

// NotificationHandler handles one notification from the agent.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// UpdateHandler handles one session/update notification, decoded once by
// the reader (see decode.go). A nil err means n is fully decoded; an
// update that did not decode as its variant comes with the error and n
// holding only the session id and the raw update, to be passed on as is.
//
// It normally runs on the goroutine that reads the link, so it should
// return promptly: one that runs longer than stallAfter (100 ms) makes
// reading move to another goroutine, which costs a hand-off, no more.
type UpdateHandler func(ctx context.Context, n SessionNotification, err error)

// BadLineHandler is told about an inbound line that is not a JSON-RPC message.
type BadLineHandler func(line []byte, err error)

// Options tune a Conn. The zero value is ready to use.
type Options struct {
	Log     zerolog.Logger
	MaxLine int // bytes; 0 = DefaultMaxLine
	// MaxQueue bounds the bytes of inbound lines waiting for a busy
	// handler; past it reading waits (0 = DefaultMaxQueue).
	MaxQueue int
}

// DefaultMaxQueue is the default Options.MaxQueue. A handler that cannot
// keep up (the UI, a terminal) holds the agent back once this much waits,
// so a flooding agent costs bounded memory; the pipe then blocks its writes.
const DefaultMaxQueue = 4 << 20

// Conn is one JSON-RPC link to an agent.
//
// Everything the agent sends on its own initiative (notifications and its
// requests) is handled strictly in arrival order, one at a time, and a
// handler that takes long never stops reading: what arrives meanwhile
// waits in a queue, so a slow consumer never makes us drop the link. The
// queue is bounded (MaxQueue): once full, reading waits for the handler,
// and the agent for its pipe. Responses to our own calls bypass the queue
// until then: a Call completes while a handler is busy. (How: inbound.go.)
type Conn struct {
	w       io.Writer
	r       io.Reader
	log     zerolog.Logger
	maxLine int

	wmu sync.Mutex // one frame at a time on the wire

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]chan response
	closed   bool
	closeErr error

	hmu      sync.RWMutex
	requests map[string]RequestHandler
	notifs   map[string]NotificationHandler
	updates  UpdateHandler
	badLine  BadLineHandler

	dec lineDecoder // the reader role's

	// The workers' roles and queue (see inbound.go).
	qmu        sync.Mutex
	qcond      *sync.Cond // the idle worker waits on it
	queue      []inbound  // non-empty only while a worker dispatches
	queued     int        // bytes of the lines in queue
	maxQueue   int
	qroom      *sync.Cond // the reader waits on it for room in the queue
	roomWaits  atomic.Int64
	reader     int // the worker reading; 0 while the role is handed over
	dispatcher int // the worker running handlers; 0 when none does
	readerDone bool
	stopped    bool
	exited     bool
	stall      stallWatch // hands the reader role over when a handler runs long

	halted atomic.Bool // stopped, readable without qmu

	badLines atomic.Int64
	started  atomic.Bool

	ctx        context.Context
	cancel     context.CancelFunc
	done       chan struct{} // input ended
	dispatched chan struct{} // dispatching ended
	readErr    error
}

type inbound struct {
	kind   int
	id     json.RawMessage
	method string
	params json.RawMessage
	note   *SessionNotification // inUpdate
	line   []byte
	err    error // inBadLine: why; inUpdate: why the update did not decode
	flush  chan struct{}
}

const (
	inRequest = iota
	inNotification
	inUpdate
	inBadLine
	inFlush
)

type response struct {
	result json.RawMessage
	err    error
}

// NewConn returns a Conn reading frames from r and writing to w. Register
// handlers, then call Start.
func NewConn(r io.Reader, w io.Writer, opts Options) *Conn {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{
		w:          w,
		r:          r,
		log:        opts.Log,
		maxLine:    opts.MaxLine,
		maxQueue:   opts.MaxQueue,
		pending:    map[int64]chan response{},
		requests:   map[string]RequestHandler{},
		notifs:     map[string]NotificationHandler{},
		ctx:        ctx,
		cancel:     cancel,
		done:       make(chan struct{}),
		dispatched: make(chan struct{}),
	}
	if c.maxLine <= 0 {
		c.maxLine = DefaultMaxLine
	}
	if c.maxQueue <= 0 {
		c.maxQueue = DefaultMaxQueue
	}
	c.qcond = sync.NewCond(&c.qmu)
	c.qroom = sync.NewCond(&c.qmu)
	return c
}

// HandleRequest registers h for inbound requests named method.
func (c *Conn) HandleRequest(method string, h RequestHandler) {
	c.hmu.Lock()
	c.requests[method] = h
	c.hmu.Unlock()
}

// HandleNotification registers h for inbound notifications named method.
// session/update is decoded by the Conn itself and goes to HandleUpdates;
// registering it here is a programming error.
func (c *Conn) HandleNotification(method string, h NotificationHandler) {
	if method == MethodSessionUpdate {
		panic("acp: session/update notifications go to HandleUpdates")
	}
	c.hmu.Lock()
	c.notifs[method] = h
	c.hmu.Unlock()
}

// HandleUpdates registers h for session/update notifications.
func (c *Conn) HandleUpdates(h UpdateHandler) {
	c.hmu.Lock()
	c.updates = h
	c.hmu.Unlock()
}

// OnBadLine registers h, called on the dispatcher (in order with the other
// messages) for every inbound line that is not a JSON-RPC message.
func (c *Conn) OnBadLine(h BadLineHandler) {
	c.hmu.Lock()
	c.badLine = h
	c.hmu.Unlock()
}

// Start launches the reader and the dispatcher. Calling it twice is a no-op.
func (c *Conn) Start() {
	if !c.started.CompareAndSwap(false, true) {
		return
	}
	c.stall.timer = time.AfterFunc(time.Hour, c.stalled)
	c.stall.timer.Stop()
	in := &input{br: bufio.NewReaderSize(c.r, 64<<10)}
	c.qmu.Lock()
	c.reader = 1
	c.qmu.Unlock()
	go c.work(1, in)
	go c.work(2, in)
}

// Done is closed when the inbound side has ended (EOF or read error).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Dispatched is closed when everything that arrived before the link ended
// has been handled (or Close dropped the rest).
func (c *Conn) Dispatched() <-chan struct{} { return c.dispatched }

// Err is why the inbound side ended; valid after Done.
func (c *Conn) Err() error { return c.readErr }

// BadLines counts inbound lines that were skipped because they were not
// JSON-RPC messages (or were longer than MaxLine).
func (c *Conn) BadLines() int64 { return c.badLines.Load() }

// Close fails pending calls, stops dispatching and cancels handler contexts.
// It does not close the reader or writer: the owner of the process does.
func (c *Conn) Close() error {
	c.fail(fmt.Errorf("%w: closed by client", ErrClosed))
	c.qmu.Lock()
	c.stopped = true
	c.halted.Store(true)
	c.qcond.Broadcast()
	c.qroom.Broadcast()
	c.qmu.Unlock()
	c.cancel()
	return nil
}

// Call sends a request and waits for its response, decoding the result into
// result (unless nil). An error response is returned as *RPCError (wrapped
// with the method name); a dead link as an error wrapping ErrClosed.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	if c.closed {
		err := c.closeErr
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	c.nextID++
	id := c.nextID
	ch := make(chan response, 1)
	c.pending[id] = ch
	c.mu.Unlock()

	if err := c.send(outRequest{JSONRPC: "2.0", ID: &id, Method: method, Params: params}); err != nil {
		c.forget(id)
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return fmt.Errorf("%s: %w", method, r.err)
		}
		if result != nil && len(r.result) > 0 {
			if err := json.Unmarshal(r.result, result); err != nil {
				return fmt.Errorf("%s: decode result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	if err := c.send(outRequest{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// Flush waits until every message that arrived before the call has been
// handled, e.g. all updates sent before a prompt's response.
func (c *Conn) Flush(ctx context.Context) error {
	c.qmu.Lock()
	if c.exited || c.stopped || c.dispatcher == 0 {
		c.qmu.Unlock()
		return nil // nothing is being handled: everything read so far was
	}
	ch := make(chan struct{})
	c.queue = append(c.queue, inbound{kind: inFlush, flush: ch})
	c.qmu.Unlock()
	select {
	case <-ch:
		return nil
	case <-c.dispatched:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// fail ends every pending call with err and refuses new ones.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		c.closeErr = err
	}
	pending := c.pending
	c.pending = map[int64]chan response{}
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- response{err: err}
	}
}

type outRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type outResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

func (c *Conn) send(msg any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // prompts carry code; keep < > & readable on the wire
	if err := enc.Encode(msg); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	c.wmu.Lock()
	_, err := c.w.Write(buf.Bytes()) // Encode appended the newline
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%w: write: %w", ErrClosed, err)
	}
	return nil
}

func (c *Conn) handle(in inbound) {
	switch in.kind {
	case inFlush:
		close(in.flush)
	case inBadLine:
		c.hmu.RLock()
		h := c.badLine
		c.hmu.RUnlock()
		if h != nil {
			h(in.line, in.err)
		}
	case inUpdate:
		c.hmu.RLock()
		h := c.updates
		c.hmu.RUnlock()
		if h == nil {
			c.log.Debug().Msg("acp: ignored session/update (no handler)")
			return
		}
		c.safely(MethodSessionUpdate, func() { h(c.ctx, *in.note, in.err) })
	case inNotification:
		c.hmu.RLock()
		h := c.notifs[in.method]
		c.hmu.RUnlock()
		if h == nil {
			// Agents send extension notifications (e.g. _auth/status_update);
			// JSON-RPC says a notification never gets an answer, so ignore it.
			c.log.Debug().Str("method", in.method).Msg("acp: ignored notification")
			return
		}
		c.safely(in.method, func() { h(c.ctx, in.params) })
	case inRequest:
		c.hmu.RLock()
		h := c.requests[in.method]
		c.hmu.RUnlock()
		if h == nil {
			c.reply(in.id, nil, &RPCError{Code: CodeMethodNotFound, Message: "Method not found: " + in.method})
			return
		}
		var (
			result any
			err    error
		)
		if !c.safely(in.method, func() { result, err = h(c.ctx, in.id, in.params) }) {
			err = errors.New("handler panicked")
		}
		if err != nil {
			var re *RPCError
			if !errors.As(err, &re) {
				re = &RPCError{Code: CodeInternalError, Message: err.Error()}
			}
			c.reply(in.id, nil, re)
			return
		}
		c.reply(in.id, result, nil)
	}
}

// safely runs f, turning a handler panic into a log line: one bad handler
// must not take the app down with the link.
func (c *Conn) safely(method string, f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error().Str("method", method).Interface("panic", r).Msg("acp: handler panicked")
			ok = false
		}
	}()
	f()
	return true
}

func (c *Conn) reply(id json.RawMessage, result any, rerr *RPCError) {
	msg := outResponse{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		if result == nil {
			result = struct{}{}
		}
		msg.Result = result
	}
	if err := c.send(msg); err != nil {
		c.log.Warn().Err(err).Str("id", string(id)).Msg("acp: could not answer the agent's request")
	}
}
