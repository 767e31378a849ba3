package app

import (
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/unixsock"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/serve"
	"cdxtheme/core/chat"
)

// Kept on the subprocess fake agent: the agent is lent over a Unix socket
// to another process, and what was started is counted in processes.

// The CLI's follow-up on a session the app holds warm runs on the app's
// agent; anything the app's agent is not (another Codex account, folder,
// turn bound) is declined, and nothing is started for it.
func TestAppLendsItsWarmAgentToTheCLI(t *testing.T) {
	unixsock.Need(t)
	a, rec, logPath := newTestApp(t, "normal")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "first"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	sid := last(rec.turns[started.TurnID]).SessionID
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.Turns.lendWarm(ctx)
	path, err := serve.Path("app")
	if err != nil {
		t.Fatal(err)
	}
	// What `cdxtheme chat` would run: the same agent command, its own
	// environment, the settings' bound.
	cli := serve.Agent{Path: os.Getenv("CDXTHEME_AGENT"), Env: append(os.Environ(), "TERM=xterm", "PWD=/somewhere"), Timeout: a.Settings.GetSettings().Timeout()}
	turn := func(ag serve.Agent, cwd string) (chat.Result, error, bool, []chat.Event) {
		var evs []chat.Event
		res, err, handled := serve.Run(context.Background(), path, chat.Turn{SessionID: sid, Cwd: cwd, Prompt: prompt.Text("from the terminal")}, ag, func(ev chat.Event) { evs = append(evs, ev) })
		return res, err, handled, evs
	}

	for name, c := range map[string]struct {
		ag  serve.Agent
		cwd string
	}{
		"another account": {serve.Agent{Path: cli.Path, Env: append(cli.Env, "OPENAI_API_KEY=sk-other"), Timeout: cli.Timeout}, started.Cwd},
		"another folder":  {cli, t.TempDir()},
		"another bound":   {serve.Agent{Path: cli.Path, Env: cli.Env, Timeout: cli.Timeout / 2}, started.Cwd},
		"another command": {serve.Agent{Path: filepath.Join(t.TempDir(), "other-agent"), Env: cli.Env, Timeout: cli.Timeout}, started.Cwd},
	} {
		_, err, handled, evs := turn(c.ag, c.cwd)
		var d *serve.Declined
		if handled || !errors.As(err, &d) || len(evs) != 0 {
			t.Fatalf("%s: handled %v, err %v, %d events", name, handled, err, len(evs))
		}
	}
	sessionsEvents := 0
	rec.mu.Lock()
	rec.onEmit = func(name string) {
		if name == "sessions" {
			sessionsEvents++
		}
	}
	rec.mu.Unlock()
	res, err, handled, evs := turn(cli, started.Cwd)
	if err != nil || !handled || res.SessionID != sid || !strings.HasPrefix(textOf(evs), "You said: from the terminal") {
		t.Fatalf("lent turn: %v %v %+v", err, handled, res)
	}
	if last(evs).Type() != chat.EventDone {
		t.Fatalf("last event %+v", last(evs))
	}
	m, _ := agentCalls(t, logPath)
	if strings.Join(m, ",") != "initialize,session/new,session/prompt,session/prompt" {
		t.Fatalf("the CLI turn did not run on the app's warm agent: %v", m)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if sessionsEvents != 1 {
		t.Fatal("Home was not told the session changed")
	}
}

// textOf is the agent text the events carried.
func textOf(evs []chat.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Type() == chat.EventText {
			b.WriteString(ev.Payload.(chat.TextChunk).Text)
		}
	}
	return b.String()
}
