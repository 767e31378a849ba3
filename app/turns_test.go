package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
	"cdxtheme/core/settings"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"

	"github.com/rs/zerolog"
)

// recorder collects what the app emits, as the webview would receive it.
type recorder struct {
	mu     sync.Mutex
	turns  map[string][]chat.Event
	emits  map[string]int
	themes []ThemeEvent
	builds []BuildCard // "build" events
	editor []EditorEvent
	seqs   map[string][]int
	onEmit func(name string) // called under mu
	signal chan struct{}
}

func newRecorder() *recorder {
	return &recorder{turns: map[string][]chat.Event{}, emits: map[string]int{}, seqs: map[string][]int{}, signal: make(chan struct{}, 1)}
}

func (r *recorder) Emit(name string, payload any) {
	r.mu.Lock()
	switch p := payload.(type) {
	case TurnBatch:
		r.turns[p.TurnID] = append(r.turns[p.TurnID], p.Events...)
		r.emits[p.TurnID]++
		r.seqs[p.TurnID] = append(r.seqs[p.TurnID], p.Seq)
	case ThemeEvent:
		r.themes = append(r.themes, p)
	case BuildCard:
		r.builds = append(r.builds, p)
	case EditorEvent:
		r.editor = append(r.editor, p)
	case ArtifactsEvent:
		r.emits["artifacts"]++
	case AgentOptionsEvent:
		r.emits["agent-options:"+p.AgentID]++
	}
	if r.onEmit != nil {
		r.onEmit(name)
	}
	r.mu.Unlock()
	select {
	case r.signal <- struct{}{}:
	default:
	}
}

// waitFor polls the recorded state until cond holds (or fails the test).
func (r *recorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.signal:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func last(evs []chat.Event) chat.Event {
	if len(evs) == 0 {
		return chat.Event{}
	}
	return evs[len(evs)-1]
}

// text is what a turn answered: its text events, without replayed history.
func text(evs []chat.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if c, ok := e.Payload.(chat.TextChunk); ok && !e.Replay {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// envTestAgent holds the program of the test app's agent (testAgent): a
// test that names the agent itself uses it, so fakeAgents finds it.
const envTestAgent = "CDXTHEME_TEST_AGENT"

// newTestApp builds an App wired to the subprocess fake agent with its own
// config, data and agent state folders: for the tests of processes, pipes,
// floods, env and argv (the app's logic runs on newStubApp).
func newTestApp(t *testing.T, scenario string) (*App, *recorder, string) {
	t.Helper()
	bin := fakeagenttest.Build(t)
	root := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(root, "data"))
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(root, "cache"))
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	t.Setenv("CDXTHEME_AGENT", testAgent(t, bin, root))
	t.Setenv("FAKE_AGENT_SCENARIO", scenario)
	t.Setenv("FAKE_AGENT_STATE", filepath.Join(root, "agent-state"))
	logPath := filepath.Join(root, "agent.log")
	t.Setenv("FAKE_AGENT_LOG", logPath)
	a := New(zerolog.Nop())
	rec := newRecorder()
	a.emit = rec
	t.Cleanup(func() { a.Shutdown(nil) })
	return a, rec, logPath
}

// Kept on the subprocess fake agent: a flood of 20,000 updates through a
// real pipe, batched for the page.
func TestNewBuildStreamsBatchedEventsAndRecordsTheSession(t *testing.T) {
	a, rec, _ := newTestApp(t, "burst")
	t.Setenv("FAKE_AGENT_BURST", "20000")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "A calm dusk theme", Options: map[string]any{"model": "gpt-5.5"}})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(started.Cwd) || started.WorkspaceID == "" {
		t.Fatalf("started: %+v", started)
	}
	if _, err := os.Stat(filepath.Join(started.Cwd, "AGENTS.md")); err != nil {
		t.Fatalf("the workspace has no AGENTS.md: %v", err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	rec.mu.Lock()
	evs := rec.turns[started.TurnID]
	emits := rec.emits[started.TurnID]
	rec.mu.Unlock()
	if n := strings.Count(text(evs), "x"); n < 20000 {
		t.Fatalf("the burst lost chunks: %d of 20000 arrived", n)
	}
	// 20,000 chunks must reach the UI in far fewer emits (one per frame).
	if emits > 2000 {
		t.Fatalf("%d UI events for %d updates: not batched", emits, len(evs))
	}
	for _, e := range evs {
		if e.TurnID != started.TurnID {
			t.Fatalf("event without its turn id: %+v", e)
		}
	}
	rec.mu.Lock()
	seqs := rec.seqs[started.TurnID]
	rec.mu.Unlock()
	for i, s := range seqs {
		if s != i+1 {
			t.Fatalf("batch %d carries seq %d: the UI could not restore the order (%v)", i+1, s, seqs)
		}
	}
	ws := a.Builds.Workspaces()
	if len(ws) != 1 || len(ws[0].SessionIDs) != 1 || ws[0].SessionIDs[0] != last(evs).SessionID {
		t.Fatalf("the session was not recorded in the workspace: %+v", ws)
	}
}

// newStubApp builds an App whose agent is the in-process scripted peer ag
// (internal/testrig/acpstub), whichever agent is chosen, with its own
// config and data folders. A test that gives each agent its own peer
// passes nil and sets a.Turns.run.Dial itself.
func newStubApp(t *testing.T, ag *acpstub.Agent) (*App, *recorder) {
	t.Helper()
	root := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(root, "data"))
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(root, "cache"))
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	a := New(zerolog.Nop())
	if ag != nil {
		a.Turns.run.Dial = func(_, cwd string) (chat.Running, error) { return ag.Dial(cwd) }
	}
	rec := newRecorder()
	a.emit = rec
	t.Cleanup(func() { a.Shutdown(nil) })
	return a, rec
}

