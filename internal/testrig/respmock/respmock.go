// Package respmock is a loopback stand-in for the OpenAI Responses API, good
// enough to make a real Codex (and so a real codex-acp adapter) answer offline.
//
// It speaks POST /v1/responses with the SSE framing Codex expects (the shapes
// were taken from real exchanges, see testdata/), records every request body
// so tests can look at what the agent sent, and is scripted per request.
package respmock

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Reply is what the mock model answers to one request.
type Reply struct {
	// Text is an assistant message, streamed as one delta per word.
	Text string
	// Shell, when set, makes the reply an exec_command function call running
	// this command line instead of a message.
	Shell string
	// Escalate marks the shell call as needing to run outside the sandbox
	// (sandbox_permissions "require_escalated"), which is what makes Codex
	// ask the client for permission in the read-only and workspace modes.
	Escalate bool
	// Call, when set, makes the reply a call of this function tool (an MCP
	// tool as the agent lists it, e.g. "mcp__cdxtheme__theme_check") with
	// the JSON arguments Args ("{}" when empty).
	Call string
	Args string
	// Namespace, with Call, is the namespace the called tool was found in
	// (Codex defers MCP tools: a tool_search output lists them under a
	// namespace such as "mcp__cdxtheme__").
	Namespace string
	// Search, when set, makes the reply a client-side tool_search call
	// with this query: how a model finds the tools Codex deferred (MCP
	// tools) before it can call them.
	Search string
	// Delay is waited before each text delta, so a client can watch the text
	// arrive or cancel half-way.
	Delay time.Duration
	// Status, when non-zero, answers with this HTTP status and an error body.
	Status int
	// Hang accepts the request and then sends nothing until the client
	// goes away or the server closes: a model server that stopped answering.
	Hang bool
}

// Hanging is a reply that never comes.
func Hanging() Reply { return Reply{Hang: true} }

// Message is a reply with an assistant message.
func Message(text string) Reply { return Reply{Text: text} }

// Shell is a reply that asks the agent to run cmd through its shell tool.
func Shell(cmd string) Reply { return Reply{Shell: cmd} }

// EscalatedShell is a shell call the model wants run outside the sandbox, so
// the agent asks the client first.
func EscalatedShell(cmd string) Reply { return Reply{Shell: cmd, Escalate: true} }

// Call is a reply that calls the function tool name with JSON args.
func Call(name, args string) Reply { return Reply{Call: name, Args: args} }

// Search is a reply that searches the agent's deferred tools for query.
func Search(query string) Reply { return Reply{Search: query} }

// Responder decides the reply to a model turn request.
type Responder func(Request) Reply

// Echo is the default responder: after a tool call it reports the tool's
// output, otherwise it repeats the user's last words.
func Echo(r Request) Reply {
	if out, ok := r.LastToolOutput(); ok {
		return Message("The command ran. Output: " + strings.TrimSpace(out))
	}
	return Message("Hello from the mock model! You said: " + r.LastUserText())
}

// Server is a running mock. All methods are safe for concurrent use.
type Server struct {
	ln      net.Listener
	srv     *http.Server
	closing chan struct{}
	once    sync.Once
	done    chan struct{}

	mu       sync.Mutex
	respond  Responder
	queue    []Reply
	requests []Request
	seq      int
	arrived  chan struct{} // closed and replaced on every request
}

// Start listens on 127.0.0.1 on a free port and serves until ctx is done or
// Close is called. respond may be nil (Echo).
func Start(ctx context.Context, respond Responder) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("respmock: listen: %w", err)
	}
	if respond == nil {
		respond = Echo
	}
	s := &Server{
		ln:      ln,
		closing: make(chan struct{}),
		done:    make(chan struct{}),
		respond: respond,
		arrived: make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", s.handleResponses)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("/", s.handleOther)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	go func() {
		select {
		case <-ctx.Done():
			_ = s.Close()
		case <-s.closing:
		}
	}()
	return s, nil
}

// BaseURL is the provider base_url to put in Codex's config, ending in /v1.
func (s *Server) BaseURL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// Port is the TCP port the mock listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Queue appends replies used, in order, for the next model turn requests
// (title requests are not turns). When the queue is empty the Responder answers.
func (s *Server) Queue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetResponder replaces the responder used once the queue is empty.
func (s *Server) SetResponder(r Responder) {
	if r == nil {
		r = Echo
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = r
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Turns returns the model turn requests: POST /v1/responses that are not
// title requests.
func (s *Server) Turns() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.IsTurn() {
			out = append(out, r)
		}
	}
	return out
}

