package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// message is any JSON-RPC 2.0 message; which fields are set says what it is.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// JSON-RPC / ACP error codes.
const (
	codeInvalidParams  = -32602
	codeMethodNotFound = -32601
	codeInternal       = -32603
	codeAuthRequired   = -32000
	codeNotFound       = -32002
)

func errInvalid(format string, a ...any) *rpcError {
	return &rpcError{Code: codeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, a...)}
}

// wire is the agent's side of the stdio connection. Every write goes
// through one mutex so concurrent senders never interleave lines.
type wire struct {
	mu  sync.Mutex
	out *bufio.Writer

	pmu     sync.Mutex
	pending map[string]chan message // our outgoing requests by raw id
	closed  chan struct{}           // stdin reached EOF

	logMu sync.Mutex
	log   *os.File // FAKE_AGENT_LOG, nil when unset
}

func newWire(out io.Writer, logPath string) (*wire, error) {
	w := &wire{
		out:     bufio.NewWriterSize(out, 64<<10),
		pending: map[string]chan message{},
		closed:  make(chan struct{}),
	}
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open FAKE_AGENT_LOG: %w", err)
		}
		w.log = f
	}
	return w, nil
}

// writeRaw writes one line (no newline in b) and flushes.
func (w *wire) writeRaw(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out.Write(b)
	w.out.WriteByte('\n')
	return w.out.Flush()
}

func (w *wire) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return w.writeRaw(b)
}

// sendMany writes many messages under one lock with one flush, for bursts.
func (w *wire) sendMany(n int, next func(i int) any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 0; i < n; i++ {
		b, err := json.Marshal(next(i))
		if err != nil {
			return err
		}
		w.out.Write(b)
		w.out.WriteByte('\n')
	}
	return w.out.Flush()
}

func (w *wire) respond(id json.RawMessage, result any) error {
	return w.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (w *wire) respondErr(id json.RawMessage, e *rpcError) error {
	return w.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
}

func (w *wire) notify(method string, params any) error {
	return w.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (w *wire) update(sessionID string, update map[string]any) error {
	return w.notify("session/update", map[string]any{"sessionId": sessionID, "update": update})
}

var errClosed = errors.New("connection closed")

// call sends a request with the given id (a number or a string) and waits
// for the client's answer.
func (w *wire) call(id any, method string, params any) (json.RawMessage, error) {
	rawID, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	ch := make(chan message, 1)
	w.pmu.Lock()
	w.pending[string(rawID)] = ch
	w.pmu.Unlock()
	if err := w.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-w.closed:
		return nil, errClosed
	}
}

// deliver hands a response to the call waiting for it.
func (w *wire) deliver(m message) {
	w.pmu.Lock()
	ch, ok := w.pending[string(m.ID)]
	delete(w.pending, string(m.ID))
	w.pmu.Unlock()
	if ok {
		ch <- m
	} else {
		fmt.Fprintf(os.Stderr, "fakeagent: response to unknown id %s\n", m.ID)
	}
}

// record appends a received line to FAKE_AGENT_LOG.
func (w *wire) record(line []byte) {
	if w.log == nil {
		return
	}
	w.logMu.Lock()
	defer w.logMu.Unlock()
	w.log.Write(line)
	w.log.Write([]byte{'\n'})
}
