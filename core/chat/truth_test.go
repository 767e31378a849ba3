package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"
)

// currentValues reads id → currentValue from the configOptions of an event
// as the UI receives it (a session setup or a config_option_update).
func currentValues(t *testing.T, ev Event) map[string]any {
	t.Helper()
	type options struct {
		ConfigOptions []struct {
			ID           string `json:"id"`
			CurrentValue any    `json:"currentValue"`
		} `json:"configOptions"`
		Modes *struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	var w struct {
		options
		Setup *options `json:"setup"`
	}
	b, err := json.Marshal(ev)
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	if err != nil {
		t.Fatalf("%s event: %v", ev.Type(), err)
	}
	u := w.options
	if w.Setup != nil {
		u = *w.Setup
	}
	out := map[string]any{}
	for _, o := range u.ConfigOptions {
		out[o.ID] = o.CurrentValue
	}
	if u.Modes != nil {
		out["modes.current"] = u.Modes.CurrentModeID
	}
	return out
}

// lastOptions is what the UI would hold after evs: the configOptions of the
// last session or config_options event.
func lastOptions(t *testing.T, evs []Event) map[string]any {
	t.Helper()
	var got map[string]any
	for _, ev := range evs {
		if ev.Type() == EventSession || ev.Type() == EventConfigOptions {
			got = currentValues(t, ev)
		}
	}
	if got == nil {
		t.Fatal("no session or config_options event")
	}
	return got
}

// The defect behind "the panel flips back to Auto review / Medium": a warm
// follow-up re-sent the session/new result of the first turn. Every
// session event must carry what the agent holds now.
func TestWarmFollowUpReportsTheSettingsTheAgentHolds(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	ctx := context.Background()
	evs, res, err := h.run(ctx, Turn{Mode: "agent-full-access", Effort: "high", Prompt: TextPrompt("#settings")})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Running with mode=agent-full-access, model=gpt-5.5, reasoning_effort=high."; res.Text != want {
		t.Fatalf("agent holds %q", res.Text)
	}
	first := lastOptions(t, evs)
	if first["mode"] != "agent-full-access" || first["reasoning_effort"] != "high" || first["modes.current"] != "agent-full-access" {
		t.Fatalf("after the first turn the UI would show %v", first)
	}
	if _, err := h.e.SetOption(ctx, res.SessionID, "model", "gpt-5.4"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		evs, res, err = h.run(ctx, Turn{SessionID: res.SessionID, Prompt: TextPrompt("#settings")})
		if err != nil {
			t.Fatal(err)
		}
		if want := "Running with mode=agent-full-access, model=gpt-5.4, reasoning_effort=high."; res.Text != want {
			t.Fatalf("follow-up %d: agent holds %q", i+1, res.Text)
		}
		for _, ev := range evs {
			if ev.Type() != EventSession {
				continue
			}
			if got := currentValues(t, ev); got["mode"] != "agent-full-access" || got["model"] != "gpt-5.4" || got["reasoning_effort"] != "high" || got["modes.current"] != "agent-full-access" {
				t.Fatalf("follow-up %d: a session event shows %v while the agent runs %q", i+1, got, res.Text)
			}
		}
	}
	if n := len(h.spawned()); n != 1 {
		t.Fatalf("spawned %d agents, want the warm one", n)
	}
}

