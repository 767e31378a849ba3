package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// peer is the agent side of an io.Pipe link: it writes raw lines to the
// Conn and collects every line the Conn writes.
type peer struct {
	t     testing.TB
	out   *io.PipeWriter
	lines chan []byte
	conn  *Conn
}

func newPeer(t testing.TB, opts Options) *peer {
	t.Helper()
	fromAgent, agentOut := io.Pipe()
	agentIn, toAgent := io.Pipe()
	p := &peer{t: t, out: agentOut, lines: make(chan []byte, 1024)}
	p.conn = NewConn(fromAgent, toAgent, opts)
	go func() {
		br := bufio.NewReader(agentIn)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				p.lines <- line
			}
			if err != nil {
				close(p.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		p.conn.Close()
		agentOut.Close()
		agentIn.Close()
		toAgent.Close()
	})
	return p
}

func (p *peer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.out, line+"\n"); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

// next returns the next message the Conn wrote, decoded.
func (p *peer) next() map[string]json.RawMessage {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("conn closed its output")
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			p.t.Fatalf("conn wrote a non-JSON line %q: %v", line, err)
		}
		return m
	case <-time.After(2 * time.Minute):
		p.t.Fatal("timed out waiting for the conn to write")
	}
	return nil
}

// barrier returns once the Conn has read and dispatched everything the
// peer sent before: a Call's response is read after those lines, and Flush
// then waits for the dispatcher.
func (p *peer) barrier() {
	p.t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req := p.next()
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"sessions":[]}}`)
	if err := <-done; err != nil {
		p.t.Fatal(err)
	}
	if err := p.conn.Flush(context.Background()); err != nil {
		p.t.Fatal(err)
	}
}

func waitClosed(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(2 * time.Minute): // generous: -race makes 100k frames slow
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestCallResultAndError(t *testing.T) {
	tests := []struct {
		name     string
		reply    string // %d is the request id
		wantErr  int
		wantStop string
	}{
		{"result", `{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn","usage":null}}`, 0, "end_turn"},
		{"result before id like the Rust adapter", `{"jsonrpc":"2.0","result":{"stopReason":"cancelled"},"id":%d}`, 0, "cancelled"},
		{"id echoed as string", `{"jsonrpc":"2.0","id":"%d","result":{"stopReason":"refusal"}}`, 0, "refusal"},
		{"auth error", `{"jsonrpc":"2.0","id":%d,"error":{"code":-32000,"message":"Authentication required"}}`, CodeAuthRequired, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, Options{})
			p.conn.Start()
			done := make(chan error, 1)
			var res PromptResponse
			go func() {
				done <- p.conn.Call(context.Background(), MethodSessionPrompt, PromptRequest{SessionID: "s", Prompt: []ContentBlock{TextBlock("hi")}}, &res)
			}()
			req := p.next()
			if string(req["method"]) != `"session/prompt"` {
				t.Fatalf("method = %s", req["method"])
			}
			if string(req["params"]) != `{"sessionId":"s","prompt":[{"type":"text","text":"hi"}]}` {
				t.Fatalf("params = %s", req["params"])
			}
			var id int64
			if err := json.Unmarshal(req["id"], &id); err != nil {
				t.Fatal(err)
			}
			p.send(fmt.Sprintf(tc.reply, id))
			err := <-done
			if tc.wantErr != 0 {
				if ErrorCode(err) != tc.wantErr {
					t.Fatalf("err = %v, want code %d", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.StopReason != tc.wantStop {
				t.Fatalf("stopReason = %q", res.StopReason)
			}
		})
	}
}

