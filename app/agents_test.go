package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/chatagents"
	"cdxtheme/core/chat"
	"cdxtheme/core/damaged"
	"cdxtheme/core/mcp"
	"cdxtheme/core/prompt"
	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"

	"github.com/rs/zerolog"
)

func TestBuildAgentChoiceRunsThatAgentWithItsMCPServers(t *testing.T) {
	// Each agent answers with its own name; "fake" also names the blocks
	// it got.
	peers := map[string]*acpstub.Agent{}
	for _, id := range []string{"fake", "codex"} {
		ag := acpstub.New()
		ag.OnPrompt(func(turn *acpstub.Turn) string {
			turn.Say(id + " got: " + turn.Text())
			return "end_turn"
		})
		peers[id] = ag
	}
	dial := func(agentID, cwd string) (chat.Running, error) {
		if ag := peers[agentID]; ag != nil {
			return ag.Dial(cwd)
		}
		return nil, os.ErrNotExist
	}
	a, rec := newStubApp(t, nil)
	a.Turns.run.Dial = dial
	l := a.Agents.Agents()
	l.Agents = append(l.Agents, settings.Agent{ID: "fake", Name: "Fake", Kind: settings.KindCustom, Command: "fake-acp"})
	// An absolute path on this OS.
	userMCP, _ := filepath.Abs(filepath.Join(string(filepath.Separator), "usr", "local", "bin", "palette-mcp"))
	l.MCPServers = []settings.MCPServer{{Name: "palette", Command: userMCP}}
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SetBuildAgent("nobody"); err == nil {
		t.Fatal("an unknown agent was chosen")
	}
	if err := a.Agents.SetBuildAgent("fake"); err != nil {
		t.Fatal(err)
	}
	started, sid := finishedBuild(t, a, rec, "hi")
	if got := rec.finalText(t, started.TurnID); got != "fake got: hi" {
		t.Fatalf("the chosen agent did not answer: %q", got)
	}
	// The user's servers, then the app's theme tools run from this very
	// binary on the build's folder.
	userJSON, _ := json.Marshal(userMCP)
	exe, _ := json.Marshal(mcp.Executable())
	if p := peers["fake"].Params("session/new"); len(p) != 1 || !strings.Contains(string(p[0]), `"mcpServers":[{"name":"palette","command":`+string(userJSON)+`,"args":[],"env":[]},{"name":"cdxtheme","command":`+string(exe)+`,"args":["mcp","--edits",`) {
		t.Fatalf("MCP servers not passed in session/new: %s", p)
	}
	// The chat stays with its agent even when New Build switches.
	if err := a.Agents.SetBuildAgent("codex"); err != nil {
		t.Fatal(err)
	}
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); got != "fake got: again" {
		t.Fatalf("follow-up went elsewhere: %q", got)
	}

	// After a restart the chat still goes to its agent.
	a.Shutdown(nil)
	restarted := New(zerolog.Nop())
	restarted.Turns.run.Dial = dial
	rec2 := newRecorder()
	restarted.emit = rec2
	t.Cleanup(func() { restarted.Shutdown(nil) })
	id, err = restarted.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "after restart"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec2.finalText(t, id); got != "fake got: after restart" {
		t.Fatalf("after a restart the follow-up went elsewhere: %q", got)
	}
	if n := peers["codex"].Started(); n != 0 {
		t.Fatalf("codex was started %d times for a chat that is fake's", n)
	}
}

func TestSaveAgentsRefusesABrokenList(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	l := a.Agents.Agents()
	l.Agents = append(l.Agents, settings.Agent{ID: "x", Kind: settings.KindCustom})
	if err := a.Agents.SaveAgents(l); err == nil || !strings.Contains(err.Error(), "needs a command") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(settings.AgentsPath()); !os.IsNotExist(err) {
		t.Fatal("a broken list was written")
	}
}

func TestAttachmentsSentWithAMessage(t *testing.T) {
	ag := acpstub.New() // takes images and embedded context
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		var kinds []string
		for _, raw := range turn.Prompt {
			var b struct{ Type string }
			json.Unmarshal(raw, &b)
			kinds = append(kinds, b.Type)
		}
		turn.Say("Blocks: " + strings.Join(kinds, ", "))
		return "end_turn"
	})
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "hi")
	os.WriteFile(filepath.Join(started.Cwd, "notes.md"), []byte("# notes"), 0o644)
	png := []byte("\x89PNG\r\n\x1a\nfake")
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "look",
		Attachments: []prompt.Attachment{{Name: "paste.png", MimeType: "image/png", Data: png}, {Path: "notes.md"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); got != "Blocks: text, image, resource_link" {
		t.Fatalf("agent got %q", got)
	}
	// Too big is refused at once, with the limit named; nothing is started.
	_, err = a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "look",
		Attachments: []prompt.Attachment{{Name: "huge.png", Data: make([]byte, prompt.MaxAttachmentBytes+1)}}})
	if err == nil || !strings.Contains(err.Error(), "at most 10.0 MiB") {
		t.Fatalf("err = %v", err)
	}
	// A file outside the workspace fails the turn before the prompt.
	outside := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(outside, []byte("root:x:0:0"), 0o644)
	id, err = a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "look",
		Attachments: []prompt.Attachment{{Path: outside}}})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the refusal", func() bool { return last(rec.turns[id]).Type() == "error" })
	rec.mu.Lock()
	ev := last(rec.turns[id])
	rec.mu.Unlock()
	if ev.Payload.(chat.ErrorEvent).Code != chat.CodeInput || !strings.Contains(chat.TextOf(ev), "only files inside the workspace") {
		t.Fatalf("error = %+v", ev)
	}
}

