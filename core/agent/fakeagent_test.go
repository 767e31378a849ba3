//go:build unix

package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"

	"github.com/rs/zerolog"
)

// startFake runs the fake ACP agent under Start and opens a session.
func startFake(t *testing.T) (*Process, *bufio.Reader, string) {
	t.Helper()
	dir := t.TempDir()
	cmd := Command{Path: fakeagenttest.Build(t), Env: []string{"FAKE_AGENT_STATE=" + t.TempDir()}, Source: "test", Reason: "The test runs the fake agent."}
	p, err := Start(context.Background(), cmd, dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill(); <-p.Done() })
	out := bufio.NewReader(p.Stdout())
	rpc(t, p.Stdin(), out, 1, "initialize", map[string]any{"protocolVersion": 1})
	res := rpc(t, p.Stdin(), out, 2, "session/new", map[string]any{"cwd": dir, "mcpServers": []any{}})
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(res, &r)
	return p, out, r.SessionID
}

// rpc sends a request and returns its result, skipping notifications.
func rpc(t *testing.T, in io.Writer, out *bufio.Reader, id int, method string, params any) json.RawMessage {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	for {
		line := readLineFrom(t, out)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Method == "" && string(m.ID) == strconv.Itoa(id) {
			return m.Result
		}
	}
}

func TestStopWellBehavedFakeAgent(t *testing.T) {
	p, _, _ := startFake(t)
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := p.ExitErr(); err != nil {
		t.Errorf("ExitErr = %v, want a clean exit on stdin close", err)
	}
}

func TestStopKillsHungFakeAgentAndGrandchild(t *testing.T) {
	p, out, sid := startFake(t)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
		"params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#hang"}}}})
	p.Stdin().Write(append(b, '\n'))
	re := regexp.MustCompile(`grandchild pid (\d+)`)
	var grandchild int
	for grandchild == 0 {
		if m := re.FindStringSubmatch(readLineFrom(t, out)); m != nil {
			grandchild, _ = strconv.Atoi(m[1])
		}
	}
	if err := syscall.Kill(grandchild, 0); err != nil {
		t.Fatalf("grandchild %d not running: %v", grandchild, err)
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	// It ignored stdin close and SIGTERM, so only SIGKILL can have ended it.
	var ee *ExitError
	if !errors.As(p.ExitErr(), &ee) || ee.Signal != syscall.SIGKILL {
		t.Errorf("ExitErr = %v, want killed by SIGKILL", p.ExitErr())
	}
	for _, target := range []int{-p.Pid(), grandchild} {
		if err := syscall.Kill(target, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill(%d, 0) = %v, want ESRCH", target, err)
		}
	}
	if tail := p.StderrTail(); len(tail) == 0 || !regexp.MustCompile(`hanging; grandchild pid`).MatchString(tail[len(tail)-1]) {
		t.Errorf("stderr tail %q lacks the agent's last words", tail)
	}
}