// WaitTurns blocks until at least n turn requests arrived or ctx is done.
func (s *Server) WaitTurns(ctx context.Context, n int) ([]Request, error) {
	for {
		s.mu.Lock()
		ch := s.arrived
		s.mu.Unlock()
		if turns := s.Turns(); len(turns) >= n {
			return turns, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.Turns(), fmt.Errorf("respmock: waiting for %d turn requests: %w", n, ctx.Err())
		}
	}
}

// Reset forgets recorded requests and queued replies.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
	s.queue = nil
}

// Close stops the server; streams in progress end at once. Idempotent.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.closing)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if e := s.srv.Shutdown(ctx); e != nil {
			err = s.srv.Close()
		}
		<-s.done
	})
	return err
}

func (s *Server) record(r *http.Request) (Request, int, error) {
	body, err := readBody(r)
	req := Request{Method: r.Method, Path: r.URL.Path, Body: body, Time: time.Now(), Auth: r.Header.Get("Authorization")}
	if err == nil && len(body) > 0 {
		err = req.parse()
	}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	req.Seq = seq
	s.requests = append(s.requests, req)
	close(s.arrived)
	s.arrived = make(chan struct{})
	s.mu.Unlock()
	return req, seq, err
}

func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return r
	}
	respond := s.respond
	s.mu.Unlock()
	return respond(req)
}

func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	req, seq, err := s.record(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.IsTitle() {
		s.writeTitle(w, r, req, seq)
		return
	}
	reply := s.next(req)
	if reply.Hang {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, "respmock: scripted failure")
		return
	}
	sw := newSSE(w)
	if sw == nil {
		writeError(w, http.StatusInternalServerError, "respmock: response writer cannot flush")
		return
	}
	stop := func() bool {
		select {
		case <-r.Context().Done():
			return true
		case <-s.closing:
			return true
		default:
			return false
		}
	}
	wait := func(d time.Duration) bool {
		if d <= 0 {
			return !stop()
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-r.Context().Done():
			return false
		case <-s.closing:
			return false
		}
	}
	writeReply(sw, seq, reply, wait)
}

// writeTitle answers Codex's thread-title request: a json_schema text format
// whose answer must be a JSON object {"title": ...}.
func (s *Server) writeTitle(w http.ResponseWriter, r *http.Request, req Request, seq int) {
	title, _ := json.Marshal(map[string]string{"title": titleFor(titleSubject(req.LastUserText()))})
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "resp_mock_" + strconv.Itoa(seq), "object": "response", "status": "completed",
			"output": []any{messageItem("msg_"+strconv.Itoa(seq), string(title))},
			"usage":  usage(),
		})
		return
	}
	sw := newSSE(w)
	if sw == nil {
		writeError(w, http.StatusInternalServerError, "respmock: response writer cannot flush")
		return
	}
	writeReply(sw, seq, Message(string(title)), func(time.Duration) bool { return r.Context().Err() == nil })
}

// titleSubject is the user's message inside Codex's title prompt, which ends
// with "User's first message:\n<text>".
func titleSubject(prompt string) string {
	const marker = "message:\n"
	if i := strings.LastIndex(prompt, marker); i >= 0 {
		return prompt[i+len(marker):]
	}
	return prompt
}

func titleFor(text string) string {
	words := strings.Fields(text)
	if len(words) > 6 {
		words = words[:6]
	}
	if len(words) == 0 {
		return "Mock conversation"
	}
	return strings.Join(words, " ")
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	_, _, _ = s.record(r)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
}

