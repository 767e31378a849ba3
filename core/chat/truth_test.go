package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
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

// codexSettings are codex-acp's options: the approval preset (mode: auto
// current), the model (gpt-5.5 current; gpt-5-pro offered) and the
// reasoning effort (medium current).
const codexSettings = `[` +
	`{"id":"mode","name":"Approval preset","category":"mode","type":"select","currentValue":"auto","options":[{"value":"read-only","name":"Read Only"},{"value":"auto","name":"Auto"},{"value":"agent-full-access","name":"Full Access"}]},` +
	`{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"gpt-5.4"},{"value":"gpt-5-pro","name":"GPT-5 Pro"}]},` +
	`{"id":"reasoning_effort","name":"Reasoning effort","category":"thought_level","type":"select","currentValue":"medium","options":[{"value":"low","name":"Low"},{"value":"medium","name":"Medium"},{"value":"high","name":"High"}]}]`

// runningWith is an agent turn that says what the agent runs with.
func runningWith(turn *acpstub.Turn) string {
	turn.Say("Running with " + turn.Settings() + ".")
	return "end_turn"
}

// The defect behind "the panel flips back to Auto review / Medium": a warm
// follow-up re-sent the session/new result of the first turn. Every
// session event must carry what the agent holds now.
func TestWarmFollowUpReportsTheSettingsTheAgentHolds(t *testing.T) {
	ag := acpstub.New()
	ag.HoldSettings(codexSettings, nil)
	ag.OnPrompt(runningWith)
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	ctx := context.Background()
	evs, res, err := runStub(t, e, Turn{Cwd: cwd, Mode: "agent-full-access", Effort: "high", Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := texts(evs, EventText), "Running with mode=agent-full-access, model=gpt-5.5, reasoning_effort=high."; got != want {
		t.Fatalf("agent holds %q", got)
	}
	first := lastOptions(t, evs)
	if first["mode"] != "agent-full-access" || first["reasoning_effort"] != "high" || first["modes.current"] != "agent-full-access" {
		t.Fatalf("after the first turn the UI would show %v", first)
	}
	if _, err := e.SetOption(ctx, res.SessionID, "model", "gpt-5.4"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		evs, res, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("again")})
		if err != nil {
			t.Fatal(err)
		}
		text := texts(evs, EventText)
		if want := "Running with mode=agent-full-access, model=gpt-5.4, reasoning_effort=high."; text != want {
			t.Fatalf("follow-up %d: agent holds %q", i+1, text)
		}
		for _, ev := range evs {
			if ev.Type() != EventSession {
				continue
			}
			if got := currentValues(t, ev); got["mode"] != "agent-full-access" || got["model"] != "gpt-5.4" || got["reasoning_effort"] != "high" || got["modes.current"] != "agent-full-access" {
				t.Fatalf("follow-up %d: a session event shows %v while the agent runs %q", i+1, got, text)
			}
		}
	}
	if n := ag.Started(); n != 1 {
		t.Fatalf("started %d agents, want the warm one", n)
	}
}

// A new process forgets the settings (codex-acp does); the turn's values
// are applied again after resume and the last event shows them, not the
// defaults the resume answered with.
func TestResumeReappliesAndReportsTheResult(t *testing.T) {
	ag := acpstub.New()
	ag.HoldSettings(codexSettings, nil) // a new connection answers the defaults
	ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
	ag.OnPrompt(runningWith)
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Mode: "read-only", Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	evs, res, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Options: map[string]any{"mode": "read-only", "reasoning_effort": "low"}, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	if text := texts(evs, EventText); !strings.Contains(text, "mode=read-only") || !strings.Contains(text, "reasoning_effort=low") {
		t.Fatalf("agent holds %q", text)
	}
	if got := lastOptions(t, evs); got["mode"] != "read-only" || got["reasoning_effort"] != "low" {
		t.Fatalf("the UI would show %v", got)
	}
	// Mode before effort: the order settings decide each other in.
	if got := strings.Join(setCalls(ag)[1:], " "); got != `mode="read-only" reasoning_effort="low"` || count(ag.Methods(), "session/resume") != 1 {
		t.Fatalf("calls after resume = %s (%v)", got, ag.Methods())
	}
}

