package faults

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app"
	"cdxtheme/app/opensafe"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/inside"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/fixtures"
)

// TestHostileText checks, at the Go level, that hostile text (the XSS
// corpus of internal/testrig/fixtures) reaches the UI byte for byte, as data:
// nothing in Go escapes, drops or interprets it, so what the page shows is
// what the agent wrote. That the page then runs none of it is proved in a
// browser with the same corpus (e2e/tests/xss.test.mjs) and by Vitest.
// Links and paths from agent output reach the OS only through the app's
// checks.
func TestHostileText(t *testing.T) {
	runMatrix(t, []matrixCase{
		{"xss corpus through a chat turn reaches the UI unchanged", caseXSSChat},
		{"xss corpus through a transcript reaches the UI unchanged", caseXSSTranscript},
		{"links from the agent checked before opening", caseAgentLinks},
		{"CheckLink refuses script and local links", caseCheckLink},
	})
}

// corpus returns the XSS payloads of internal/testrig/fixtures/xss.txt.
func corpus(t *testing.T) []string {
	t.Helper()
	out := fixtures.XSS()
	if len(out) < 20 {
		t.Fatalf("the corpus has only %d payloads", len(out))
	}
	return out
}

// roundTrip sends v through JSON the way the bindings hand it to the webview
// and decodes it into out.
func roundTrip(t *testing.T, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func caseXSSChat(t *testing.T) {
	payloads := corpus(t)
	said := strings.Join(payloads, "\n")
	r := newRig(t, rigOptions{})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text(said)})
	if l.err != nil {
		t.Fatalf("a hostile prompt failed the turn: %v", l.err)
	}
	texts := l.ofType(chat.EventText)
	if len(texts) == 0 || texts[0].Payload.(chat.TextChunk).Text != "You said: "+said+"\n" {
		t.Fatalf("the agent's echo of the corpus was altered on the way:\n got %.200q\nwant %.200q", l.text(), "You said: "+said)
	}
	// What the webview receives: the "turn" event payload as JSON.
	var got app.TurnBatch
	roundTrip(t, app.TurnBatch{TurnID: "t-1", Events: l.events}, &got)
	if len(got.Events) != len(l.events) {
		t.Fatalf("events lost in JSON: %d of %d", len(got.Events), len(l.events))
	}
	for i, e := range got.Events {
		if e.Type() != l.events[i].Type() || chat.TextOf(e) != chat.TextOf(l.events[i]) {
			t.Errorf("event %d changed in JSON: %+v, was %+v", i, e, l.events[i])
		}
	}
	var echoed string
	for _, e := range got.Events {
		if e.Type() == chat.EventText {
			echoed += e.Payload.(chat.TextChunk).Text
		}
	}
	for _, p := range payloads {
		if !strings.Contains(echoed, p) {
			t.Errorf("payload changed after JSON to the UI: %q", p)
		}
	}
}

