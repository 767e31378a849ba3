//go:build unix

// Package bare is the smallest possible ACP client: raw JSON-RPC lines over an
// adapter's stdin/stdout, no core/acp, no core/chat. The benchmark uses it as
// the floor our engine is measured against, and it is how the adapters'
// real behaviour was explored.
package bare

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Options configure a client.
type Options struct {
	Path string   // executable
	Args []string // its arguments
	Env  []string // appended to the inherited environment
	Dir  string   // working directory

	// OnNotify sees every notification, on the reader goroutine, in order.
	OnNotify func(method string, params json.RawMessage)
	// OnRequest answers requests from the agent (e.g. session/request_permission);
	// nil answers every request with -32601.
	OnRequest func(method string, params json.RawMessage) (any, error)
	// Trace, if set, receives every line both ways prefixed with "> " or "< ".
	Trace io.Writer
}

// Client is one running adapter process with its connection.
type Client struct {
	opts   Options
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	mu     sync.Mutex
	nextID int
	calls  map[string]chan reply
	done   chan struct{} // closed when the reader ends
	rerr   error
	exited chan struct{}
	once   sync.Once
}

type reply struct {
	result json.RawMessage
	err    *RPCError
}

// RPCError is a JSON-RPC error answer.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// Start spawns the adapter in its own process group.
func Start(opts Options) (*Client, error) {
	cmd := exec.Command(opts.Path, opts.Args...)
	cmd.Dir = opts.Dir
	cmd.Env = append(os.Environ(), opts.Env...)
	cmd.Stderr = io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("bare: stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("bare: stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bare: start %s: %w", opts.Path, err)
	}
	c := &Client{opts: opts, cmd: cmd, stdin: stdin, calls: map[string]chan reply{},
		done: make(chan struct{}), exited: make(chan struct{})}
	go c.read(stdout)
	go func() { _ = cmd.Wait(); close(c.exited) }()
	return c, nil
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

func (c *Client) read(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.trace("< ", line)
			c.handle(line)
		}
		if err != nil {
			c.mu.Lock()
			c.rerr = err
			for id, ch := range c.calls {
				close(ch)
				delete(c.calls, id)
			}
			c.mu.Unlock()
			return
		}
	}
}

func (c *Client) handle(line []byte) {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return // not JSON-RPC: an adapter's stray output line
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		var result any
		var err error = &RPCError{Code: -32601, Message: "method not found"}
		if c.opts.OnRequest != nil {
			result, err = c.opts.OnRequest(m.Method, m.Params)
		}
		out := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		var re *RPCError
		switch {
		case errors.As(err, &re):
			out["error"] = re
		case err != nil:
			out["error"] = &RPCError{Code: -32603, Message: err.Error()}
		default:
			out["result"] = result
		}
		_ = c.write(out)
	case m.Method != "":
		if c.opts.OnNotify != nil {
			c.opts.OnNotify(m.Method, m.Params)
		}
	case len(m.ID) > 0:
		c.mu.Lock()
		ch := c.calls[string(m.ID)]
		delete(c.calls, string(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- reply{result: m.Result, err: m.Error}
		}
	}
}

func (c *Client) trace(prefix string, line []byte) {
	if c.opts.Trace == nil {
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.opts.Trace.Write(append([]byte(prefix), line...))
}

func (c *Client) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.trace("> ", b)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.stdin.Write(b)
	return err
}

// Call sends a request and waits for its answer.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bare: %s: %w", method, err)
	}
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan reply, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("bare: send %s: %w", method, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("bare: %s: connection closed", method)
		}
		if r.err != nil {
			return nil, fmt.Errorf("bare: %s: %w", method, r.err)
		}
		return r.result, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("bare: %s: %w", method, ctx.Err())
	}
}

// Notify sends a notification (e.g. session/cancel).
func (c *Client) Notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Pid is the adapter's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Close ends the adapter: close stdin, then SIGTERM and SIGKILL to its
// process group if it lingers. Idempotent.
func (c *Client) Close() error {
	c.once.Do(func() {
		_ = c.stdin.Close()
		pgid := c.cmd.Process.Pid
		for _, step := range []struct {
			wait time.Duration
			sig  syscall.Signal
		}{{2 * time.Second, syscall.SIGTERM}, {2 * time.Second, syscall.SIGKILL}} {
			select {
			case <-c.exited:
			case <-time.After(step.wait):
			}
			// Signal the group even after the leader exited: its children
			// (codex app-server) may still run.
			_ = syscall.Kill(-pgid, step.sig)
		}
		<-c.exited
	})
	return nil
}

// Initialize sends ACP initialize (protocol v1, no client capabilities).
func (c *Client) Initialize(ctx context.Context) error {
	_, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion":    1,
		"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": false, "writeTextFile": false}, "terminal": false},
		"clientInfo":         map[string]any{"name": "cdxtheme-bare", "version": "0"},
	})
	return err
}

// OpenSession sends session/new, or session/<how> ("load" or "resume") for
// an existing id, and returns the session id.
func (c *Client) OpenSession(ctx context.Context, how, cwd, sessionID string) (string, error) {
	params := map[string]any{"cwd": cwd, "mcpServers": []any{}}
	method := "session/new"
	if how != "" && how != "new" {
		method = "session/" + how
		params["sessionId"] = sessionID
	}
	res, err := c.Call(ctx, method, params)
	if err != nil {
		return "", err
	}
	if method != "session/new" {
		return sessionID, nil
	}
	var r struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.SessionID == "" {
		return "", fmt.Errorf("bare: session/new answered without a sessionId: %s", res)
	}
	return r.SessionID, nil
}

// Prompt sends one text prompt and returns the stop reason.
func (c *Client) Prompt(ctx context.Context, sessionID, text string) (string, error) {
	res, err := c.Call(ctx, "session/prompt", map[string]any{
		"sessionId": sessionID,
		"prompt":    []any{map[string]any{"type": "text", "text": text}},
	})
	if err != nil {
		return "", err
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	_ = json.Unmarshal(res, &r)
	return r.StopReason, nil
}

// FirstTurn is initialize, session/new in cwd, and one prompt: the shortest
// path from a fresh process to an answer. It returns the session id.
func FirstTurn(ctx context.Context, c *Client, cwd, text string) (string, error) {
	if err := c.Initialize(ctx); err != nil {
		return "", err
	}
	sid, err := c.OpenSession(ctx, "new", cwd, "")
	if err != nil {
		return "", err
	}
	if _, err := c.Prompt(ctx, sid, text); err != nil {
		return sid, err
	}
	return sid, nil
}