// A refused value is reported with the agent's reason and what it still
// runs; the options afterwards hold the old value.
func TestRefusedOptionIsReportedWithTheAgentsReason(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) { return json.RawMessage(offered), nil })
	ag.Handle("session/set_config_option", func(c *acpstub.Call) (any, error) {
		if strings.Contains(string(c.Params), `"gpt-5-pro"`) {
			return nil, &acpstub.Error{Code: -32602, Message: "model gpt-5-pro is not available for this account"}
		}
		// The effort is taken: the agent answers with what it holds now.
		held := strings.Replace(offered, `"currentValue":"medium"`, `"currentValue":"high"`, 1)
		return json.RawMessage("{" + held[strings.Index(held, `"configOptions"`):]), nil
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Options: map[string]any{"model": "gpt-5-pro", "reasoning_effort": "high"}, Prompt: prompt.Text("hi")})
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
		t.Fatalf("the UI would show %v", got)
	}
}

// Open makes a saved session live before the first message: the settings
// as the agent holds them, the replayed history marked as such, then ready;
// the next turn reuses the connection.
func TestOpenShowsLiveSettingsAndTheReplayedHistory(t *testing.T) {
	ag := acpstub.New()
	ag.HoldSettings(codexSettings, nil)
	ag.OnLoad(func(c *acpstub.Call) {
		c.Update(c.SessionID(), `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"make it blue"}}`)
		c.Update(c.SessionID(), `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Made it blue."}}`)
	})
	ag.OnPrompt(runningWith)
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	ctx := context.Background()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("make it blue")})
	if err != nil {
		t.Fatal(err)
	}
	e.Close() // as after an app restart

	var evs []Event
	_, err = e.Open(ctx, Turn{SessionID: res.SessionID, Cwd: cwd, History: true, Options: map[string]any{"mode": "read-only"}},
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
	if got := strings.Join(replayed, "|"); got != "user_text:make it blue|text:Made it blue." {
		t.Fatalf("replay = %q", got)
	}
	if got := lastOptions(t, evs); got["mode"] != "read-only" {
		t.Fatalf("after open the UI would show %v", got)
	}
	if m := ag.Methods(); count(m, "session/load") != 1 || count(m, "session/resume") != 0 || count(m, "session/prompt") != 1 {
		t.Fatalf("methods = %v", m)
	}

	evs, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Options: map[string]any{"mode": "read-only"}, Prompt: prompt.Text("again")})
	if err != nil || !strings.Contains(texts(evs, EventText), "mode=read-only") {
		t.Fatalf("%v %q", err, texts(evs, EventText))
	}
	for _, ev := range evs {
		if ev.Replay {
			t.Fatalf("the turn after open replayed history: %+v", ev)
		}
	}
	if n := ag.Started(); n != 2 {
		t.Fatalf("started %d agents, want 2 (first turn, open)", n)
	}
	if _, err := e.Open(ctx, Turn{Cwd: cwd}, nil); err == nil {
		t.Fatal("Open without a session id succeeded")
	}
}

// Without History, session/load's replay stays out of the events (the
// caller has the history elsewhere) and resume is preferred.
// A follow-up on a new connection resumes the session when the agent can:
// session/load would replay the history, which the page already shows.
func TestReplayDroppedWithoutHistory(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}`), nil
	})
	ag.Handle("session/load", func(c *acpstub.Call) (any, error) {
		c.Update("s-1", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"make it blue"}}`)
		c.Update("s-1", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Blue it is."}}`)
		return struct{}{}, nil
	})
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("You said: " + turn.Text())
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("make it blue")})
	if err != nil {
		t.Fatal(err)
	}
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Replay || ev.Type() == EventUserText {
			t.Fatalf("replayed: %+v", ev)
		}
	}
	if got := texts(evs, EventText); got != "You said: again" {
		t.Fatalf("the follow-up's output is %q", got)
	}
	if m := ag.Methods(); count(m, "session/resume") != 1 || ag.Started() != 2 {
		t.Fatalf("methods = %v, %d connections", m, ag.Started())
	}
}

