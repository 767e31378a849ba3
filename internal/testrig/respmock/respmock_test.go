package respmock

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

func start(t *testing.T, respond Responder) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, respond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = s.Close() })
	return s
}

func userBody(model, text string) string {
	b, _ := json.Marshal(map[string]any{
		"model": model, "stream": true,
		"input": []any{
			map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}},
			map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": text}}},
		},
	})
	return string(b)
}

func post(t *testing.T, s *Server, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.BaseURL()+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The three real exchanges in testdata were captured from what made Codex
// answer; the mock must produce them byte for byte from the same script.
func TestRepliesMatchRealSamples(t *testing.T) {
	s := start(t, nil)
	toolOutput, _ := json.Marshal(map[string]any{
		"model": "gpt-5.5", "stream": true,
		"input": []any{
			map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "now run it"}}},
			map[string]any{"type": "function_call", "call_id": "call_mock_2", "name": "exec_command", "arguments": "{}"},
			map[string]any{"type": "function_call_output", "call_id": "call_mock_2", "output": "hello-from-shell\n"},
		},
	})
	steps := []struct {
		sample string
		queue  []Reply
		body   string
	}{
		{"sse-assistant-message.txt", nil, userBody("gpt-5.5", "Say hello")},
		{"sse-function-call.txt", []Reply{Shell("echo hello-from-shell")}, userBody("gpt-5.5", "now run it")},
		{"sse-after-tool-output.txt", nil, string(toolOutput)},
	}
	for _, st := range steps {
		t.Run(st.sample, func(t *testing.T) {
			want, err := os.ReadFile("testdata/" + st.sample)
			if err != nil {
				t.Fatal(err)
			}
			s.Queue(st.queue...)
			resp := post(t, s, st.body)
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type = %q", ct)
			}
			if got := readAll(t, resp); got != string(want) {
				t.Errorf("body differs from the real sample\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

type event struct{ name, data string }

// parseSSE checks the framing: "event:" then "data:" then a blank line, the
// event name equal to the data's type.
func parseSSE(t *testing.T, body string) []event {
	t.Helper()
	var out []event
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<20)
	var cur event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		case line == "":
			var d struct{ Type string }
			if err := json.Unmarshal([]byte(cur.data), &d); err != nil {
				t.Fatalf("event %q: data is not JSON: %v", cur.name, err)
			}
			if d.Type != cur.name {
				t.Fatalf("event %q carries type %q", cur.name, d.Type)
			}
			out = append(out, cur)
			cur = event{}
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if cur != (event{}) {
		t.Fatalf("stream ends inside an event: %+v", cur)
	}
	return out
}

func names(evs []event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.name)
	}
	return out
}

func TestReplyShapes(t *testing.T) {
	const (
		created = "response.created"
		added   = "response.output_item.added"
		delta   = "response.output_text.delta"
		done    = "response.output_item.done"
		compl   = "response.completed"
	)
	tests := []struct {
		name  string
		reply Reply
		want  []string
		text  string // concatenated deltas
	}{
		{"message", Message("a  b c"), []string{created, added, delta, delta, delta, done, compl}, "a  b c"},
		{"empty message", Message(""), []string{created, added, done, compl}, ""},
		{"shell", Shell("ls"), []string{created, done, compl}, ""},
		{"escalated shell", EscalatedShell("touch /x"), []string{created, done, compl}, ""},
		{"unicode and html", Message("<b>&é</b>"), []string{created, added, delta, done, compl}, "<b>&é</b>"},
	}
	s := start(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Queue(tt.reply)
			evs := parseSSE(t, readAll(t, post(t, s, userBody("m", "hi"))))
			if got := strings.Join(names(evs), ","); got != strings.Join(tt.want, ",") {
				t.Fatalf("events = %s, want %s", got, strings.Join(tt.want, ","))
			}
			var text strings.Builder
			for _, e := range evs {
				if e.name == delta {
					var d struct{ Delta string }
					_ = json.Unmarshal([]byte(e.data), &d)
					text.WriteString(d.Delta)
				}
			}
			if text.String() != tt.text {
				t.Errorf("deltas = %q, want %q", text.String(), tt.text)
			}
			if tt.reply.Shell != "" {
				var d struct {
					Item struct{ Name, Arguments string }
				}
				_ = json.Unmarshal([]byte(evs[1].data), &d)
				var args map[string]any
				if err := json.Unmarshal([]byte(d.Item.Arguments), &args); err != nil {
					t.Fatalf("arguments are not JSON: %v", err)
				}
				if d.Item.Name != "exec_command" || args["cmd"] != tt.reply.Shell {
					t.Errorf("call = %s %v", d.Item.Name, args)
				}
				if esc := args["sandbox_permissions"] == "require_escalated"; esc != tt.reply.Escalate {
					t.Errorf("escalated = %v, want %v", esc, tt.reply.Escalate)
				}
			}
		})
	}
}

