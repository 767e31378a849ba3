// Package apimock is a loopback stand-in for the model APIs third-party ACP
// agents speak, good enough to make a real agent answer offline: OpenAI
// Chat Completions (qwen-code, opencode), the Gemini API (gemini-cli) and
// Anthropic Messages (claude-code-acp). It is respmock's sibling (that one
// speaks the Responses API for Codex): it records every request so tests
// can look at what the agent sent, and is scripted per request.
package apimock

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// API names a request's protocol.
const (
	OpenAI    = "openai"
	Gemini    = "gemini"
	Anthropic = "anthropic"
)

// Reply is what the mock model answers to one request.
type Reply struct {
	Text string // streamed as one delta per word
	// Tool, when set, makes the reply a call of this tool with Args.
	Tool string
	Args map[string]any
	// Delay is waited before each text delta, so a client can cancel half-way.
	Delay time.Duration
}

// Request is one recorded model request.
type Request struct {
	API   string
	Path  string
	Model string
	// Texts are the conversation's text parts in order, whoever said them
	// (the system prompt left out).
	Texts []string
	// User is the last user text; ToolResult is set when the last message
	// carries a tool's result.
	User       string
	ToolResult bool
	// JSONMode: a structured side request (gemini-cli's next-speaker check);
	// not a turn.
	JSONMode bool
	Stream   bool
	Body     []byte
}

// Carries reports whether text was said anywhere in the conversation.
func (r Request) Carries(text string) bool {
	for _, t := range r.Texts {
		if strings.Contains(t, text) {
			return true
		}
	}
	return false
}

// Responder decides the reply to a turn request.
type Responder func(Request) Reply

// Echo repeats the user's last words, or reports a tool's result.
func Echo(r Request) Reply {
	if r.ToolResult {
		return Reply{Text: "The tool ran."}
	}
	return Reply{Text: "Hello from the mock model! You said: " + r.User}
}

// Server is a running mock; its methods are safe for concurrent use.
type Server struct {
	ln  net.Listener
	srv *http.Server

	mu       sync.Mutex
	respond  Responder
	queue    []Reply
	requests []Request
	arrived  chan struct{}
}

// Start serves on 127.0.0.1 until ctx is done or Close. respond may be nil (Echo).
func Start(ctx context.Context, respond Responder) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("apimock: listen: %w", err)
	}
	if respond == nil {
		respond = Echo
	}
	s := &Server{ln: ln, respond: respond, arrived: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.openai)
	mux.HandleFunc("POST /chat/completions", s.openai)
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /", s.gemini) // /v1beta/models/M:streamGenerateContent and friends
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"mock-model","object":"model"},{"id":"mock-model-2","object":"model"}],"models":[]}`)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	return s, nil
}

// SetResponder replaces the responder used once the queue is empty (nil:
// Echo).
func (s *Server) SetResponder(r Responder) {
	if r == nil {
		r = Echo
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = r
}

// URL is the server's root, e.g. http://127.0.0.1:PORT.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server. Idempotent.
func (s *Server) Close() error { return s.srv.Close() }

// Queue appends replies used in order for the next turn requests.
func (s *Server) Queue(r ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, r...)
}

// Requests returns every request so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Turns are the requests that are model turns: not structured side requests.
func (s *Server) Turns() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if !r.JSONMode {
			out = append(out, r)
		}
	}
	return out
}

// WaitTurns blocks until n turn requests arrived or ctx is done.
func (s *Server) WaitTurns(ctx context.Context, n int) ([]Request, error) {
	for {
		s.mu.Lock()
		ch := s.arrived
		s.mu.Unlock()
		if t := s.Turns(); len(t) >= n {
			return t, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.Turns(), ctx.Err()
		}
	}
}

func (s *Server) record(r Request) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	close(s.arrived)
	s.arrived = make(chan struct{})
	if r.JSONMode {
		return Reply{}
	}
	if len(s.queue) > 0 {
		q := s.queue[0]
		s.queue = s.queue[1:]
		return q
	}
	return s.respond(r)
}

func readJSON(r *http.Request, v any) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	return b, json.Unmarshal(b, v)
}

// sse writes Server-Sent Events; ok is false once the client has gone.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	f, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, f: f}
}

func (s *sse) event(name string, v any) bool {
	b, _ := json.Marshal(v)
	var err error
	if name != "" {
		_, err = fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	} else {
		_, err = fmt.Fprintf(s.w, "data: %s\n\n", b)
	}
	if s.f != nil {
		s.f.Flush()
	}
	return err == nil
}

// words splits text into deltas that join back to it.
func words(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexByte(text[1:], ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func argsJSON(a map[string]any) string {
	if a == nil {
		a = map[string]any{}
	}
	b, _ := json.Marshal(a)
	return string(b)
}