func TestAgentRequestIDsEchoedVerbatim(t *testing.T) {
	ids := []string{`0`, `7`, `"0b6c3a4e-1f2d-4a1b-9c8e-2d7f5e6a9b10"`, `""`}
	p := newPeer(t, Options{})
	var got []string
	var mu sync.Mutex
	p.conn.HandleRequest(MethodRequestPermission, func(ctx context.Context, id, params json.RawMessage) (any, error) {
		mu.Lock()
		got = append(got, string(id))
		mu.Unlock()
		return Selected("yes"), nil
	})
	p.conn.Start()
	for _, id := range ids {
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[]}}`)
		resp := p.next()
		if string(resp["id"]) != id {
			t.Errorf("response id = %s, want %s", resp["id"], id)
		}
		if string(resp["result"]) != `{"outcome":{"outcome":"selected","optionId":"yes"}}` {
			t.Errorf("result = %s", resp["result"])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Fatalf("handler saw ids %v", got)
	}
}

func TestHugeFramesBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB frames")
	}
	const size = 64 << 20
	p := newPeer(t, Options{})
	var gotLen atomic.Int64
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
		if err != nil {
			t.Errorf("decode big update: %v", err)
			return
		}
		gotLen.Store(int64(len(n.Update.Content.Text)))
	})
	p.conn.Start()

	// Inbound: one 64 MiB agent_message_chunk.
	big := strings.Repeat("a", size)
	inbound := make(chan struct{})
	go func() {
		defer close(inbound)
		io.WriteString(p.out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+big+`"}}}}`+"\n")
	}()
	// Outbound: a 64 MiB prompt, answered after the peer read all of it.
	done := make(chan error, 1)
	go func() {
		done <- p.conn.Call(context.Background(), MethodSessionPrompt, PromptRequest{SessionID: "s", Prompt: []ContentBlock{TextBlock(big)}}, nil)
	}()
	req := p.next()
	var pr PromptRequest
	if err := json.Unmarshal(req["params"], &pr); err != nil {
		t.Fatal(err)
	}
	if len(pr.Prompt) != 1 || len(pr.Prompt[0].Text) != size {
		t.Fatalf("peer got a prompt of %d bytes, want %d", len(pr.Prompt[0].Text), size)
	}
	waitClosed(t, inbound, "the 64 MiB frame to be read") // the reply must come after it
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"stopReason":"end_turn"}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := p.conn.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if gotLen.Load() != size {
		t.Fatalf("inbound chunk text = %d bytes, want %d", gotLen.Load(), size)
	}
}

// A permission request must never overtake the tool_call sent before it,
// or the UI would ask about a tool call it has not seen.
func TestInboundOrderKept(t *testing.T) {
	p := newPeer(t, Options{})
	var mu sync.Mutex
	var order []string
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
		tc, _ := DecodeToolCall(n.Update.Raw)
		mu.Lock()
		order = append(order, "update:"+tc.ToolCallID)
		mu.Unlock()
	})
	p.conn.HandleRequest(MethodRequestPermission, func(ctx context.Context, id, params json.RawMessage) (any, error) {
		var r RequestPermissionRequest
		json.Unmarshal(params, &r)
		tc, _ := DecodeToolCall(r.ToolCall)
		mu.Lock()
		order = append(order, "permission:"+tc.ToolCallID)
		mu.Unlock()
		return Cancelled(), nil
	})
	p.conn.Start()
	const n = 500
	go func() {
		for i := 0; i < n; i++ {
			p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c%d","title":"t"}}}`, i))
			p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c%d"},"options":[]}}`, i, i))
		}
	}()
	for i := 0; i < n; i++ {
		p.next() // the answers
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 2*n {
		t.Fatalf("handled %d messages, want %d", len(order), 2*n)
	}
	for i := 0; i < n; i++ {
		if order[2*i] != fmt.Sprintf("update:c%d", i) || order[2*i+1] != fmt.Sprintf("permission:c%d", i) {
			t.Fatalf("order broken at %d: %v", i, order[2*i:2*i+2])
		}
	}
}

// A handler that does not return (a user pondering a permission) must not
// stop the reader, nor a Call whose response arrives meanwhile.
func TestSlowHandlerBlocksNeitherReaderNorCall(t *testing.T) {
	const n = 100_000
	p := newPeer(t, Options{})
	release := make(chan struct{})
	var seen []int
	p.conn.HandleUpdates(func(ctx context.Context, note SessionNotification, err error) {
		if len(seen) == 0 {
			<-release
		}
		var i int
		fmt.Sscanf(note.Update.Content.Text, "%d", &i)
		seen = append(seen, i) // handlers run one at a time, in order: no lock needed
	})
	p.conn.Start()

	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req := p.next()
	writer := make(chan struct{})
	go func() {
		defer close(writer)
		var b bytes.Buffer
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d"}}}}`+"\n", i)
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%s,"result":{"sessions":[]}}`+"\n", req["id"])
		p.out.Write(b.Bytes())
	}()
	// All 100k lines plus the response were read while the handler blocks.
	waitClosed(t, writer, "the reader to take 100k notifications")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Call did not complete while the dispatcher was busy")
	}
	close(release)
	if err := p.conn.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(seen) != n {
		t.Fatalf("handled %d notifications, want %d", len(seen), n)
	}
	for i, v := range seen {
		if v != i {
			t.Fatalf("notification %d carried %d: order broken", i, v)
		}
	}
}

// A permission request waits for a person: while its handler waits,
// reading goes on at once (responses arrive, nothing piles up in the
// agent), and what came after the request is handled after it, in order.
func TestPermissionWaitBlocksNeitherReaderNorOrder(t *testing.T) {
	const n = 1000
	p := newPeer(t, Options{})
	release := make(chan struct{})
	var order []string
	p.conn.HandleRequest(MethodRequestPermission, func(ctx context.Context, id, params json.RawMessage) (any, error) {
		<-release
		order = append(order, "permission")
		return Cancelled(), nil
	})
	p.conn.HandleUpdates(func(ctx context.Context, note SessionNotification, err error) {
		order = append(order, note.Update.Content.Text)
	})
	p.conn.Start()
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req := p.next()
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[]}}` + "\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d"}}}}`+"\n", i)
	}
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%s,"result":{"sessions":[]}}`+"\n", req["id"])
	go p.out.Write(b.Bytes()) // more than a pipe holds: it ends only if we read on
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the response was not read while the permission waited")
	}
	close(release)
	answer := p.next()
	if string(answer["id"]) != `"p1"` {
		t.Fatalf("answer = %v", answer)
	}
	if err := p.conn.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(order) != n+1 || order[0] != "permission" {
		t.Fatalf("handled %d, first %q: the permission must come first", len(order), order[0])
	}
	for i := 0; i < n; i++ {
		if order[i+1] != fmt.Sprint(i) {
			t.Fatalf("update %d handled as %q: order broken", i, order[i+1])
		}
	}
}

