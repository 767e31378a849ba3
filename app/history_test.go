package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/chathistory"
	"cdxtheme/core/chat"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/fixtures"
)

const rolloutSession = "01a2360f-02d3-7551-b339-f4d167fb91c8" // 7 messages in internal/testrig/fixtures' Codex home

func withRollouts(t *testing.T) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "codex-home")
	if err := fixtures.CopyCodexHome(dir); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", dir)
}

// The newest page first, then older ones before its offset, oldest first
// within a page; nothing is lost or repeated.
func TestChatHistoryPagesBackwardsFromTheNewest(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	withRollouts(t)
	newest, err := a.Chats.ChatHistory(rolloutSession, -1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if newest.Source != chathistory.Rollout || newest.Total != 7 || newest.Offset != 4 || len(newest.Messages) != 3 {
		t.Fatalf("newest page = %+v", newest)
	}
	if newest.Messages[2].Role != "assistant" || newest.Messages[1].Role != "user" {
		t.Fatalf("newest page roles: %v %v %v", newest.Messages[0].Role, newest.Messages[1].Role, newest.Messages[2].Role)
	}
	older, err := a.Chats.ChatHistory(rolloutSession, newest.Offset, 3)
	if err != nil {
		t.Fatal(err)
	}
	oldest, err := a.Chats.ChatHistory(rolloutSession, older.Offset, 3)
	if err != nil {
		t.Fatal(err)
	}
	if older.Offset != 1 || oldest.Offset != 0 || len(oldest.Messages) != 1 || oldest.Messages[0].Role != "user" {
		t.Fatalf("older %d (%d), oldest %d (%d)", older.Offset, len(older.Messages), oldest.Offset, len(oldest.Messages))
	}
	tr, err := a.Settings.home().Transcript(a.bg(), rolloutSession)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, p := range []HistoryPage{oldest, older, newest} {
		for _, m := range p.Messages {
			all = append(all, m.Role+":"+m.Text)
		}
	}
	var want []string
	for _, m := range tr.Messages {
		want = append(want, m.Role+":"+m.Text)
	}
	if strings.Join(all, "\n") != strings.Join(want, "\n") {
		t.Fatalf("pages put together:\n%s\nwant:\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
}

// A session without a rollout (another agent's) is not an error: the
// history comes from the agent, and opening the chat replays it.
func TestChatWithoutARolloutGetsTheAgentsReplay(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(echo)
	ag.OnLoad(func(c *acpstub.Call) {
		c.Update(c.SessionID(), `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"make it teal"}}`)
		c.Update(c.SessionID(), `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"You said: make it teal"}}`)
	})
	a, rec := newStubApp(t, ag)
	t.Setenv("CODEX_HOME", t.TempDir())
	started, sid := finishedBuild(t, a, rec, "make it teal")
	page, err := a.Chats.ChatHistory(sid, -1, 50)
	if err != nil || page.Source != chathistory.Agent || len(page.Messages) != 0 {
		t.Fatalf("page = %+v, err = %v", page, err)
	}
	a.Shutdown(nil) // the warm agent goes, as at a restart
	id, err := a.Turns.OpenChat(OpenRequest{WorkspaceID: started.WorkspaceID, SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "ready", func() bool { return last(rec.turns[id]).Type() == chat.EventReady })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var replay []string
	for _, ev := range rec.turns[id] {
		if ev.Replay && (ev.Type() == chat.EventUserText || ev.Type() == chat.EventText) {
			replay = append(replay, ev.Type())
		}
	}
	if strings.Join(replay, ",") != "user_text,text" {
		t.Fatalf("replayed %v", replay)
	}
}

func TestExportChatWritesTheRolloutOrWhatTheChatShows(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	withRollouts(t)
	dir := t.TempDir()
	a.Desktop.saveTo = filepath.Join(dir, "out.md")
	if _, err := a.Chats.ExportChat(rolloutSession, "Sunset", "ignored"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(a.Desktop.saveTo)
	if !strings.Contains(string(b), "Theme please") {
		t.Fatalf("the rollout export lacks the first message:\n%s", b)
	}
	if _, err := a.Chats.ExportChat("not-a-codex-session", "Teal", "## You\n\nmake it teal\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(a.Desktop.saveTo); string(b) != "## You\n\nmake it teal\n" {
		t.Fatalf("chat export = %q", b)
	}
}

// Kept on the subprocess fake agent: the check looks for a program on disk.
func TestCheckAgentBeforeSending(t *testing.T) {
	a, _, _ := newTestApp(t, "normal")
	if c := a.Chats.CheckAgent("", ""); !c.OK || c.AgentID != "codex" {
		t.Fatalf("check = %+v", c)
	}
	t.Setenv("CDXTHEME_AGENT", filepath.Join(t.TempDir(), "no-such-agent"))
	if c := a.Chats.CheckAgent("", ""); c.OK || c.Code != chat.CodeAgentMissing || c.Detail == "" {
		t.Fatalf("check = %+v", c)
	}
}

// A turn the agent gave up on after losing its model server names that
// server, from config.toml.
func TestModelServerErrorNamesTheServer(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		// codex-acp lost its model server: it says it retries, and keeps
		// trying until the turn's time runs out.
		turn.Update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Reconnecting... 1/5","codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":null}},"willRetry":true}}}}`)
		<-turn.Cancelled()
		return "cancelled"
	})
	a, rec := newStubApp(t, ag)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("model_provider = \"mock\"\n[model_providers.mock]\nname = \"Mock Responses\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"), 0o600)
	t.Setenv("CODEX_HOME", home)
	s := a.Settings.GetSettings()
	s.TurnTimeoutSeconds = 2
	if err := a.Settings.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the error", func() bool { return last(rec.turns[started.TurnID]).Type() == chat.EventError })
	rec.mu.Lock()
	ev := last(rec.turns[started.TurnID])
	rec.mu.Unlock()
	if ev.Payload.(chat.ErrorEvent).Code != chat.CodeModelServer || ev.Payload.(chat.ErrorEvent).Server != "Mock Responses (http://127.0.0.1:9/v1)" || ev.Payload.(chat.ErrorEvent).Status == nil {
		t.Fatalf("error = %+v", ev)
	}
}

// A model server that answered 500, which codex-acp words as plain text
// and an ordinary end of the turn, reaches the chat as the same error, the
// server named, with no assistant text.
func TestModelServerFailureAsTextReachesTheChatAsAnError(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		// How codex-acp words a model server that answered 500: plain text,
		// then an ordinary end of the turn.
		turn.Say("unexpected status 500 Internal Server Error: the model server failed\n\n")
		return "end_turn"
	})
	a, rec := newStubApp(t, ag)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("model_provider = \"mock\"\n[model_providers.mock]\nname = \"Mock Responses\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"), 0o600)
	t.Setenv("CODEX_HOME", home)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "make it teal"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the turn's end", func() bool {
		ty := last(rec.turns[started.TurnID]).Type()
		return ty == chat.EventError || ty == chat.EventDone
	})
	rec.mu.Lock()
	evs := append([]chat.Event(nil), rec.turns[started.TurnID]...)
	rec.mu.Unlock()
	ev := evs[len(evs)-1]
	e, _ := ev.Payload.(chat.ErrorEvent)
	if e.Code != chat.CodeModelServer || e.Server != "Mock Responses (http://127.0.0.1:9/v1)" || e.Status == nil || !strings.Contains(e.Status.Message, "500") {
		t.Fatalf("last event = %+v", ev)
	}
	for _, e := range evs {
		if e.Type() == chat.EventText {
			t.Errorf("the failure was shown as the answer: %q", e.Payload.(chat.TextChunk).Text)
		}
	}
}