// An agent may replay the history on session/resume too (ACP's draft
// replayFrom, proxies that build load on resume): its user_message_chunk
// and agent text are the saved conversation, never a message the user just
// typed nor this turn's answer. With History they are passed on marked
// Replay; without it they are dropped.
func TestResumeThatReplaysIsHistoryNotLiveText(t *testing.T) {
	for _, history := range []bool{false, true} {
		t.Run(map[bool]string{false: "without history", true: "with history"}[history], func(t *testing.T) {
			ag := acpstub.New()
			// Resume only: Open with History has no session/load to prefer.
			ag.Handle("initialize", func(*acpstub.Call) (any, error) {
				return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"resume":{}}}}`), nil
			})
			ag.Handle("session/resume", func(c *acpstub.Call) (any, error) {
				c.Update("s-1", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"make it blue"}}`)
				c.Update("s-1", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Blue it is."}}`)
				return struct{}{}, nil
			})
			ag.OnPrompt(echo)
			e := stubEngine(t, ag, Options{})
			cwd := t.TempDir()
			_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("make it blue")})
			if err != nil {
				t.Fatal(err)
			}
			evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, History: history, Prompt: prompt.Text("again")})
			if err != nil {
				t.Fatal(err)
			}
			var replayed []string
			var answer strings.Builder
			for _, ev := range evs {
				switch {
				case ev.Replay:
					replayed = append(replayed, ev.Type()+":"+TextOf(ev))
				case ev.Type() == EventUserText:
					t.Fatalf("the replayed user message came as live text: %+v", ev)
				case ev.Type() == EventText:
					answer.WriteString(TextOf(ev))
				}
			}
			want := ""
			if history {
				want = "user_text:make it blue|text:Blue it is."
			}
			if got := strings.Join(replayed, "|"); got != want {
				t.Fatalf("replay = %q, want %q", got, want)
			}
			if got := answer.String(); got != "You said: again" {
				t.Fatalf("the turn's answer is %q", got)
			}
			if m := ag.Methods(); count(m, "session/resume") != 1 {
				t.Fatalf("methods = %v", m)
			}
		})
	}
}

// codexRetry is the notice codex-acp 2.6.0 sends, as a session_info_update,
// each time it lost its model server and tries again (seen on the real
// wire with the model server refusing connections).
const codexRetry = `{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Reconnecting... waiting for network","codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":null}},"additionalDetails":"Connection failed: error sending request","misalignment":null,"willRetry":true}}}}`

// The agent's retry notices become status events; when the turn then
// times out, the error says the model server was unreachable.
func TestRetryNoticesAndTheModelServerError(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(codexRetry)
		turn.Update(codexRetry)
		turn.Say("Back online. You said: " + turn.Text())
		return "end_turn"
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("hi")})
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
	if texts(evs, EventText) != "Back online. You said: hi" {
		t.Fatalf("the answer after the notices is %q", texts(evs, EventText))
	}

	// Still retrying when the time limit comes: the agent stops when asked.
	ag = acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(codexRetry)
		<-turn.Cancelled()
		return "cancelled"
	})
	evs, _, err = runStub(t, stubEngine(t, ag, Options{Timeout: time.Second}), Turn{Prompt: prompt.Text("hi")})
	ce, ok := err.(*Error)
	if !ok || ce.Code != CodeModelServer || !strings.Contains(ce.Message, "could not reach its model server: Reconnecting... waiting for network (Connection failed: error sending request)") ||
		!strings.Contains(ce.Message, "time limit of 1s") {
		t.Fatalf("err = %v", err)
	}
	if last := evs[len(evs)-1]; last.Type() != EventError || last.Payload.(ErrorEvent).Code != CodeModelServer || last.Payload.(ErrorEvent).Status == nil {
		t.Fatalf("last event %+v", last)
	}
}