// A new process forgets the settings (codex-acp does); the turn's values
// are applied again after resume and the last event shows them, not the
// defaults the resume answered with.
func TestResumeReappliesAndReportsTheResult(t *testing.T) {
	h := newHarness(t, hopts{})
	ctx := context.Background()
	_, res, err := h.run(ctx, Turn{Mode: "read-only", Prompt: TextPrompt("hi")})
	if err != nil {
		t.Fatal(err)
	}
	evs, res, err := h.run(ctx, Turn{SessionID: res.SessionID, Options: map[string]any{"mode": "read-only", "reasoning_effort": "low"}, Prompt: TextPrompt("#settings")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "mode=read-only") || !strings.Contains(res.Text, "reasoning_effort=low") {
		t.Fatalf("agent holds %q", res.Text)
	}
	if got := lastOptions(t, evs); got["mode"] != "read-only" || got["reasoning_effort"] != "low" {
		t.Fatalf("the UI would show %v", got)
	}
	// Mode before effort: the order settings decide each other in.
	if got := strings.Join(h.configCalls()[1:], " "); got != `mode="read-only" reasoning_effort="low"` {
		t.Fatalf("calls after resume = %s", got)
	}
}

// A refused value is reported with the agent's reason and what it still
// runs; the options afterwards hold the old value.
func TestRefusedOptionIsReportedWithTheAgentsReason(t *testing.T) {
	h := newHarness(t, hopts{})
	evs, res, err := h.run(context.Background(), Turn{Options: map[string]any{"model": "gpt-5-pro", "reasoning_effort": "high"}, Prompt: TextPrompt("#settings")})
	if err != nil {
		t.Fatal(err)
	}
	var ref *Event
	for i := range evs {
		if evs[i].Type() == EventRefused {
			ref = &evs[i]
		}
	}
	if ref == nil || ref.Payload.(OptionRefused).Refused.ConfigID != "model" || ref.Payload.(OptionRefused).Refused.Value != "gpt-5-pro" || ref.Payload.(OptionRefused).Refused.Current != "gpt-5.5" ||
		!strings.Contains(ref.Payload.(OptionRefused).Text, "not available for this account") {
		t.Fatalf("refusal = %+v", ref)
	}
	if got := lastOptions(t, evs); got["model"] != "gpt-5.5" || got["reasoning_effort"] != "high" {
		t.Fatalf("the UI would show %v; agent holds %q", got, res.Text)
	}
}

// Open makes a saved session live before the first message: the settings
// as the agent holds them, the replayed history marked as such, then ready;
// the next turn reuses the connection.
func TestOpenShowsLiveSettingsAndTheReplayedHistory(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	ctx := context.Background()
	_, res, err := h.run(ctx, Turn{Prompt: TextPrompt("make it blue")})
	if err != nil {
		t.Fatal(err)
	}
	h.e.Close() // as after an app restart

	var evs []Event
	_, err = h.e.Open(ctx, Turn{SessionID: res.SessionID, Cwd: h.cwd, History: true, Options: map[string]any{"mode": "read-only"}},
		func(ev Event) { evs = append(evs, ev) })
	if err != nil {
		t.Fatal(err)
	}
	if last := evs[len(evs)-1]; last.Type() != EventReady || last.SessionID != res.SessionID {
		t.Fatalf("last event %+v, want ready", last)
	}
	var replayed []string
	for _, ev := range evs {
		if ev.Replay {
			replayed = append(replayed, ev.Type()+":"+strings.TrimSpace(TextOf(ev)))
		} else if ev.Type() == EventText || ev.Type() == EventUserText {
			t.Fatalf("history not marked as replay: %+v", ev)
		}
	}
	if got := strings.Join(replayed, "|"); got != "user_text:make it blue|text:You said: make it blue\nHello from the fake agent." {
		t.Fatalf("replay = %q", got)
	}
	if got := lastOptions(t, evs); got["mode"] != "read-only" {
		t.Fatalf("after open the UI would show %v", got)
	}
	if m := h.methods(); count(m, "session/load") != 1 || count(m, "session/resume") != 0 || count(m, "session/prompt") != 1 {
		t.Fatalf("methods = %v", m)
	}

	evs, res2, err := h.run(ctx, Turn{SessionID: res.SessionID, Options: map[string]any{"mode": "read-only"}, Prompt: TextPrompt("#settings")})
	if err != nil || !strings.Contains(res2.Text, "mode=read-only") {
		t.Fatalf("%v %q", err, res2.Text)
	}
	for _, ev := range evs {
		if ev.Replay {
			t.Fatalf("the turn after open replayed history: %+v", ev)
		}
	}
	if n := len(h.spawned()); n != 2 {
		t.Fatalf("spawned %d agents, want 2 (first turn, open)", n)
	}
	if _, err := h.e.Open(ctx, Turn{Cwd: h.cwd}, nil); err == nil {
		t.Fatal("Open without a session id succeeded")
	}
}

// Without History, session/load's replay stays out of the events (the
// caller has the history elsewhere) and resume is preferred.
func TestReplayDroppedWithoutHistory(t *testing.T) {
	h := newHarness(t, hopts{})
	ctx := context.Background()
	_, res, err := h.run(ctx, Turn{Prompt: TextPrompt("make it blue")})
	if err != nil {
		t.Fatal(err)
	}
	evs, _, err := h.run(ctx, Turn{SessionID: res.SessionID, Prompt: TextPrompt("again")})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Replay || ev.Type() == EventUserText {
			t.Fatalf("replayed: %+v", ev)
		}
	}
	if m := h.methods(); count(m, "session/resume") != 1 {
		t.Fatalf("methods = %v", m)
	}
}

// The agent's retry notices become status events; when the turn then
// times out, the error says the model server was unreachable.
func TestRetryNoticesAndTheModelServerError(t *testing.T) {
	h := newHarness(t, hopts{env: []string{"FAKE_AGENT_RETRIES=2", "FAKE_AGENT_RETRY_MS=20"}})
	evs, _, err := h.run(context.Background(), Turn{Prompt: TextPrompt("#retry")})
	if err != nil {
		t.Fatal(err)
	}
	var sts []*Status
	for _, ev := range evs {
		if ev.Type() == EventStatus {
			sts = append(sts, ev.Payload.(StatusNotice).Status)
		}
	}
	if len(sts) != 2 || sts[1].Message != "Reconnecting... waiting for network" || sts[1].Details != "Connection failed: error sending request" ||
		!sts[1].Retrying || sts[1].Code != "responseStreamDisconnected" {
		t.Fatalf("status events %+v", sts)
	}

	// The limit must outlast the agent's start, so that retry notices come
	// before it: as hangLimit, longer where a start is slow (Windows).
	limit := hangLimit + 500*time.Millisecond
	h = newHarness(t, hopts{timeout: limit, env: []string{"FAKE_AGENT_RETRIES=100", "FAKE_AGENT_RETRY_MS=200"}})
	evs, _, err = h.run(context.Background(), Turn{Prompt: TextPrompt("#retry")})
	ce, ok := err.(*Error)
	if !ok || ce.Code != CodeModelServer || !strings.Contains(ce.Message, "could not reach its model server: Reconnecting... waiting for network (Connection failed: error sending request)") ||
		!strings.Contains(ce.Message, "time limit of "+limit.String()) {
		t.Fatalf("err = %v", err)
	}
	if last := evs[len(evs)-1]; last.Type() != EventError || last.Payload.(ErrorEvent).Code != CodeModelServer || last.Payload.(ErrorEvent).Status == nil {
		t.Fatalf("last event %+v", last)
	}
}