func caseXSSTranscript(t *testing.T) {
	payloads := corpus(t)
	dir := filepath.Join(t.TempDir(), "codex-home")
	const id = "01a2361f-0000-7000-8000-00000000a5a5"
	p := filepath.Join(dir, "sessions", "2026", "12", "02", "rollout-2026-12-02T10-00-00-"+id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.Encode(map[string]any{"timestamp": "2026-12-02T10:00:00.000Z", "type": "session_meta",
		"payload": map[string]any{"id": id, "cwd": "/home/dev/<script>alert(1)</script>", "originator": "codex_cli_rs", "cli_version": "0.137.0"}})
	for _, x := range payloads {
		for _, m := range []struct{ role, kind string }{{"user", "input_text"}, {"assistant", "output_text"}} {
			enc.Encode(map[string]any{"timestamp": "2026-12-02T10:00:01.000Z", "type": "response_item",
				"payload": map[string]any{"type": "message", "role": m.role, "content": []map[string]any{{"type": m.kind, "text": x}}}})
		}
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	watchHome(t, dir)
	t.Setenv("CODEX_HOME", dir)
	page, err := newApp(t).Library.TranscriptPage(id, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	var got codexhome.TranscriptPage
	roundTrip(t, page, &got)
	if len(got.Messages) != 2*len(payloads) || got.Skipped != 0 {
		t.Fatalf("%d messages, %d skipped; want %d, 0", len(got.Messages), got.Skipped, 2*len(payloads))
	}
	for i, m := range got.Messages {
		if want := payloads[i/2]; m.Text != want {
			t.Errorf("message %d changed: %q, want %q", i, m.Text, want)
		}
	}
	if got.Cwd != "/home/dev/<script>alert(1)</script>" {
		t.Errorf("cwd changed: %q", got.Cwd)
	}
	sl, err := codexhome.Locate(dir).Sessions(context.Background(), codexhome.ListOptions{})
	if err != nil || len(sl.Sessions) != 1 || sl.Sessions[0].Title != codexhome.ShortTitle(payloads[0]) || sl.Sessions[0].Title != payloads[0] {
		t.Errorf("listing of the hostile session: %+v, %v", sl.Sessions, err)
	}
}

func caseAgentLinks(t *testing.T) {
	r := newRig(t, rigOptions{scenario: "links"})
	if err := os.WriteFile(filepath.Join(r.cwd, "theme.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("show me the files")})
	if l.err != nil {
		t.Fatal(l.err)
	}
	var uris []string
	for _, e := range l.ofType(chat.EventText) {
		if e.Payload.(chat.TextChunk).Content != nil && e.Payload.(chat.TextChunk).Content.Type == acp.BlockResourceLink {
			uris = append(uris, e.Payload.(chat.TextChunk).Content.URI)
		}
	}
	if len(uris) != 2 {
		t.Fatalf("want the agent's two resource links passed on as data, got %q", uris)
	}
	in, _, err := inside.Resolve(r.cwd, uris[0])
	if err != nil || filepath.Base(in) != "theme.json" {
		t.Errorf("the link into the workspace (%s) was refused: %v", uris[0], err)
	}
	if got, _, err := inside.Resolve(r.cwd, uris[1]); !errors.Is(err, inside.ErrOutside) {
		t.Errorf("the agent's link %s resolved to %q (%v), want ErrOutside", uris[1], got, err)
	}
}

func caseCheckLink(t *testing.T) {
	refused := []string{
		"javascript:alert(1)",
		"JaVaScRiPt:alert(document.cookie)",
		"  javascript:alert(1)",
		"java\tscript:alert(1)",
		"javascript://example.com/%0Aalert(1)",
		"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
		"DATA:text/html,<script>alert(1)</script>",
		"file:///etc/passwd",
		"FILE://localhost/etc/shadow",
		"vbscript:msgbox(1)",
		"blob:https://example.com/1234",
		"ms-msdt:/id PCWDiagnostic",
		"//evil.example/x",
		"https://user:secret@evil.example/",
		"http:///no-host",
		"",
	}
	for _, raw := range refused {
		if got, err := opensafe.CheckLink(raw); err == nil {
			t.Errorf("CheckLink(%q) accepted it as %q", raw, got)
		}
	}
	accepted := map[string]string{
		"https://example.com/theme?x=<script>": "https://example.com/theme?x=<script>",
		" http://localhost:8080/docs ":         "http://localhost:8080/docs",
		"mailto:dev@example.com":               "mailto:dev@example.com",
	}
	for raw, want := range accepted {
		got, err := opensafe.CheckLink(raw)
		if err != nil || got != want {
			t.Errorf("CheckLink(%q) = %q, %v; want %q", raw, got, err, want)
			continue
		}
		if u, _ := url.Parse(got); u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto" {
			t.Errorf("CheckLink(%q) returned scheme %q", raw, u.Scheme)
		}
	}
}