// A saved chat whose folder is gone fails to open with an input error (the
// UI offers Choose folder); once opened in another folder, that one is
// remembered for the chat.
func TestOpenChatInAnotherFolderIsRemembered(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	gone, other := filepath.Join(t.TempDir(), "gone"), t.TempDir()
	os.Mkdir(gone, 0o755)
	id, err := a.Turns.Send(SendRequest{Cwd: gone, Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, id)
	rec.mu.Lock()
	sid := last(rec.turns[id]).SessionID
	rec.mu.Unlock()
	// The agent goes first: on Windows its working folder cannot be
	// removed while it runs. os.Remove, not RemoveAll: the folder is
	// empty, and RemoveAll's delete is one Wine 8 lacks.
	a.Shutdown(nil)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}

	open := func(cwd string) chat.Event {
		t.Helper()
		id, err := a.Turns.OpenChat(OpenRequest{SessionID: sid, Cwd: cwd})
		if err != nil {
			t.Fatal(err)
		}
		rec.waitFor(t, "open ends", func() bool {
			typ := last(rec.turns[id]).Type()
			return typ == chat.EventReady || typ == chat.EventError
		})
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return last(rec.turns[id])
	}
	if ev := open(gone); ev.Type() != chat.EventError || ev.Payload.(chat.ErrorEvent).Code != chat.CodeInput || !strings.Contains(ev.Payload.(chat.ErrorEvent).Text, "not a directory") {
		t.Fatalf("opening in a missing folder: %+v", ev)
	}
	if ev := open(other); ev.Type() != chat.EventReady {
		t.Fatalf("opening in the chosen folder: %+v", ev)
	}
	if ev := open(gone); ev.Type() != chat.EventReady {
		t.Fatalf("the chosen folder was not remembered: %+v", ev)
	}
}