// duskTheme is the theme the dusk agent writes: the example named "Fake
// Dusk", its keyword #ff9e64 and accent #ff7a59.
func duskTheme() []byte {
	th := theme.Example()
	th.Name = "Fake Dusk"
	k, _ := theme.ParseColor("#ff9e64")
	c, _ := theme.ParseColor("#ff7a59")
	th.Set("syntax.keyword", k)
	th.Set("ui.accent", c)
	b, _ := json.MarshalIndent(th, "", "  ")
	return append(b, '\n')
}

// duskAgent writes theme.json as Codex's apply_patch does: it announces
// the edit with its diff, writes the file and completes, then says the
// theme is ready. Its sessions have Codex's ids. (One write a turn: two
// writes a moment apart race the app's lock restore, which is not what
// these tests are about.)
func duskAgent() *acpstub.Agent {
	ag := acpstub.New()
	var sessions atomic.Int64
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return map[string]string{"sessionId": fmt.Sprintf("0199dddd-0000-7000-8000-%012d", sessions.Add(1))}, nil
	})
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		path := filepath.Join(turn.Cwd(), theme.FileName)
		pathJSON, _ := json.Marshal(path)
		old := "null" // a new file, as the real adapter says
		if b, err := os.ReadFile(path); err == nil {
			o, _ := json.Marshal(string(b))
			old = string(o)
		}
		text, _ := json.Marshal(string(duskTheme()))
		turn.Say("Writing theme.json. ")
		turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"call_theme","kind":"edit","title":"Edit theme.json","status":"in_progress",` +
			`"content":[{"type":"diff","path":` + string(pathJSON) + `,"oldText":` + old + `,"newText":` + string(text) + `}],"locations":[{"path":` + string(pathJSON) + `}]}`)
		os.WriteFile(path, duskTheme(), 0o644)
		turn.Update(`{"sessionUpdate":"tool_call_update","toolCallId":"call_theme","status":"completed"}`)
		turn.Say("Theme ready.")
		return "end_turn"
	})
	return ag
}

// count is how often x is in xs (a method in an agent's calls).
func count(xs []string, x string) int {
	n := 0
	for _, s := range xs {
		if s == x {
			n++
		}
	}
	return n
}

func TestPermissionAnsweredFromTheUI(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Write theme.json","kind":"edit","status":"pending"}`)
		outcome := turn.Ask(`{"toolCallId":"c1"}`, `[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]`)
		turn.Say("outcome " + string(outcome))
		return "end_turn"
	})
	a, rec := newStubApp(t, ag)
	// The page chooses the turn's id: it follows the turn from the first
	// event under it, before NewBuild returns.
	started, err := a.Turns.NewBuild(NewBuildRequest{TurnID: "t-page-7", Prompt: "theme please"})
	if err != nil {
		t.Fatal(err)
	}
	if started.TurnID != "t-page-7" {
		t.Fatalf("the turn runs as %q, not under the id the page chose", started.TurnID)
	}
	var perm *permission.Permission
	rec.waitFor(t, "the permission event", func() bool {
		for _, e := range rec.turns[started.TurnID] {
			if p, ok := e.Payload.(chat.PermissionAsked); ok {
				perm = p.Permission
				return true
			}
		}
		return false
	})
	if err := a.Turns.AnswerPermission(started.TurnID, "no-such-request", "x"); err == nil {
		t.Fatal("an answer to an unknown request was accepted")
	}
	// An id in use, or no plain id, is refused before anything runs.
	for _, id := range []string{"t-page-7", "../t", strings.Repeat("t", 65)} {
		if _, err := a.Turns.Send(SendRequest{TurnID: id, Cwd: t.TempDir(), Prompt: "again"}); err == nil {
			t.Fatalf("a turn started under the id %q", id)
		}
	}
	if err := a.Turns.AnswerPermission(started.TurnID, perm.RequestID, permission.ChooseByKind(perm.Options, "reject_once")); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	rec.mu.Lock()
	got := text(rec.turns[started.TurnID])
	rec.mu.Unlock()
	if got != `outcome {"outcome":"selected","optionId":"no"}` {
		t.Fatalf("the agent got %q, not the user's rejection", got)
	}
}

