package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/syncbuf"
)

// The tests drive the real binary over pipes with raw JSON, the way a
// client would, so they check the wire and not the Go internals.

const timeout = 60 * time.Second

// msg is one line from the agent's stdout; Garbage holds a non-JSON line.
type msg struct {
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
	Garbage string          `json:"-"`
}

// update returns the session/update payload of a notification, or nil.
func (m msg) update() map[string]any {
	if m.Method != "session/update" {
		return nil
	}
	var p struct {
		Update map[string]any `json:"update"`
	}
	json.Unmarshal(m.Params, &p)
	return p.Update
}

type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	msgs   chan msg
	stderr *syncbuf.Buffer
	exited chan struct{}
	nextID int
	// answer handles the agent's own requests (permission); nil = cancelled.
	answer func(m msg) any
}

// env is a fake machine shared by the processes of one test.
type env struct {
	state string
	log   string
	cwd   string
}

func newEnv(t *testing.T) env {
	d := t.TempDir()
	e := env{state: filepath.Join(d, "state"), log: filepath.Join(d, "requests.jsonl"), cwd: filepath.Join(d, "work")}
	if err := os.MkdirAll(e.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e env) start(t *testing.T, extra ...string) *client {
	t.Helper()
	cmd := exec.Command(fakeagenttest.Build(t))
	cmd.Dir = e.cwd
	cmd.Env = append(os.Environ(), "FAKE_AGENT_STATE="+e.state, "FAKE_AGENT_LOG="+e.log, "FAKE_AGENT_SCENARIO=")
	cmd.Env = append(cmd.Env, extra...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, cmd: cmd, in: in, msgs: make(chan msg, 1024), stderr: &syncbuf.Buffer{Keep: 1 << 20}, exited: make(chan struct{}), nextID: 1}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				var m msg
				if json.Unmarshal(line, &m) != nil {
					m = msg{Garbage: strings.TrimSpace(string(line))}
				}
				c.msgs <- m
			}
			if err != nil {
				close(c.msgs)
				return
			}
		}
	}()
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		<-c.exited
	})
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatalf("write to agent: %v", err)
	}
}

// next returns the next message, answering the agent's own requests.
func (c *client) next() (msg, bool) {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		return m, ok
	case <-time.After(timeout):
		c.t.Fatalf("no message from the agent within %v; stderr:\n%s", timeout, c.stderr)
		return msg{}, false
	}
}

// call sends a request and collects everything until its response.
func (c *client) call(method string, params any) (result json.RawMessage, rerr *rpcError, seen []msg) {
	c.t.Helper()
	id := c.nextID
	c.nextID++
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	want := fmt.Sprint(id)
	for {
		m, ok := c.next()
		if !ok {
			c.t.Fatalf("%s: agent closed stdout; stderr:\n%s", method, c.stderr)
		}
		if m.Method == "" && string(m.ID) == want {
			return m.Result, m.Error, seen
		}
		seen = append(seen, m)
		if m.Method != "" && len(m.ID) > 0 {
			var outcome any = map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
			if c.answer != nil {
				outcome = c.answer(m)
			}
			if outcome != nil {
				c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": outcome})
			}
		}
	}
}

// mustCall is call that fails the test on an error response.
func (c *client) mustCall(method string, params any) (json.RawMessage, []msg) {
	c.t.Helper()
	res, rerr, seen := c.call(method, params)
	if rerr != nil {
		c.t.Fatalf("%s: %v", method, rerr)
	}
	return res, seen
}

func (c *client) initialize() map[string]any {
	c.t.Helper()
	res, _ := c.mustCall("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}, "clientInfo": map[string]any{"name": "test", "version": "0"}})
	var m map[string]any
	json.Unmarshal(res, &m)
	return m
}

func (c *client) newSession(cwd string) (string, map[string]any) {
	c.t.Helper()
	res, _ := c.mustCall("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	var m map[string]any
	json.Unmarshal(res, &m)
	id, _ := m["sessionId"].(string)
	if id == "" {
		c.t.Fatalf("session/new gave no sessionId: %s", res)
	}
	// Like the real adapters, the command list follows the response.
	if next, _ := c.next(); next.update()["sessionUpdate"] != "available_commands_update" {
		c.t.Fatalf("after session/new: %+v, want available_commands_update", next)
	}
	return id, m
}

// turnResult is what a prompt produced.
type turnResult struct {
	stopReason string
	scenario   string
	text       string           // all agent_message_chunk text
	updates    []map[string]any // session/update payloads in order
	garbage    []string
	requests   []msg // the agent's own requests
	rerr       *rpcError
}

func (r turnResult) kinds() []string {
	var k []string
	for _, u := range r.updates {
		k = append(k, fmt.Sprint(u["sessionUpdate"]))
	}
	return k
}

func (r turnResult) first(kind string) map[string]any {
	for _, u := range r.updates {
		if u["sessionUpdate"] == kind {
			return u
		}
	}
	return nil
}

func (c *client) prompt(sessionID string, blocks ...any) turnResult {
	c.t.Helper()
	if len(blocks) == 1 {
		if s, ok := blocks[0].(string); ok {
			blocks = []any{map[string]any{"type": "text", "text": s}}
		}
	}
	res, rerr, seen := c.call("session/prompt", map[string]any{"sessionId": sessionID, "prompt": blocks})
	return collect(res, rerr, seen)
}

func collect(res json.RawMessage, rerr *rpcError, seen []msg) turnResult {
	var r turnResult
	r.rerr = rerr
	var pr struct {
		StopReason string `json:"stopReason"`
		Meta       struct {
			Fake struct {
				Scenario string `json:"scenario"`
			} `json:"fakeagent"`
		} `json:"_meta"`
	}
	json.Unmarshal(res, &pr)
	r.stopReason, r.scenario = pr.StopReason, pr.Meta.Fake.Scenario
	var text strings.Builder
	for _, m := range seen {
		switch {
		case m.Garbage != "":
			r.garbage = append(r.garbage, m.Garbage)
		case m.Method != "" && len(m.ID) > 0:
			r.requests = append(r.requests, m)
		case m.update() != nil:
			u := m.update()
			r.updates = append(r.updates, u)
			if u["sessionUpdate"] == "agent_message_chunk" {
				if c, ok := u["content"].(map[string]any); ok && c["type"] == "text" {
					text.WriteString(c["text"].(string))
				}
			}
		}
	}
	r.text = text.String()
	return r
}

// waitExit waits for the agent process to end and returns its exit code.
func (c *client) waitExit() int {
	c.t.Helper()
	select {
	case <-c.exited:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		c.t.Fatal("agent did not exit")
		return -1
	}
}

// requestLog reads FAKE_AGENT_LOG.
func (e env) requestLog(t *testing.T) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(e.log)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}