func TestUnknownMessages(t *testing.T) {
	p := newPeer(t, Options{})
	var updates []SessionUpdate
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
		if err != nil {
			t.Errorf("decode: %v", err)
		}
		updates = append(updates, n.Update)
	})
	p.conn.Start()

	// Unknown request: -32601 with the id echoed.
	p.send(`{"jsonrpc":"2.0","id":"fs-1","method":"fs/read_text_file","params":{"path":"/etc/passwd"}}`)
	resp := p.next()
	var rerr RPCError
	json.Unmarshal(resp["error"], &rerr)
	if string(resp["id"]) != `"fs-1"` || rerr.Code != CodeMethodNotFound {
		t.Fatalf("unknown request answered %v", resp)
	}
	if _, ok := resp["result"]; ok {
		t.Fatal("error response also carries a result")
	}
	// Unknown notification: ignored, no answer, link stays.
	p.send(`{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"none"}}}`)
	// Unknown variant and unknown content block: passed on raw.
	unknownVariant := `{"sessionUpdate":"hologram_update","beam":{"x":1},"_meta":{"vendor":{"k":"v"}}}`
	unknownBlock := `{"sessionUpdate":"agent_message_chunk","content":{"type":"smell","scent":"rose"},"_meta":{"m":1}}`
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + unknownVariant + `}}`)
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + unknownBlock + `}}`)
	p.barrier()
	if len(updates) != 2 {
		t.Fatalf("got %d updates", len(updates))
	}
	if updates[0].Kind != "hologram_update" || string(updates[0].Raw) != unknownVariant || updates[0].Content != nil {
		t.Errorf("unknown variant = %+v", updates[0])
	}
	if c := updates[1].Content; c == nil || c.Known() || c.Type != "smell" || c.Text != "" || string(c.Raw) != `{"type":"smell","scent":"rose"}` {
		t.Errorf("unknown block = %+v", c)
	}
	if out, _ := json.Marshal(updates[1]); string(out) != unknownBlock {
		t.Errorf("update did not round-trip with _meta: %s", out)
	}
	select {
	case line := <-p.lines:
		t.Fatalf("conn answered a notification: %s", line)
	default:
	}
}

