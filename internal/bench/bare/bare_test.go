//go:build unix

package bare

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// TestMain doubles as a tiny scripted agent when re-executed with
// BARE_TEST_AGENT=1, so the client is tested over a real pipe and process.
func TestMain(m *testing.M) {
	if os.Getenv("BARE_TEST_AGENT") == "1" {
		scriptedAgent()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// scriptedAgent: "ask" makes it send a permission request (string id) and
// answer with the chosen option; "fail" answers an error; "quit" exits
// without answering; anything else echoes its params. It writes a non-JSON
// line and a notification before each answer.
func scriptedAgent() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.Method == "" {
			continue
		}
		fmt.Fprintln(out, "not json at all")
		send(map[string]any{"jsonrpc": "2.0", "method": "note", "params": map[string]any{"about": m.Method}})
		switch m.Method {
		case "ask":
			send(map[string]any{"jsonrpc": "2.0", "id": "uuid-1", "method": "session/request_permission", "params": map[string]any{"q": 1}})
			in.Scan()
			var ans struct {
				ID     string          `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *RPCError       `json:"error"`
			}
			_ = json.Unmarshal(in.Bytes(), &ans)
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"answerId": ans.ID, "answer": ans.Result, "error": ans.Error}})
		case "fail":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32602, "message": "Invalid params"}})
		case "quit":
			os.Exit(0)
		case "hang":
		default:
			if len(m.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": m.Params})
			}
		}
	}
}

func startScripted(t *testing.T, opts Options) *Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Path, opts.Env = exe, append(opts.Env, "BARE_TEST_AGENT=1")
	c, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestCallsAndNotifications(t *testing.T) {
	var mu sync.Mutex
	var notes []string
	c := startScripted(t, Options{OnNotify: func(method string, params json.RawMessage) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, method+" "+string(params))
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tests := []struct {
		method  string
		params  any
		want    string
		wantErr int
	}{
		{"echo", map[string]any{"a": 1}, `{"a":1}`, 0},
		{"fail", nil, "", -32602},
		{"echo", []int{1, 2}, `[1,2]`, 0},
	}
	for _, tt := range tests {
		res, err := c.Call(ctx, tt.method, tt.params)
		var re *RPCError
		switch {
		case tt.wantErr != 0:
			if !errors.As(err, &re) || re.Code != tt.wantErr {
				t.Errorf("%s: err = %v, want code %d", tt.method, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.method, err)
		case string(res) != tt.want:
			t.Errorf("%s = %s, want %s", tt.method, res, tt.want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != 3 || notes[0] != `note {"about":"echo"}` || notes[1] != `note {"about":"fail"}` {
		t.Errorf("notifications = %q", notes)
	}
}

func TestAgentRequests(t *testing.T) {
	tests := []struct {
		name      string
		onRequest func(string, json.RawMessage) (any, error)
		want      string
	}{
		{"answered", func(method string, params json.RawMessage) (any, error) {
			return map[string]string{"method": method, "params": string(params)}, nil
		}, `{"answer":{"method":"session/request_permission","params":"{\"q\":1}"},"answerId":"uuid-1","error":null}`},
		{"unhandled", nil, `{"answer":null,"answerId":"uuid-1","error":{"code":-32601,"message":"method not found"}}`},
		{"rpc error", func(string, json.RawMessage) (any, error) {
			return nil, &RPCError{Code: -32000, Message: "nope"}
		}, `{"answer":null,"answerId":"uuid-1","error":{"code":-32000,"message":"nope"}}`},
		{"plain error", func(string, json.RawMessage) (any, error) {
			return nil, errors.New("boom")
		}, `{"answer":null,"answerId":"uuid-1","error":{"code":-32603,"message":"boom"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startScripted(t, Options{OnRequest: tt.onRequest})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := c.Call(ctx, "ask", nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(res) != tt.want {
				t.Errorf("agent saw %s\nwant %s", res, tt.want)
			}
		})
	}
}

func TestPendingCallFailsWhenAgentExits(t *testing.T) {
	c := startScripted(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.Call(ctx, "quit", nil)
	if err == nil || !strings.Contains(err.Error(), "connection closed") {
		t.Fatalf("err = %v, want connection closed", err)
	}
}

func TestCallHonoursContext(t *testing.T) {
	c := startScripted(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Call(ctx, "echo", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the call: err = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, "hang", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("unanswered call: err = %v, want context.DeadlineExceeded", err)
	}
}

func TestTrace(t *testing.T) {
	var b strings.Builder
	var mu sync.Mutex
	c := startScripted(t, Options{Trace: writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return b.Write(p)
	})})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Call(ctx, "echo", 7); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{`> {"id":1,"jsonrpc":"2.0","method":"echo","params":7}`, "< not json at all", `< {"id":1,"jsonrpc":"2.0","result":7}`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, b.String())
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// The real adapters answer a first turn through the bare client, the
// streamed text is the mock's, and Close leaves no process of theirs.
func TestRealPeerFirstTurn(t *testing.T) {
	for _, a := range peers.Require(t) {
		t.Run(a.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			mock, err := respmock.Start(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer mock.Close()
			home := peers.TestHome(t, peers.HomeOptions{BaseURL: mock.BaseURL()})
			var mu sync.Mutex
			var text strings.Builder
			c, err := Start(Options{Path: a.Path, Args: a.Args, Env: home.Env(), Dir: t.TempDir(),
				OnNotify: func(method string, params json.RawMessage) {
					var p struct {
						Update struct {
							SessionUpdate string
							Content       struct{ Text string }
						}
					}
					if method == "session/update" && json.Unmarshal(params, &p) == nil && p.Update.SessionUpdate == "agent_message_chunk" {
						mu.Lock()
						text.WriteString(p.Update.Content.Text)
						mu.Unlock()
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			sid, err := FirstTurn(ctx, c, t.TempDir(), "Say hello")
			if err != nil {
				t.Fatal(err)
			}
			if sid == "" {
				t.Error("no session id")
			}
			_ = c.Close()
			mu.Lock()
			got := text.String()
			mu.Unlock()
			if !strings.Contains(got, "Hello from the mock model! You said: Say hello") {
				t.Errorf("streamed text = %q", got)
			}
			if left := home.WaitGone(10 * time.Second); len(left) != 0 {
				t.Errorf("processes left after Close: %v", left)
			}
		})
	}
}