// Kept on the subprocess fake agent: what a started process gets in its
// environment and argument vector.

// The stored OpenAI key goes to Codex agents only: a third-party agent
// gets neither the stored key nor one in the app's own environment. And
// an agent's arguments reach it word for word (a tab stays a tab).
func TestSecretsGoOnlyToCodexAndArgumentsArriveIntact(t *testing.T) {
	a, rec, _ := newTestApp(t, "normal")
	t.Setenv("CDXTHEME_AGENT", "") // the list decides, as for a user
	t.Setenv("OPENAI_API_KEY", "sk-from-the-desktop-session")
	if _, err := a.Agents.SaveAPIKey("sk-stored-key"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The fake agent notes its argument and environment (FAKE_AGENT_RECORD).
	wrap := func(out string) (string, []string, map[string]string) {
		return fakeagenttest.Build(t), []string{"a\tb \"c\" $d"}, map[string]string{"FAKE_AGENT_RECORD": filepath.Join(dir, out)}
	}
	l := a.Agents.Agents()
	for i := range l.Agents {
		if l.Agents[i].ID == settings.KindCodex {
			l.Agents[i].Command, l.Agents[i].Args, l.Agents[i].Env = wrap("codex")
		}
	}
	cmd, args, env := wrap("third")
	l.Agents = append(l.Agents, settings.Agent{ID: "third", Name: "Third party", Kind: settings.KindCustom, Command: cmd, Args: args, Env: env})
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	for _, ag := range a.Agents.Agents().Agents {
		if want := ag.ID == "codex" || ag.ID == "codex-rs"; (len(ag.Secrets) > 0) != want {
			t.Errorf("the agents list says %s gets %v", ag.ID, ag.Secrets)
		}
	}
	for _, id := range []string{"third", "codex"} {
		if err := a.Agents.SetBuildAgent(id); err != nil {
			t.Fatal(err)
		}
		started, _ := finishedBuild(t, a, rec, "hi")
		if got := rec.finalText(t, started.TurnID); !strings.HasPrefix(got, "You said: hi") {
			t.Fatalf("%s: %q", id, got)
		}
		arg, _ := os.ReadFile(filepath.Join(dir, id+".arg"))
		if string(arg) != "a\tb \"c\" $d" {
			t.Errorf("%s got the argument %q", id, arg)
		}
		envb, _ := os.ReadFile(filepath.Join(dir, id+".env"))
		e := "\n" + string(envb)
		hasKey := strings.Contains(e, "\nOPENAI_API_KEY=sk-stored-key\n") && strings.Contains(e, "\nCODEX_API_KEY=sk-stored-key\n")
		switch {
		case id == "codex" && !hasKey:
			t.Errorf("Codex did not get the stored key:\n%s", e)
		case id == "third" && (strings.Contains(e, "OPENAI_API_KEY=") || strings.Contains(e, "CODEX_API_KEY=")):
			t.Errorf("a third-party agent got an OpenAI key:\n%s", e)
		}
	}
}

// A chat-agents.json that no longer parses is moved aside and reported, not
// written over by the next chat: the user's file is kept for them to mend.
func TestDamagedChatAgentsFileIsSetAside(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	path := chatagents.Path()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	garbage := []byte(`{"workspaces": {"ws-1": "qwen"`)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	started, sid := finishedBuild(t, a, rec, "hi")

	copies, _ := filepath.Glob(path + damaged.Suffix + "*")
	if len(copies) != 1 {
		t.Fatalf("set aside as %v, want one copy", copies)
	}
	if b, _ := os.ReadFile(copies[0]); string(b) != string(garbage) {
		t.Errorf("the copy set aside holds %q, want the damaged file", b)
	}
	reported := false
	for _, n := range a.Settings.DamagedFiles() {
		reported = reported || (n.Path == path && n.Copy == copies[0])
	}
	if !reported {
		t.Errorf("not reported: %+v", a.Settings.DamagedFiles())
	}
	var now struct{ Workspaces, Sessions map[string]string }
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &now) != nil {
		t.Fatalf("no fresh chat-agents.json after the chat: %q %v", b, err)
	}
	if now.Workspaces[started.WorkspaceID] != "codex" || now.Sessions[sid] != "codex" {
		t.Errorf("the new chat is not remembered: %+v", now)
	}
}

// Settings' theme_tools = false leaves the app's own MCP server out of
// session/new; the user's servers still go.
func TestThemeToolsSettingOff(t *testing.T) {
	ag := acpstub.New()
	a, rec := newStubApp(t, ag)
	s := a.Settings.GetSettings()
	off := false
	s.ThemeTools = &off
	if err := a.Settings.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	finishedBuild(t, a, rec, "hi")
	if p := ag.Params("session/new"); len(p) != 1 || strings.Contains(string(p[0]), `{"name":"cdxtheme","command"`) {
		t.Fatalf("with the setting off, session/new: %s", p)
	}
}