func TestBadLineSkippedLinkKept(t *testing.T) {
	p := newPeer(t, Options{})
	var bad [][]byte
	var notes int
	p.conn.OnBadLine(func(line []byte, err error) { bad = append(bad, line) })
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) { notes++ })
	p.conn.Start()
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req := p.next()
	p.send(`Debugger listening on ws://127.0.0.1:9229`)
	p.send(`{"jsonrpc":"2.0"}`)
	p.send(``)
	p.send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`) // valid, not a bad line
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`)
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"sessions":[]}}`)
	if err := <-done; err != nil {
		t.Fatalf("call after garbage: %v", err)
	}
	p.conn.Flush(context.Background())
	if p.conn.BadLines() != 2 || len(bad) != 2 || string(bad[0]) != "Debugger listening on ws://127.0.0.1:9229" {
		t.Fatalf("bad lines = %d %q", p.conn.BadLines(), bad)
	}
	if notes != 1 {
		t.Fatalf("notification after garbage handled %d times", notes)
	}
}

func TestLineOverLimitSkipped(t *testing.T) {
	p := newPeer(t, Options{MaxLine: 1000})
	var notes int
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) { notes++ })
	p.conn.Start()
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"x":"` + strings.Repeat("z", 200_000) + `"}}`)
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{}}`)
	p.barrier()
	if p.conn.BadLines() != 1 || notes != 1 {
		t.Fatalf("bad=%d notes=%d, want 1 and 1", p.conn.BadLines(), notes)
	}
}

func TestEOFFailsPendingCalls(t *testing.T) {
	p := newPeer(t, Options{})
	p.conn.Start()
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionPrompt, PromptRequest{}, nil) }()
	p.next()
	p.out.Close()
	err := <-done
	if !errors.Is(err, ErrClosed) || !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v, want ErrClosed wrapping EOF", err)
	}
	waitClosed(t, p.conn.Done(), "Done")
	waitClosed(t, p.conn.Dispatched(), "Dispatched")
	if err := p.conn.Call(context.Background(), MethodSessionList, nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after EOF: %v", err)
	}
}

func TestUpdatesBeforeEOFStillDispatched(t *testing.T) {
	p := newPeer(t, Options{})
	var texts []string
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
		texts = append(texts, n.Update.Content.Text)
	})
	p.conn.Start()
	for _, s := range []string{"partial ", "answer"} {
		p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + s + `"}}}}`)
	}
	p.out.Close()
	waitClosed(t, p.conn.Dispatched(), "Dispatched")
	if strings.Join(texts, "") != "partial answer" {
		t.Fatalf("texts = %q", texts)
	}
}

func TestCallContextCancelled(t *testing.T) {
	p := newPeer(t, Options{})
	p.conn.Start()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(ctx, MethodSessionPrompt, PromptRequest{}, nil) }()
	req := p.next()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	// A late response to the forgotten call is dropped, not misdelivered.
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"stopReason":"end_turn"}}`)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, nil, nil) }()
	req2 := p.next()
	p.send(`{"jsonrpc":"2.0","id":` + string(req2["id"]) + `,"result":{"sessions":[]}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestHandlerErrors(t *testing.T) {
	tests := []struct {
		name     string
		handler  RequestHandler
		wantCode int
	}{
		{"rpc error", func(ctx context.Context, id, params json.RawMessage) (any, error) {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "bad"}
		}, CodeInvalidParams},
		{"plain error", func(ctx context.Context, id, params json.RawMessage) (any, error) {
			return nil, errors.New("boom")
		}, CodeInternalError},
		{"panic", func(ctx context.Context, id, params json.RawMessage) (any, error) {
			panic("oops")
		}, CodeInternalError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, Options{})
			p.conn.HandleRequest("x/y", tc.handler)
			p.conn.Start()
			p.send(`{"jsonrpc":"2.0","id":3,"method":"x/y","params":{}}`)
			resp := p.next()
			var e RPCError
			json.Unmarshal(resp["error"], &e)
			if e.Code != tc.wantCode || string(resp["id"]) != "3" {
				t.Fatalf("response = %v", resp)
			}
		})
	}
}

func TestNotifyAndWriteFailure(t *testing.T) {
	p := newPeer(t, Options{})
	p.conn.Start()
	if err := p.conn.Notify(MethodSessionCancel, CancelNotification{SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	m := p.next()
	if _, hasID := m["id"]; hasID || string(m["params"]) != `{"sessionId":"s1"}` {
		t.Fatalf("notification = %v", m)
	}
	// The agent's stdin is gone: the write error wraps ErrClosed so the chat
	// layer can fall back to a fresh connection.
	r, w := io.Pipe()
	r.Close()
	c := NewConn(strings.NewReader(""), w, Options{})
	if err := c.Call(context.Background(), MethodSessionPrompt, nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("write failure: %v", err)
	}
}

// An agent ended mid-write leaves a cut last line: that is no bad line
// (nothing was said), while a whole message without its newline still counts.
func TestCutLastLineDroppedQuietly(t *testing.T) {
	for _, tc := range []struct {
		name, last string
		notes      int
		bad        int64
	}{
		{"cut", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","upd`, 0, 0},
		{"whole without newline", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, Options{})
			var notes int
			p.conn.OnBadLine(func(line []byte, err error) {})
			p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) { notes++ })
			p.conn.Start()
			p.out.Write([]byte(tc.last))
			p.out.Close()
			<-p.conn.Done()
			p.conn.Flush(context.Background())
			if p.conn.BadLines() != tc.bad || notes != tc.notes {
				t.Fatalf("bad lines %d, notes %d; want %d, %d", p.conn.BadLines(), notes, tc.bad, tc.notes)
			}
		})
	}
}