func TestQueueThenResponder(t *testing.T) {
	s := start(t, func(r Request) Reply { return Message("from responder " + r.Model) })
	s.Queue(Message("first"), Message("second"))
	var got []string
	for i := 0; i < 3; i++ {
		evs := parseSSE(t, readAll(t, post(t, s, userBody("gpt-x", "q"))))
		var d struct {
			Item struct{ Content []struct{ Text string } }
		}
		_ = json.Unmarshal([]byte(evs[len(evs)-2].data), &d)
		got = append(got, d.Item.Content[0].Text)
	}
	want := []string{"first", "second", "from responder gpt-x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("replies = %q, want %q", got, want)
	}
}

// Codex 0.166 asks for a thread title with a json_schema text format; the
// answer must be a JSON object whose title comes from the user's message.
func TestTitleRequest(t *testing.T) {
	prompt := "Your task is to generate a very short title. Return exactly one JSON object: {\"title\": \"...\"}\n\nUser's first message:\nMake me a sunset theme please now ok"
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "json"}[stream], func(t *testing.T) {
			s := start(t, func(Request) Reply { t.Error("title request reached the responder"); return Reply{} })
			body, _ := json.Marshal(map[string]any{
				"model": "gpt-5.6-luna", "stream": stream,
				"text":  map[string]any{"format": map[string]any{"type": "json_schema", "name": "title"}},
				"input": []any{map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}}},
			})
			raw := readAll(t, post(t, s, string(body)))
			var text string
			if stream {
				evs := parseSSE(t, raw)
				var d struct {
					Item struct{ Content []struct{ Text string } }
				}
				_ = json.Unmarshal([]byte(evs[len(evs)-2].data), &d)
				text = d.Item.Content[0].Text
			} else {
				var d struct {
					Output []struct{ Content []struct{ Text string } }
				}
				if err := json.Unmarshal([]byte(raw), &d); err != nil {
					t.Fatal(err)
				}
				text = d.Output[0].Content[0].Text
			}
			var title struct{ Title string }
			if err := json.Unmarshal([]byte(text), &title); err != nil {
				t.Fatalf("title answer %q is not JSON: %v", text, err)
			}
			if title.Title != "Make me a sunset theme please" {
				t.Errorf("title = %q", title.Title)
			}
			reqs := s.Requests()
			if len(reqs) != 1 || !reqs[0].IsTitle() || len(s.Turns()) != 0 {
				t.Errorf("title request recorded as a turn: %+v", reqs)
			}
		})
	}
}

