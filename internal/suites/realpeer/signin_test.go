package realpeer

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/peers"
)

// signInConfig is the mock's Codex home with a provider that needs an
// OpenAI sign-in (requires_openai_auth, as the built-in "openai" provider
// does); the home has none, as on a first start.
func signInConfig(baseURL string) string {
	return strings.Replace(peers.Config(peers.HomeOptions{BaseURL: baseURL}), "requires_openai_auth = false", "requires_openai_auth = true", 1)
}

// Sign-in as Codex users do, with the real codex-acp 2.6.0: a Codex that is
// not signed in answers the first turn with "authentication required" and
// its own methods (API key, ChatGPT). ChatGPT runs the agent's own login,
// whose browser hand-off goes to the OS opener (xdg-open, a recording
// stand-in here), never to the app; an API key, handed to a fresh agent as
// the app does after storing it, signs in through authenticate and the same
// turn then reaches the model with that key.
func TestSignInWithTheAgentsOwnMethods(t *testing.T) {
	a := peers.Require(t, peers.TS)[0]
	r := newRig(t, a, rigOptions{})
	if err := os.WriteFile(filepath.Join(r.home.Dir, "config.toml"), []byte(signInConfig(r.mock.BaseURL())), 0o600); err != nil {
		t.Fatal(err)
	}
	// The OS opener the agent's login calls: it notes the URL and returns.
	bin, opened := t.TempDir(), filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + opened + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// A port of this project's mock range where nothing listens.
	const issuer = "http://127.0.0.1:43010"
	env := append(r.home.Env(), "NO_BROWSER=", "CODEX_APP_SERVER_LOGIN_ISSUER="+issuer, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	engine := func(extra ...string) *chat.Engine {
		e := chat.NewEngine(chat.Options{
			Resolve: agent.ResolveOptions{Override: a.Words()},
			Version: "realpeer-test",
			Timeout: turnTimeout,
			Env:     append(append([]string(nil), env...), extra...),
			Log:     zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel),
		})
		t.Cleanup(func() { _ = e.Close() })
		return e
	}
	said := "Make the comments warmer"

	// 1. Not signed in: the turn stops with the agent's own methods.
	r.engine = engine()
	_, evs, err := r.turn(chat.Turn{Prompt: prompt.Text(said)})
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Code != chat.CodeAuth {
		t.Fatalf("a Codex without a sign-in: err %v, want %q", err, chat.CodeAuth)
	}
	methods := map[string]string{}
	for _, ev := range evs.ofType(chat.EventAuthRequired) {
		for _, m := range ev.Payload.(chat.AuthRequired).AuthMethods {
			methods[m.ID] = m.Name
		}
	}
	if methods["chat-gpt"] != "ChatGPT" || methods["api-key"] != "API Key" {
		t.Fatalf("the sign-in offered %v; want the agent's ChatGPT and API Key", methods)
	}
	if n := len(r.mock.Turns()); n != 0 {
		t.Fatalf("%d model requests before the sign-in", n)
	}

	// 2. ChatGPT: the agent's own login (Codex's login server on its
	// loopback port) hands OpenAI's sign-in page to the OS opener, not to
	// the app; CODEX_APP_SERVER_LOGIN_ISSUER puts a loopback stand-in where
	// auth.openai.com would be, so nothing here leaves the machine.
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	done := make(chan error, 1)
	go func() { done <- r.engine.Authenticate(ctx, r.cwd, "chat-gpt") }()
	var link string
	for link == "" && ctx.Err() == nil {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("the ChatGPT sign-in ended before the browser was opened: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
		if b, err := os.ReadFile(opened); err == nil && strings.HasSuffix(string(b), "\n") {
			link = strings.TrimSpace(string(b))
		}
	}
	cancel() // the user closes the browser: the sign-in is abandoned
	if err := <-done; err == nil {
		t.Error("an abandoned ChatGPT sign-in reported success")
	}
	u, err := url.Parse(link)
	if err != nil || "http://"+u.Host != issuer || u.Path != "/oauth/authorize" || u.Query().Get("code_challenge_method") != "S256" {
		t.Fatalf("the OS opener got %q; want the issuer's sign-in page (%s/oauth/authorize, PKCE)", link, issuer)
	}
	back, _ := url.Parse(u.Query().Get("redirect_uri"))
	if back == nil || back.Scheme != "http" || (back.Hostname() != "localhost" && back.Hostname() != "127.0.0.1") {
		t.Fatalf("the sign-in returns to %q, not to the agent's loopback login server", u.Query().Get("redirect_uri"))
	}

	// 3. An API key, in a fresh agent's environment as the app hands it.
	const key = "sk-signin-test-0123456789"
	r.engine = engine("OPENAI_API_KEY=" + key)
	actx, acancel := context.WithTimeout(context.Background(), turnTimeout)
	defer acancel()
	if err := r.engine.Authenticate(actx, r.cwd, "api-key"); err != nil {
		t.Fatalf("sign in with the API key: %v", err)
	}
	res, evs, err := r.turn(chat.Turn{Prompt: prompt.Text(said)})
	if err != nil || res.StopReason != "end_turn" {
		t.Fatalf("the turn after the sign-in: %+v %v", res, err)
	}
	if !strings.Contains(evs.text(), "You said: "+said) {
		t.Errorf("the turn after the sign-in answered %q", evs.text())
	}
	turns := r.mock.Turns()
	if len(turns) == 0 || turns[len(turns)-1].Auth != "Bearer "+key {
		t.Fatalf("the model was not asked with the key (%d requests)", len(turns))
	}
}
