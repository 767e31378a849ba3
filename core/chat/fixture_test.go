package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/toolcall"
)

var update = flag.Bool("update", false, "rewrite the UI's turn fixture from testdata/codex-turn.jsonl")

// uiFixture is the UI's test fixture (frontend/src/test/fixtures): the
// events this package makes of one codex-acp turn, so the UI's tests run
// on what Go really sends.
const uiFixture = "../../frontend/src/test/fixtures/turn-events.json"

// turnEvents maps the agent's messages of testdata/codex-turn.jsonl (the
// codex-acp 2.6.0 wire transcript's ids, tool calls, permission options and
// _meta, plus a plan and an unknown update kind) to events, as a link does.
func turnEvents(t *testing.T) []Event {
	t.Helper()
	f, err := os.Open("testdata/codex-turn.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []Event
	sid := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Method == acp.MethodSessionUpdate || m.Method == acp.MethodRequestPermission:
			// Read as a link reads it: through a Conn, whose reader
			// decodes each update once.
			evs = append(evs, agentEvents(t, sc.Bytes())...)
		case bytes.Contains(m.Result, []byte(`"stopReason"`)):
			var r acp.PromptResponse
			json.Unmarshal(m.Result, &r)
			evs = append(evs, Event{SessionID: sid, Payload: Done{StopReason: r.StopReason}})
		default:
			var r acp.NewSessionResponse
			if err := json.Unmarshal(m.Result, &r); err != nil {
				t.Fatal(err)
			}
			sid = r.SessionID
			evs = append(evs, Event{SessionID: sid, Payload: SessionSetup{Setup: &acp.SessionSetup{ConfigOptions: r.ConfigOptions, Modes: r.Modes}}})
		}
	}
	return evs
}

// agentEvents are the events a link makes of the agent's lines: read by a
// real acp.Conn (its one-pass decoder), mapped by updateEvent and
// permissionOf as onUpdate and onPermission do.
func agentEvents(t *testing.T, lines ...[]byte) []Event {
	t.Helper()
	var in bytes.Buffer
	for _, l := range lines {
		in.Write(l)
		in.WriteByte('\n')
	}
	c := acp.NewConn(&in, io.Discard, acp.Options{})
	var evs []Event
	c.HandleUpdates(func(_ context.Context, n acp.SessionNotification, err error) {
		evs = append(evs, updateEvent(&n, err))
	})
	c.HandleRequest(acp.MethodRequestPermission, func(_ context.Context, id, params json.RawMessage) (any, error) {
		var r acp.RequestPermissionRequest
		if err := json.Unmarshal(params, &r); err != nil {
			t.Errorf("permission request: %v", err)
			return acp.Cancelled(), nil
		}
		evs = append(evs, Event{SessionID: r.SessionID, Payload: PermissionAsked{Permission: permissionOf(string(id), r)}})
		return acp.Cancelled(), nil
	})
	c.Start()
	select {
	case <-c.Dispatched():
	case <-time.After(10 * time.Second):
		t.Fatal("the conn did not dispatch the lines")
	}
	c.Close()
	return evs
}

// Every update of the real codex-acp 2.6.0 wire log (initialize, turns
// with a shell call, an edit, a permission, settings, load, cancel) comes
// out typed: no kind this client knows is passed on raw, and what the UI
// shows of tool calls (command, output, exit) is in the typed fields.
func TestRealWireDecodesIntoTypedEvents(t *testing.T) {
	f, err := os.Open("testdata/acp-codex-acp-2.6.0.transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var rec struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Dir != "agent->client" {
			continue
		}
		var m struct {
			Method string `json:"method"`
		}
		json.Unmarshal(rec.Msg, &m)
		if m.Method == acp.MethodSessionUpdate || m.Method == acp.MethodRequestPermission {
			lines = append(lines, rec.Msg)
		}
	}
	evs := agentEvents(t, lines...)
	if len(evs) != len(lines) {
		t.Fatalf("%d lines gave %d events", len(lines), len(evs))
	}
	count := map[string]int{}
	var text strings.Builder
	var output, commands, exits int
	tool := func(ev Event, tc *acp.ToolCall, command string, tm *toolcall.Terminal) {
		if tc == nil || tc.ToolCallID == "" {
			t.Errorf("tool call event not typed: %+v", ev)
		}
		if command != "" {
			commands++
		}
		if tm != nil {
			if tm.Output != nil || tm.Append != "" {
				output++
			}
			if tm.Exited {
				exits++
			}
		}
	}
	for _, ev := range evs {
		count[ev.Type()]++
		switch p := ev.Payload.(type) {
		case UnknownUpdate:
			t.Errorf("a known update came raw: %s", p.Update)
		case TextChunk:
			text.WriteString(p.Text)
		case ToolCallStarted:
			tool(ev, p.ToolCall, p.Command, p.Terminal)
		case ToolCallUpdated:
			tool(ev, p.ToolCall, p.Command, p.Terminal)
		case UsageUpdate:
			if p.Usage == nil || p.Usage.Size == 0 {
				t.Errorf("usage not typed: %+v", ev)
			}
		case ConfigOptionsUpdate:
			if len(p.ConfigOptions) == 0 {
				t.Errorf("config_option_update without its options: %+v", ev)
			}
		case CommandsUpdate:
			if len(p.Commands) == 0 || p.Commands[0].Name == "" {
				t.Errorf("commands not typed: %+v", ev)
			}
		case PermissionAsked:
			if p.Permission.ToolCall == nil || len(p.Permission.Options) == 0 {
				t.Errorf("permission not typed: %+v", p.Permission)
			}
		}
	}
	for _, typ := range []string{EventText, EventToolCall, EventToolCallUpdate, EventUsage, EventConfigOptions, EventCommands, EventSessionInfo, EventPermission, EventUserText} {
		if count[typ] == 0 {
			t.Errorf("no %s event from the real wire (got %v)", typ, count)
		}
	}
	t.Logf("events by type %v; %d tool calls with a command, %d with output, %d exits", count, commands, output, exits)
	if text.Len() == 0 || commands == 0 || output == 0 || exits == 0 {
		t.Errorf("text %d bytes, %d tool calls with a command, %d with output, %d exits: want all", text.Len(), commands, output, exits)
	}
}

func TestUIFixtureIsWhatThisPackageSends(t *testing.T) {
	evs := turnEvents(t)
	var b bytes.Buffer
	b.WriteString("{\n  \"_comment\": \"Written by `go test ./core/chat -run TestUIFixture -update` from core/chat/testdata/codex-turn.jsonl: the events core/chat makes of one codex-acp 2.6.0 turn (plus a plan and an unknown update kind).\",\n  \"turnId\": \"t-1\",\n  \"events\": [\n")
	for i, ev := range evs {
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("    ")
		b.Write(line)
		if i < len(evs)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	if *update {
		if err := os.WriteFile(uiFixture, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(uiFixture)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Fatalf("%s is stale: run go test ./core/chat -run TestUIFixture -update", uiFixture)
	}
}

// Every event survives JSON as it crosses to the UI and, through
// cdxtheme serve, to another process.
func TestEventsRoundTripThroughJSON(t *testing.T) {
	for _, ev := range turnEvents(t) {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, _ := json.Marshal(back)
		if !bytes.Equal(b, b2) {
			t.Errorf("changed on the way:\n %s\n %s", b, b2)
		}
	}
}
