package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/paths"
	"cdxtheme/core/settings"
)

// authTurn starts a build against the "auth" fake agent and waits for it
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
	a, rec, logPath := newTestApp(t, "auth")
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
	if !strings.HasPrefix(got, "You said: a sunset theme") {
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
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), `"methodId":"api-key"`) {
		t.Fatal("the agent was not asked to authenticate with the API key")
	}
	// A turn is retried once only.
	if _, err := a.Agents.SignIn(SignInRequest{TurnID: started.TurnID, MethodID: "api-key"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), `"method":"session/prompt"`); n != 1 {
		t.Fatalf("%d prompts, want 1", n)
	}
}

func TestSignInFailureKeepsTheTurnForAnotherTry(t *testing.T) {
	a, rec, _ := newTestApp(t, "auth")
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
	a, rec, logPath := newTestApp(t, "auth")
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
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), `"method":"logout"`) {
		t.Fatal("the agent's logout was not called")
	}
	// Signed out for real: the next turn asks again.
	authTurn(t, a, rec)
}
