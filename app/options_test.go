package app

import (
	"os"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
)

// finishedBuild runs a first turn and returns it once done.
func finishedBuild(t *testing.T, a *App, rec *recorder, prompt string) (TurnStarted, string) {
	t.Helper()
	started, err := a.NewBuild(NewBuildRequest{Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type == "done" })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return started, last(rec.turns[started.TurnID]).SessionID
}

// finalText waits for the turn to end and returns its text; a turn that
// ends in an error fails the test at once, with the error.
func (r *recorder) finalText(t *testing.T, turnID string) string {
	t.Helper()
	r.waitFor(t, "the end of the turn", func() bool {
		typ := last(r.turns[turnID]).Type
		return typ == "done" || typ == "error"
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := last(r.turns[turnID]); e.Type == "error" {
		t.Fatalf("turn %s failed: %s (%s)", turnID, e.Text, e.Code)
	}
	return text(r.turns[turnID])
}

func TestBooleanOptionReachesTheLiveAgent(t *testing.T) {
	a, rec, logPath := newTestApp(t, "options")
	started, sid := finishedBuild(t, a, rec, "hi")
	res, err := a.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "fast-mode", Value: true})
	if err != nil {
		t.Fatal(err)
	}
	fast, ok := acp.FindConfigOption(res.ConfigOptions, "", "fast-mode")
	if !res.Applied || !ok || !fast.Bool {
		t.Fatalf("result = %+v", res)
	}
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), `"configId":"fast-mode","type":"boolean","value":true`) {
		t.Fatal("set_config_option with the boolean did not reach the agent")
	}
	// A value the agent refuses is an error and is not remembered.
	if _, err := a.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "palette_family", Value: "neon"}); err == nil {
		t.Fatal("a refused value was accepted")
	}
	if _, err := a.SetSessionOption(OptionChange{SessionID: sid, ConfigID: "fast-mode", Value: 3.0}); err == nil {
		t.Fatal("a number was accepted as a setting")
	}
	l := a.Agents()
	codex, _ := l.Find("codex")
	if codex.Defaults["fast-mode"] != true || codex.Defaults["palette_family"] != nil {
		t.Fatalf("agent defaults = %v", codex.Defaults)
	}
}

func TestOptionsAreReappliedToANewAgentProcess(t *testing.T) {
	a, rec, _ := newTestApp(t, "options")
	// Cold connections only: every turn is a fresh process that resumes.
	off := false
	if err := a.SaveSettings(settings.Settings{WarmConnection: &off}); err != nil {
		t.Fatal(err)
	}
	started, sid := finishedBuild(t, a, rec, "hi")
	res, err := a.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "palette_family", Value: "ember"})
	if err != nil || res.Applied {
		t.Fatalf("with no live agent the value waits for the next message: %+v %v", res, err)
	}
	id, err := a.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "#options", Mode: "read-only"})
	if err != nil {
		t.Fatal(err)
	}
	got := rec.finalText(t, id)
	if !strings.Contains(got, "palette_family=ember") || !strings.Contains(got, "mode=read-only") {
		t.Fatalf("the agent holds %q", got)
	}
	// A new build with the same agent starts from its remembered defaults.
	next, err := a.NewBuild(NewBuildRequest{Prompt: "#options"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, next.TurnID); !strings.Contains(got, "palette_family=ember") {
		t.Fatalf("new build: %q", got)
	}
}

func TestSlashCommandsReachTheChat(t *testing.T) {
	a, rec, _ := newTestApp(t, "commands")
	started, sid := finishedBuild(t, a, rec, "hi")
	id, err := a.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "/review focus on contrast"})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, id)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, turn := range []string{started.TurnID, id} {
		found := false
		for _, e := range rec.turns[turn] {
			if e.Type == chat.EventCommands && strings.Contains(string(e.Update), `"hint":"optional review instructions"`) {
				found = true
			}
		}
		if !found {
			t.Fatalf("turn %s has no commands with their input hints", turn)
		}
	}
}
