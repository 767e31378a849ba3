package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
)

// The engine's logic against the in-process scripted peer (acpstub): each
// test shows, inline, what the agent sends and answers. Process, pipe and
// signal behaviour stays with the subprocess fake agent (engine_test.go).

// stubEngine is an engine whose agents are dialled from ag.
func stubEngine(t *testing.T, ag *acpstub.Agent, o Options) *Engine {
	t.Helper()
	o.Dial = func(cwd string) (Running, error) { return ag.Dial(cwd) }
	e := NewEngine(o)
	t.Cleanup(func() { e.Close() })
	return e
}

// runStub runs one turn in a fresh folder and returns its events, result
// and agent text.
func runStub(t *testing.T, e *Engine, turn Turn) ([]Event, Result, error) {
	t.Helper()
	if turn.Cwd == "" {
		turn.Cwd = t.TempDir()
	}
	var evs []Event
	res, err := e.Run(context.Background(), turn, func(ev Event) { evs = append(evs, ev) })
	if len(evs) == 0 || (evs[len(evs)-1].Type() != EventDone && evs[len(evs)-1].Type() != EventError) {
		t.Fatalf("the turn did not end with done or error: %v", types(evs))
	}
	return evs, res, err
}

const editCall = `{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit theme.json","kind":"edit","status":"pending"}`
const askOptions = `[{"optionId":"proceed","name":"Allow","kind":"allow_once"},{"optionId":"trust-forever","name":"Always","kind":"allow_always"},{"optionId":"skip","name":"Reject","kind":"reject_once"}]`

// The agent asks before it edits; what the client answers is what the
// user's decider chose, by kind; the agent says what it got.
func TestPermissionAnswers(t *testing.T) {
	tests := []struct {
		name    string
		decider permission.Decider
		want    string
	}{
		{"allow picks allow_once by kind", permission.Policy("allow"), `{"outcome":"selected","optionId":"proceed"}`},
		{"deny picks reject_once by kind", permission.Policy("deny"), `{"outcome":"selected","optionId":"skip"}`},
		{"nil decider denies", nil, `{"outcome":"selected","optionId":"skip"}`},
		{"empty answer is cancelled", permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) { return "", nil }), `{"outcome":"cancelled"}`},
		{"explicit option", permission.DeciderFunc(func(_ context.Context, _ string, p permission.Permission) (string, error) {
			return permission.ChooseByKind(p.Options, acp.KindAllowAlways), nil
		}), `{"outcome":"selected","optionId":"trust-forever"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := acpstub.New()
			ag.OnPrompt(func(turn *acpstub.Turn) string {
				turn.Update(editCall)
				outcome := turn.Ask(`{"toolCallId":"c1"}`, askOptions)
				turn.Say("outcome " + string(outcome))
				return "end_turn"
			})
			evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("make it teal"), Decider: tc.decider})
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(evs, EventText); got != "outcome "+tc.want {
				t.Fatalf("the agent got %q, want %q", got, "outcome "+tc.want)
			}
			p := evs[indexOf(evs, EventPermission)].Payload.(PermissionAsked).Permission
			if len(p.Options) != 3 || p.ToolCall == nil || p.ToolCall.ToolCallID != "c1" {
				t.Fatalf("the page is asked about %+v: not the edit the agent announced", p)
			}
		})
	}
}

// The Rust adapter asks before it announces the tool call: the page still
// gets the request (with what the request says of the call), then the
// announcement, in the order they came.
func TestPermissionBeforeItsToolCall(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		outcome := turn.Ask(`{"toolCallId":"c9","title":"ls","kind":"execute"}`, askOptions)
		turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"c9","title":"ls","kind":"execute","status":"in_progress"}`)
		turn.Say("outcome " + string(outcome))
		return "end_turn"
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("list"), Decider: permission.Policy("allow")})
	if err != nil {
		t.Fatal(err)
	}
	asked, announced := indexOf(evs, EventPermission), indexOf(evs, EventToolCall)
	if asked < 0 || announced < asked {
		t.Fatalf("events %v: the request must come first, as the agent sent it", types(evs))
	}
	if got := texts(evs, EventText); got != `outcome {"outcome":"selected","optionId":"proceed"}` {
		t.Fatalf("the agent got %q", got)
	}
}