// A turn that timed out without any such notice stays a plain timeout.
func TestSilentTimeoutIsNotBlamedOnTheModelServer(t *testing.T) {
	h := newHarness(t, hopts{timeout: 800 * time.Millisecond, env: []string{"FAKE_AGENT_STALL_MS=60000"}})
	_, _, err := h.run(context.Background(), Turn{Prompt: TextPrompt("#stall")})
	if ce, ok := err.(*Error); !ok || ce.Code != CodeTimeout {
		t.Fatalf("err = %v", err)
	}
}

// codex-acp words a model server that failed for good (HTTP 500, gone
// after its retries) as plain text with no messageId and ends the turn
// normally. The turn is a model_server error carrying those words, not an
// answer: the text is not streamed as the assistant's.
func TestModelServerFailureWordedAsTextIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name     string
		retries  string
		as       string // FAKE_AGENT_SERVER_ERROR_AS
		wantCode string // the status code the error keeps
	}{
		{"HTTP 500 at once", "0", "", ""},
		{"server gone after retries", "2", "", "responseStreamDisconnected"},
		{"a last notice and no answer", "1", "notice", "responseTooManyFailedAttempts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_SERVER_RETRIES=" + tc.retries, "FAKE_AGENT_RETRY_MS=5", "FAKE_AGENT_SERVER_ERROR_AS=" + tc.as}})
			evs, res, err := h.run(context.Background(), Turn{Prompt: TextPrompt("make it teal #server-error")})
			ce, ok := errors.AsType[*Error](err)
			if !ok || ce.Code != CodeModelServer || !strings.Contains(ce.Message, "unexpected status 500 Internal Server Error") {
				t.Fatalf("err = %v, want a model_server error with the agent's words", err)
			}
			if res.Text != "" {
				t.Errorf("the failure was streamed as the answer: %q", res.Text)
			}
			last := evs[len(evs)-1]
			if last.Type() != EventError || last.Payload.(ErrorEvent).Code != CodeModelServer || last.Payload.(ErrorEvent).Status == nil ||
				!strings.HasPrefix(last.Payload.(ErrorEvent).Status.Message, "unexpected status 500") || last.Payload.(ErrorEvent).Status.Code != tc.wantCode || last.SessionID == "" {
				t.Fatalf("last event %+v (status %+v)", last, last.Payload.(ErrorEvent).Status)
			}
			// The agent is fine, only its model server is not: a retry
			// goes out on the same warm connection.
			if _, _, err := h.run(context.Background(), Turn{SessionID: res.SessionID, Prompt: TextPrompt("make it teal")}); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if len(h.spawned()) != 1 {
				t.Errorf("%d agents started, want the warm one reused", len(h.spawned()))
			}
		})
	}
}

// A chunk held as a possible failure notice is the answer's own text when
// more of the answer follows, and it keeps its place.
func TestHeldNoticeIsReleasedByMoreOfTheAnswer(t *testing.T) {
	var got []Event
	ts := &turnState{emitFn: func(ev Event) { got = append(got, ev) }}
	notice := TextChunk{Text: "Request timed out. Let me try a smaller palette.\n\n"}
	if !ts.hold(&acp.SessionUpdate{Kind: acp.UpdateAgentMessageChunk}, Event{Payload: notice}, notice.Text) {
		t.Fatal("not held")
	}
	ts.emit(Event{Payload: UsageUpdate{}})
	ts.emit(Event{Payload: TextChunk{Text: "Here it is."}})
	if len(got) != 3 || got[0].Type() != EventUsage || TextOf(got[1]) != notice.Text || TextOf(got[2]) != "Here it is." || ts.takeHeld() != nil {
		t.Fatalf("events %+v", got)
	}
	// The model's own text (a messageId) is never held.
	if ts.hold(&acp.SessionUpdate{Kind: acp.UpdateAgentMessageChunk, MessageID: "msg_1"}, Event{Payload: TextChunk{Text: "unexpected status 500: quoted\n\n"}}, "unexpected status 500: quoted\n\n") {
		t.Error("the model's text was held")
	}
}