// A turn that timed out without any such notice stays a plain timeout.
func TestSilentTimeoutIsNotBlamedOnTheModelServer(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		<-turn.Cancelled() // says nothing until it is asked to stop
		return "cancelled"
	})
	_, _, err := runStub(t, stubEngine(t, ag, Options{Timeout: 800 * time.Millisecond}), Turn{Prompt: prompt.Text("hi")})
	if ce, ok := err.(*Error); !ok || ce.Code != CodeTimeout {
		t.Fatalf("err = %v", err)
	}
}

// codex-acp words a model server that failed for good (HTTP 500, gone
// after its retries) as plain text with no messageId and ends the turn
// normally. The turn is a model_server error carrying those words, not an
// answer: the text is not streamed as the assistant's.
func TestModelServerFailureWordedAsTextIsAnError(t *testing.T) {
	// What Codex says when its model server answered 500 (codex-rs
	// CodexErr::UnexpectedStatus).
	const failure = "unexpected status 500 Internal Server Error: the model server failed"
	asText := `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + failure + `\n\n"}}`
	// codex-acp's last notice when it cannot tie the failure to the turn.
	asNotice := `{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"` + failure + `","codexErrorInfo":{"responseTooManyFailedAttempts":{"httpStatusCode":500}},"willRetry":false}}}}`
	for _, tc := range []struct {
		name     string
		updates  []string
		wantCode string // the status code the error keeps
	}{
		{"HTTP 500 at once", []string{asText}, ""},
		{"server gone after retries", []string{codexRetry, codexRetry, asText}, "responseStreamDisconnected"},
		{"a last notice and no answer", []string{codexRetry, asNotice}, "responseTooManyFailedAttempts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ag := acpstub.New()
			var failing atomic.Bool
			failing.Store(true)
			ag.OnPrompt(func(turn *acpstub.Turn) string {
				if !failing.Load() {
					turn.Say("Teal it is.")
					return "end_turn"
				}
				for _, u := range tc.updates {
					turn.Update(u)
				}
				return "end_turn"
			})
			e := stubEngine(t, ag, Options{Warm: true})
			cwd := t.TempDir()
			evs, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("make it teal")})
			ce, ok := errors.AsType[*Error](err)
			if !ok || ce.Code != CodeModelServer || !strings.Contains(ce.Message, "unexpected status 500 Internal Server Error") {
				t.Fatalf("err = %v, want a model_server error with the agent's words", err)
			}
			if got := texts(evs, EventText); got != "" {
				t.Errorf("the failure was streamed as the answer: %q", got)
			}
			last := evs[len(evs)-1]
			if last.Type() != EventError || last.Payload.(ErrorEvent).Code != CodeModelServer || last.Payload.(ErrorEvent).Status == nil ||
				!strings.HasPrefix(last.Payload.(ErrorEvent).Status.Message, "unexpected status 500") || last.Payload.(ErrorEvent).Status.Code != tc.wantCode || last.SessionID == "" {
				t.Fatalf("last event %+v (status %+v)", last, last.Payload.(ErrorEvent).Status)
			}
			// The agent is fine, only its model server is not: a retry
			// goes out on the same warm connection.
			failing.Store(false)
			evs, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("make it teal")})
			if err != nil || texts(evs, EventText) != "Teal it is." {
				t.Fatalf("retry: %v, text %q", err, texts(evs, EventText))
			}
			if ag.Started() != 1 {
				t.Errorf("%d agents started, want the warm one reused", ag.Started())
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
