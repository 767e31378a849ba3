package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"cdxtheme/core/acp"
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
		case m.Method == acp.MethodSessionUpdate:
			var n acp.SessionNotification
			err := json.Unmarshal(m.Params, &n)
			evs = append(evs, updateEvent(&n, err))
		case m.Method == acp.MethodRequestPermission:
			var r acp.RequestPermissionRequest
			if err := json.Unmarshal(m.Params, &r); err != nil {
				t.Fatal(err)
			}
			evs = append(evs, Event{Type: EventPermission, SessionID: r.SessionID, Permission: permissionOf(string(m.ID), r)})
		case bytes.Contains(m.Result, []byte(`"stopReason"`)):
			var r acp.PromptResponse
			json.Unmarshal(m.Result, &r)
			evs = append(evs, Event{Type: EventDone, SessionID: sid, StopReason: r.StopReason})
		default:
			var r acp.NewSessionResponse
			if err := json.Unmarshal(m.Result, &r); err != nil {
				t.Fatal(err)
			}
			sid = r.SessionID
			evs = append(evs, Event{Type: EventSession, SessionID: sid, Setup: &acp.SessionSetup{ConfigOptions: r.ConfigOptions, Modes: r.Modes}})
		}
	}
	return evs
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