// An update of a kind nobody knows goes on raw, and a chunk of a block
// type nobody knows keeps the block as the agent sent it; neither is an
// error, and the turn goes on.
func TestUnknownVariantsPassedOn(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(`{"sessionUpdate":"future_update_kind","payload":{"answer":42},"_meta":{"vendor":"fake"}}`)
		turn.Update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"hologram","data":"AAEC","_meta":{"dimensions":3}}}`)
		turn.Say("Still here.")
		return "end_turn"
	})
	evs, res, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	var raw []string
	for _, ev := range evs {
		switch {
		case ev.Type() == EventUpdate:
			raw = append(raw, string(ev.Payload.(UnknownUpdate).Update))
		case ev.Type() == EventText && ev.Payload.(TextChunk).Content != nil:
			b, _ := json.Marshal(ev.Payload.(TextChunk).Content)
			raw = append(raw, string(b))
		}
		if ev.Type() == EventWarning || ev.Type() == EventError {
			t.Errorf("unexpected %s: %s", ev.Type(), TextOf(ev))
		}
	}
	if len(raw) != 2 || !strings.Contains(raw[0], `"future_update_kind"`) || !strings.Contains(raw[0], `"_meta":{"vendor":"fake"}`) ||
		!strings.Contains(raw[1], `"hologram"`) || !strings.Contains(raw[1], `"dimensions":3`) {
		t.Fatalf("update events = %v", raw)
	}
	if texts(evs, EventText) != "Still here." || res.StopReason != acp.StopEndTurn {
		t.Fatalf("text %q, result %+v", texts(evs, EventText), res)
	}
}

// gemini-cli sends part of session/load's replay after its response: that
// is still the history, never the follow-up's output.
func TestLateReplayIsNotTheNewTurnsOutput(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"GPT-5.4"}]}]}`), nil
	})
	var late []string // the replay's second half, sent just before the next answer
	ag.Handle("session/load", func(c *acpstub.Call) (any, error) {
		c.Update("s-1", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"turn one"}}`)
		late = append(late, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Answer to turn one."}}`)
		return json.RawMessage(`{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"GPT-5.4"}]}]}`), nil
	})
	ag.Handle("session/set_config_option", func(c *acpstub.Call) (any, error) {
		for _, u := range late {
			c.Update("s-1", u)
		}
		late = nil
		return json.RawMessage(`{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.4","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"GPT-5.4"}]}]}`), nil
	})
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Answer to " + turn.Text() + ".")
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("turn one")})
	if err != nil {
		t.Fatal(err)
	}
	// A setting makes a request go out between the load and the prompt.
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: first.SessionID, Model: "gpt-5.4", Prompt: prompt.Text("turn two")})
	if err != nil {
		t.Fatal(err)
	}
	if count(ag.Methods(), "session/load") != 1 || count(ag.Methods(), "session/set_config_option") != 1 {
		t.Fatalf("the follow-up did not load and set the model: %v", ag.Methods())
	}
	if got := texts(evs, EventText); got != "Answer to turn two." {
		t.Fatalf("the follow-up's output is %q: turn one's replay leaked into it", got)
	}
}

// The user answers "always" once: the agent's next request of the same
// kind in the session is answered in Go, without asking, and the page is
// told which call it was (remembered); another session is asked again.
func TestAlwaysIsAnsweredWithoutAsking(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		var outcomes []string
		for _, id := range []string{"call_0", "call_1"} {
			turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"ls","kind":"execute","status":"pending"}`)
			outcomes = append(outcomes, string(turn.Ask(`{"toolCallId":"`+id+`"}`, askOptions)))
		}
		turn.Say(strings.Join(outcomes, " "))
		return "end_turn"
	})
	asked := 0
	d := permission.DeciderFunc(func(_ context.Context, _ string, p permission.Permission) (string, error) {
		asked++
		return permission.ChooseByKind(p.Options, acp.KindAllowAlways), nil
	})
	var always permission.Always
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("list twice"), Decider: d, Always: &always})
	if err != nil {
		t.Fatal(err)
	}
	allowed := `{"outcome":"selected","optionId":"trust-forever"}`
	if asked != 1 || texts(evs, EventText) != allowed+" "+allowed {
		t.Fatalf("asked %d times, the agent got %q; want one question and both allowed always", asked, texts(evs, EventText))
	}
	var got []string
	for _, ev := range evs {
		switch ev.Type() {
		case EventPermission:
			got = append(got, "ask")
		case EventAnswered:
			pa := ev.Payload.(PermissionAnswered)
			if pa.Answer == nil || pa.Answer.Kind != acp.KindAllowAlways || pa.Answer.OptionID != "trust-forever" {
				t.Fatalf("answer event without its answer: %+v", ev)
			}
			if !pa.Answer.Remembered {
				got = append(got, "answered")
				continue
			}
			if pa.Permission == nil || pa.Permission.ToolCall == nil || pa.Permission.ToolCall.ToolCallID != "call_1" {
				t.Fatalf("a remembered answer does not name its tool call: %+v", pa.Permission)
			}
			got = append(got, "remembered")
		}
	}
	if strings.Join(got, ",") != "ask,answered,remembered" {
		t.Fatalf("permission events %v, want ask,answered,remembered", got)
	}
	if id, _ := always.Remembered("another", acp.ToolExecute, []permission.PermissionOption{{OptionID: "x", Kind: acp.KindAllowAlways}}); id != "" {
		t.Fatal("an always answer leaked into another session")
	}
}

// An agent that answers initialize with another protocol version is
// refused before any session: the turn says which versions differ.
func TestOtherProtocolVersionIsRefused(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":2,"agentCapabilities":{}}`), nil
	})
	_, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("hi")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeProtocol || !strings.Contains(ce.Message, "ACP version 2; this app speaks version 1") {
		t.Fatalf("err = %v", err)
	}
	if m := ag.Methods(); count(m, "session/new") != 0 || count(m, "session/prompt") != 0 {
		t.Fatalf("the session went on after the version mismatch: %v", m)
	}
}
