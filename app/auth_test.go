package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/paths"
	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/acpstub"
)

// signedOutAgent is an agent that opens no session until it is signed in
// (api-key or chat-gpt; the sign-in outlives a connection, as Codex's
// stored login does) and can log out; a prompt is echoed.
func signedOutAgent() *acpstub.Agent {
	ag := acpstub.New()
	var signedIn atomic.Bool
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"auth":{"logout":{}}},` +
			`"authMethods":[{"id":"api-key","name":"API Key"},{"id":"chat-gpt","name":"ChatGPT"}]}`), nil
	})
	ag.Handle("authenticate", func(c *acpstub.Call) (any, error) {
		var p struct{ MethodID string }
		json.Unmarshal(c.Params, &p)
		if p.MethodID != "api-key" && p.MethodID != "chat-gpt" {
			return nil, &acpstub.Error{Code: -32602, Message: "unknown auth method " + strconv.Quote(p.MethodID)}
		}
		signedIn.Store(true)
		return struct{}{}, nil
	})
	ag.Handle("logout", func(*acpstub.Call) (any, error) {
		signedIn.Store(false)
		return struct{}{}, nil
	})
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		if !signedIn.Load() {
			return nil, &acpstub.Error{Code: -32000, Message: "Authentication required"}
		}
		return map[string]string{"sessionId": "s-1"}, nil
	})
	ag.OnPrompt(echo)
	return ag
}

// authTurn starts a build against the signed-out agent and waits for it
// to end asking for sign-in; it returns the turn and the offered methods.
func authTurn(t *testing.T, a *App, rec *recorder) (TurnStarted, []acp.AuthMethod) {
	t.Helper()
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a sunset theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the end of the first turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "error" })
	rec.mu.Lock()
	evs := rec.turns[started.TurnID]
	rec.mu.Unlock()
	var methods []acp.AuthMethod
	for _, e := range evs {
		if e.Type() == chat.EventAuthRequired {
			methods = e.Payload.(chat.AuthRequired).AuthMethods
		}
	}
	if e, ok := last(evs).Payload.(chat.ErrorEvent); len(methods) == 0 || !ok || e.Code != chat.CodeAuth {
		t.Fatalf("no sign-in choices: %+v", evs)
	}
	return started, methods
}

func TestSignInWithAKeyRetriesTheTurn(t *testing.T) {
	ag := signedOutAgent()
	a, rec := newStubApp(t, ag)
	started, methods := authTurn(t, a, rec)
	if methods[0].ID != "api-key" || methods[1].ID != "chat-gpt" {
		t.Fatalf("methods = %+v", methods)
	}
	res, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "api-key", APIKey: "  sk-test-123  "})
	if err != nil {
		t.Fatal(err)
	}
	if res.TurnID == "" || res.TurnID == started.TurnID {
		t.Fatalf("no retried turn: %+v", res)
	}
	if !res.Auth.APIKeyStored || res.Auth.Store != settings.StoreFile || res.Auth.Method != "api-key" {
		t.Fatalf("auth state = %+v", res.Auth)
	}
	rec.waitFor(t, "the retried turn", func() bool { return last(rec.turns[res.TurnID]).Type() == "done" })
	rec.mu.Lock()
	got := text(rec.turns[res.TurnID])
	rec.mu.Unlock()
	if got != "You said: a sunset theme" {
		t.Fatalf("the retried turn answered %q", got)
	}
	// The key is stored privately, trimmed, and never in settings.toml.
	key := filepath.Join(paths.ConfigDir(), "api-key")
	fi, err := os.Stat(key)
	if err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) { // Windows has no mode bits
		t.Fatalf("key file: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(key); string(b) != "sk-test-123\n" {
		t.Fatalf("key file holds %q", b)
	}
	if b, _ := os.ReadFile(settings.Path()); strings.Contains(string(b), "sk-test") {
		t.Fatal("the key leaked into settings.toml")
	}
	if p := ag.Params("authenticate"); len(p) != 1 || !strings.Contains(string(p[0]), `"methodId":"api-key"`) {
		t.Fatalf("the agent was not asked to authenticate with the API key: %s", p)
	}
	// A turn is retried once only.
	again, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "api-key"})
	if err != nil {
		t.Fatal(err)
	}
	if again.TurnID != "" {
		t.Fatalf("the turn was retried a second time as %s", again.TurnID)
	}
	if n := count(ag.Methods(), "session/prompt"); n != 1 {
		t.Fatalf("%d prompts, want 1", n)
	}
}

func TestSignInFailureKeepsTheTurnForAnotherTry(t *testing.T) {
	a, rec := newStubApp(t, signedOutAgent())
	started, _ := authTurn(t, a, rec)
	if _, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "telepathy"}); err == nil || !strings.Contains(err.Error(), "telepathy") {
		t.Fatalf("an unknown method signed in: %v", err)
	}
	res, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "chat-gpt"})
	if err != nil || res.TurnID == "" {
		t.Fatalf("second try: %+v %v", res, err)
	}
	rec.waitFor(t, "the retried turn", func() bool { return last(rec.turns[res.TurnID]).Type() == "done" })
	if res.Auth.Method != "chat-gpt" || res.Auth.APIKeyStored {
		t.Fatalf("auth = %+v", res.Auth)
	}
}

func TestSignOutLogsTheAgentOut(t *testing.T) {
	ag := signedOutAgent()
	a, rec := newStubApp(t, ag)
	started, _ := authTurn(t, a, rec)
	if _, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "api-key", APIKey: "sk-1"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SignOut(); err != nil {
		t.Fatal(err)
	}
	if st := a.Agents.GetAuthState(); st.APIKeyStored || st.Method != "" {
		t.Fatalf("after sign-out: %+v", st)
	}
	if count(ag.Methods(), "logout") != 1 {
		t.Fatalf("the agent's logout was not called: %v", ag.Methods())
	}
	// Signed out for real: the next turn asks again.
	authTurn(t, a, rec)
}