// askTwice is an agent turn that runs two commands, asking before each,
// and says what it was answered.
func askTwice(turn *acpstub.Turn) string {
	var got []string
	for _, id := range []string{"call_0", "call_1"} {
		turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"ls","kind":"execute","status":"pending"}`)
		var o struct{ OptionID string }
		json.Unmarshal(turn.Ask(`{"toolCallId":"`+id+`"}`, `[{"optionId":"allow_once","name":"Allow","kind":"allow_once"},{"optionId":"allow_always","name":"Always","kind":"allow_always"},{"optionId":"reject_once","name":"Reject","kind":"reject_once"}]`), &o)
		got = append(got, o.OptionID)
	}
	turn.Say("Permission outcomes: " + strings.Join(got, ", "))
	return "end_turn"
}

// "Always" is remembered by the app for the session: after the user's
// allow_always the next request of that tool kind, in this turn and in
// the next, is answered in Go and the UI only told (permission_answered,
// remembered); nothing asks the UI or waits for it.
func TestAlwaysIsAnsweredInGoForTheSession(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(askTwice)
	a, rec := newStubApp(t, ag)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "theme please"})
	if err != nil {
		t.Fatal(err)
	}
	var perm *permission.Permission
	rec.waitFor(t, "the first permission event", func() bool {
		for _, e := range rec.turns[started.TurnID] {
			if e.Type() == chat.EventPermission {
				perm = e.Payload.(chat.PermissionAsked).Permission
				return true
			}
		}
		return false
	})
	if err := a.Turns.AnswerPermission(started.TurnID, perm.RequestID, permission.ChooseByKind(perm.Options, "allow_always")); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == chat.EventDone })
	asked := func(turnID string) (questions, remembered int) {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, e := range rec.turns[turnID] {
			switch {
			case e.Type() == chat.EventPermission:
				questions++
			case e.Type() == chat.EventAnswered && e.Payload.(chat.PermissionAnswered).Answer != nil && e.Payload.(chat.PermissionAnswered).Answer.Remembered && e.Payload.(chat.PermissionAnswered).Answer.Kind == "allow_always":
				remembered++
			}
		}
		return questions, remembered
	}
	if q, r := asked(started.TurnID); q != 1 || r != 1 {
		t.Fatalf("first turn: %d questions, %d remembered answers; want 1 and 1", q, r)
	}
	sid := last(rec.turns[started.TurnID]).SessionID
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); got != "Permission outcomes: allow_always, allow_always" {
		t.Fatalf("follow-up answered %q", got)
	}
	if q, r := asked(id); q != 0 || r != 2 {
		t.Fatalf("follow-up: %d questions, %d remembered answers; want 0 and 2", q, r)
	}
}

func TestPolicyFromSettingsAnswersWithoutTheUI(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(askTwice)
	a, rec := newStubApp(t, ag)
	if err := a.Settings.SaveSettings(settings.Settings{PermissionPolicy: settings.PolicyDeny}); err != nil {
		t.Fatal(err)
	}
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "theme please"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, started.TurnID); got != "Permission outcomes: reject_once, reject_once" {
		t.Fatalf("deny policy did not reject: %q", got)
	}
}

// Stopping a turn asks the agent to cancel; what it streamed before stays,
// and the turn ends as cancelled.
func TestCancelKeepsStreamedText(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Working on the palette… ")
		<-turn.Cancelled()
		return "cancelled"
	})
	a, rec := newStubApp(t, ag)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "slowly"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "some text", func() bool { return len(text(rec.turns[started.TurnID])) > 10 })
	if err := a.Turns.Cancel(started.TurnID); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the end of the turn", func() bool {
		evs := rec.turns[started.TurnID]
		return last(evs).Type() == "done" || last(evs).Type() == "error"
	})
	rec.mu.Lock()
	evs := rec.turns[started.TurnID]
	rec.mu.Unlock()
	var done *chat.Event
	for i := range evs {
		if evs[i].Type() == "done" {
			done = &evs[i]
		}
	}
	if done == nil || done.Payload.(chat.Done).StopReason != "cancelled" {
		t.Fatalf("no cancelled done event: %+v", last(evs))
	}
	if text(evs) != "Working on the palette… " {
		t.Fatalf("the streamed text was lost: %q", text(evs))
	}
	if err := a.Turns.Cancel(started.TurnID); err == nil {
		t.Fatal("cancelling a finished turn reported success")
	}
}

func TestThemeWatchEmitsWhenTheAgentWritesTheFile(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "write the theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "a theme event with a valid theme", func() bool {
		for _, ev := range rec.themes {
			if ev.WorkspaceID == started.WorkspaceID && ev.Theme != nil {
				return true
			}
		}
		return false
	})
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	st, err := a.Themes.Theme(started.WorkspaceID)
	if err != nil || st.Theme == nil {
		t.Fatalf("Theme(): %+v %v", st, err)
	}
	dir, err := a.Themes.ExportTheme(started.WorkspaceID, "zed")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) == 0 {
		t.Fatalf("export wrote nothing into %s", dir)
	}
	b, _ := json.Marshal(st)
	if !strings.Contains(string(b), `"checks"`) {
		t.Fatalf("state JSON lacks contrast: %s", b)
	}
}

func TestOpenPathRefusesFilesOutsideTheWorkspace(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	var opened []string
	a.Desktop.openFile = func(p string) error { opened = append(opened, p); return nil }
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Builds.OpenPath(started.WorkspaceID, "/etc/passwd"); err == nil {
		t.Fatal("a file outside the workspace was opened")
	}
	if err := a.Builds.OpenPath(started.WorkspaceID, "AGENTS.md"); err != nil {
		t.Fatal(err)
	}
	if err := a.Builds.OpenPath("../../etc", "passwd"); err == nil {
		t.Fatal("a bogus workspace id was accepted")
	}
	if len(opened) != 1 || filepath.Base(opened[0]) != "AGENTS.md" {
		t.Fatalf("opened %v", opened)
	}
}