func TestStatusReply(t *testing.T) {
	s := start(t, nil)
	s.Queue(Reply{Status: http.StatusServiceUnavailable})
	resp := post(t, s, userBody("m", "x"))
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"error"`) {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

// A hanging reply sends nothing, not even headers, until the client gives
// up; the request is still recorded.
func TestHangingReplyUntilTheClientLeaves(t *testing.T) {
	s := start(t, nil)
	s.Queue(Hanging())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.BaseURL()+"/responses", strings.NewReader(userBody("m", "x")))
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got a response (%d) from a hanging reply", resp.StatusCode)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("ended after %v, before the client's deadline", d)
	}
	if n := len(s.Turns()); n != 1 {
		t.Fatalf("recorded %d turns", n)
	}
}

func TestReasoningEffortIsRecorded(t *testing.T) {
	s := start(t, nil)
	var body map[string]any
	_ = json.Unmarshal([]byte(userBody("gpt-5.5", "hi")), &body)
	body["reasoning"] = map[string]any{"effort": "xhigh", "summary": "auto"}
	b, _ := json.Marshal(body)
	_ = readAll(t, post(t, s, string(b)))
	_ = readAll(t, post(t, s, userBody("gpt-5.5", "no reasoning")))
	turns := s.Turns()
	if len(turns) != 2 || turns[0].Effort != "xhigh" || turns[0].Model != "gpt-5.5" || turns[1].Effort != "" {
		t.Fatalf("turns = %+v", turns)
	}
}

func TestSandboxIsTheNewestPermissionsInstructions(t *testing.T) {
	dev := func(text string) map[string]any {
		return map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": text}}}
	}
	b, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "input": []any{
		dev("<permissions instructions>\n`sandbox_mode` is `workspace-write`: edits in cwd."),
		dev("You are Codex."),
		dev("<permissions instructions>\n`sandbox_mode` is `danger-full-access`: No filesystem sandboxing."),
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "`sandbox_mode` is `read-only`"}}},
	}})
	s := start(t, nil)
	_ = readAll(t, post(t, s, string(b)))
	_ = readAll(t, post(t, s, userBody("m", "no instructions")))
	turns := s.Turns()
	if turns[0].Sandbox() != "danger-full-access" || turns[1].Sandbox() != "" {
		t.Fatalf("sandboxes %q %q", turns[0].Sandbox(), turns[1].Sandbox())
	}
}

func TestBadBodyIsRejectedAndRecorded(t *testing.T) {
	s := start(t, nil)
	resp := post(t, s, "{not json")
	_ = readAll(t, resp)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status = %d, want 400", resp.StatusCode)
	}
	if reqs := s.Requests(); len(reqs) != 1 || string(reqs[0].Body) != "{not json" {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestOtherEndpoints(t *testing.T) {
	s := start(t, nil)
	resp, err := http.Post(s.BaseURL()+"/responses/compact", "application/json", strings.NewReader(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp); resp.StatusCode != 200 || body != "{}" {
		t.Errorf("other POST: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(s.BaseURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var models struct{ Models []any }
	if err := json.Unmarshal([]byte(readAll(t, resp)), &models); err != nil || models.Models == nil {
		t.Errorf("models answer: %v %+v", err, models)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/responses/compact" || reqs[1].Method != "GET" {
		t.Errorf("recorded %+v", reqs)
	}
	if len(s.Turns()) != 0 {
		t.Errorf("non-turn requests counted as turns")
	}
}

func TestCompressedBodies(t *testing.T) {
	plain := userBody("gpt-zip", "compressed hello")
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	_, _ = gw.Write([]byte(plain))
	_ = gw.Close()
	zw, _ := zstd.NewWriter(&zs)
	_, _ = zw.Write([]byte(plain))
	_ = zw.Close()
	for _, tt := range []struct {
		enc  string
		body []byte
	}{{"gzip", gz.Bytes()}, {"zstd", zs.Bytes()}} {
		t.Run(tt.enc, func(t *testing.T) {
			s := start(t, nil)
			req, _ := http.NewRequest("POST", s.BaseURL()+"/responses", bytes.NewReader(tt.body))
			req.Header.Set("Content-Encoding", tt.enc)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = readAll(t, resp)
			turns := s.Turns()
			if len(turns) != 1 || turns[0].Model != "gpt-zip" || turns[0].LastUserText() != "compressed hello" {
				t.Fatalf("turns = %+v", turns)
			}
		})
	}
}

// A slow stream must end when the client goes away and when the server is
// shut down through its context, instead of running out its delays.
func TestDelayedStreamStops(t *testing.T) {
	for _, how := range []string{"client", "context"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := Start(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.Queue(Reply{Text: strings.Repeat("tick ", 1000), Delay: 50 * time.Millisecond})
			rctx, rcancel := context.WithCancel(context.Background())
			defer rcancel()
			req, _ := http.NewRequestWithContext(rctx, "POST", s.BaseURL()+"/responses", strings.NewReader(userBody("m", "slow")))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					t.Fatalf("stream ended before the first delta: %v", err)
				}
				if strings.Contains(line, `"delta":"tick "`) {
					break
				}
			}
			if how == "client" {
				rcancel()
			} else {
				cancel()
			}
			// Reading ends (EOF or error) rather than lasting 1000 × 50 ms;
			// the test's own timeout catches a stream that keeps going.
			_, _ = io.Copy(io.Discard, br)
			if how == "context" {
				if _, err := http.Post(s.BaseURL()+"/responses", "application/json", strings.NewReader("{}")); err == nil {
					t.Error("server still answers after its context ended")
				}
			}
		})
	}
}

func TestWaitTurns(t *testing.T) {
	s := start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		if resp, err := http.Post(s.BaseURL()+"/responses", "application/json", strings.NewReader(userBody("m", "one"))); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	turns, err := s.WaitTurns(ctx, 1)
	if err != nil || len(turns) != 1 || turns[0].LastUserText() != "one" {
		t.Fatalf("WaitTurns = %+v, %v", turns, err)
	}
	short, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := s.WaitTurns(short, 2); err == nil {
		t.Error("WaitTurns returned without the turns and without an error")
	}
}