// handleOther records and answers anything else with an empty JSON object, so
// an unexpected call from a newer Codex is visible in Requests but harmless.
func (s *Server) handleOther(w http.ResponseWriter, r *http.Request) {
	_, _, _ = s.record(r)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{}`)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "server_error"}})
	_, _ = w.Write(b)
}

const maxBody = 64 << 20

func readBody(r *http.Request) ([]byte, error) {
	var rd io.Reader = io.LimitReader(r.Body, maxBody)
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, fmt.Errorf("respmock: gzip body: %w", err)
		}
		defer zr.Close()
		rd = zr
	case "zstd":
		zr, err := zstd.NewReader(rd)
		if err != nil {
			return nil, fmt.Errorf("respmock: zstd body: %w", err)
		}
		defer zr.Close()
		rd = zr
	default:
		return nil, fmt.Errorf("respmock: unsupported Content-Encoding %q", enc)
	}
	b, err := io.ReadAll(io.LimitReader(rd, maxBody))
	if err != nil {
		return b, fmt.Errorf("respmock: read body: %w", err)
	}
	return b, nil
}

var errNotJSON = errors.New("respmock: request body is not a JSON object")

// sse writes Server-Sent Events and flushes each one.
type sse struct {
	w  http.ResponseWriter
	f  http.Flusher
	bw bytes.Buffer
}

func newSSE(w http.ResponseWriter) *sse {
	f, ok := w.(http.Flusher)
	if !ok {
		return nil
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, f: f}
}

func (s *sse) event(data map[string]any) error {
	s.bw.Reset()
	s.bw.WriteString("event: " + data["type"].(string) + "\ndata: ")
	enc := json.NewEncoder(&s.bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil {
		return err
	}
	s.bw.WriteString("\n") // Encode ended the data line; a blank line ends the event
	if _, err := s.w.Write(s.bw.Bytes()); err != nil {
		return err
	}
	s.f.Flush()
	return nil
}

// writeReply streams one reply. wait is called before each text delta with
// the reply's delay and returns false when the stream must stop.
func writeReply(w *sse, seq int, reply Reply, wait func(time.Duration) bool) {
	n := strconv.Itoa(seq)
	respID := "resp_mock_" + n
	if err := w.event(map[string]any{"type": "response.created", "response": map[string]any{"id": respID}}); err != nil {
		return
	}
	completed := map[string]any{"type": "response.completed", "response": map[string]any{"id": respID, "usage": usage()}}
	if reply.Shell != "" {
		a := map[string]any{"cmd": reply.Shell, "yield_time_ms": 10000}
		if reply.Escalate {
			a["sandbox_permissions"] = "require_escalated"
			a["justification"] = "The user asked for this command."
		}
		args, _ := json.Marshal(a)
		item := map[string]any{
			"type": "function_call", "id": "fc_" + n, "call_id": "call_mock_" + n,
			"name": "exec_command", "arguments": string(args),
		}
		if w.event(map[string]any{"type": "response.output_item.done", "item": item}) == nil {
			_ = w.event(completed)
		}
		return
	}
	if reply.Search != "" {
		item := map[string]any{
			"type": "tool_search_call", "id": "tsc_" + n, "call_id": "call_mock_" + n,
			"status": "completed", "execution": "client", "arguments": map[string]any{"query": reply.Search, "limit": 8},
		}
		if w.event(map[string]any{"type": "response.output_item.done", "item": item}) == nil {
			_ = w.event(completed)
		}
		return
	}
	if reply.Call != "" {
		args := reply.Args
		if args == "" {
			args = "{}"
		}
		item := map[string]any{
			"type": "function_call", "id": "fc_" + n, "call_id": "call_mock_" + n,
			"name": reply.Call, "arguments": args,
		}
		if reply.Namespace != "" {
			item["namespace"] = reply.Namespace
		}
		if w.event(map[string]any{"type": "response.output_item.done", "item": item}) == nil {
			_ = w.event(completed)
		}
		return
	}
	itemID := "msg_" + n
	added := map[string]any{"type": "message", "id": itemID, "role": "assistant", "content": []any{}}
	if err := w.event(map[string]any{"type": "response.output_item.added", "item": added}); err != nil {
		return
	}
	for _, d := range splitWords(reply.Text) {
		if !wait(reply.Delay) {
			return
		}
		err := w.event(map[string]any{
			"type": "response.output_text.delta", "item_id": itemID,
			"output_index": 0, "content_index": 0, "delta": d,
		})
		if err != nil {
			return
		}
	}
	if err := w.event(map[string]any{"type": "response.output_item.done", "item": messageItem(itemID, reply.Text)}); err != nil {
		return
	}
	_ = w.event(completed)
}

func messageItem(id, text string) map[string]any {
	return map[string]any{
		"type": "message", "id": id, "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text}},
	}
}

func usage() map[string]any {
	return map[string]any{
		"input_tokens": 120, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 12, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": 132,
	}
}

// splitWords cuts text after each run of spaces, keeping every byte, so
// "Say hello" streams as "Say " and "hello".
func splitWords(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		out = append(out, text[:j])
		text = text[j:]
	}
	return out
}
