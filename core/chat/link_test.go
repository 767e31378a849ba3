package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/permission"

	"github.com/rs/zerolog"
)

// pipeMsg is what a pipeAgent is sent, one line at a time.
type pipeMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// pipeAgent is an agent on io.Pipe: answer gets each line it is sent, on
// the agent's own goroutine, and returns the lines to send back.
func pipeAgent(t *testing.T, answer func(m pipeMsg) []string) *acp.Conn {
	t.Helper()
	fromAgent, agentOut := io.Pipe()
	agentIn, toAgent := io.Pipe()
	conn := acp.NewConn(fromAgent, toAgent, acp.Options{Log: zerolog.Nop()})
	done := make(chan struct{})
	go func() {
		defer close(done)
		br := bufio.NewReader(agentIn)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			var m pipeMsg
			json.Unmarshal(line, &m)
			for _, out := range answer(m) {
				io.WriteString(agentOut, out+"\n")
			}
		}
	}()
	t.Cleanup(func() {
		conn.Close()
		agentOut.Close()
		toAgent.Close()
		<-done
	})
	return conn
}

// scriptedAgent answers over io.Pipe like an agent whose capabilities the
// fake agent cannot take on (no resume, no load). It replays history on
// session/load before answering, as the real adapters do.
func scriptedAgent(t *testing.T, resumeErr *acp.RPCError) (*acp.Conn, *[]string) {
	t.Helper()
	var methods []string
	conn := pipeAgent(t, func(m pipeMsg) []string {
		methods = append(methods, m.Method)
		switch m.Method {
		case acp.MethodSessionLoad:
			return []string{
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"old question"}}}}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"old answer"}}}}`,
				`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"a","options":[{"value":"a","name":"A"}]}]}}`,
			}
		case acp.MethodSessionResume:
			if resumeErr != nil {
				b, _ := json.Marshal(resumeErr)
				return []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":` + string(b) + `}`}
			}
			return []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`}
		}
		return nil
	})
	return conn, &methods
}

func TestOpenSessionFollowUp(t *testing.T) {
	tests := []struct {
		name        string
		caps        acp.AgentCapabilities
		resumeErr   *acp.RPCError
		wantMethods string
		wantErr     string
	}{
		{"resume when advertised", acp.AgentCapabilities{LoadSession: true, SessionCapabilities: acp.SessionCapabilities{Resume: &acp.Capability{}}}, nil, "session/resume", ""},
		{"load without resume, replay not emitted", acp.AgentCapabilities{LoadSession: true}, nil, "session/load", ""},
		{"resume refused falls back to load", acp.AgentCapabilities{LoadSession: true, SessionCapabilities: acp.SessionCapabilities{Resume: &acp.Capability{}}},
			&acp.RPCError{Code: acp.CodeResourceNotFound, Message: "not found"}, "session/resume,session/load", ""},
		{"neither", acp.AgentCapabilities{}, nil, "", "neither resume nor load"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, methods := scriptedAgent(t, tc.resumeErr)
			l := &link{conn: conn, init: acp.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: tc.caps}, log: zerolog.Nop()}
			var evs []Event
			ts := &turnState{ctx: context.Background(), emitFn: func(ev Event) { evs = append(evs, ev) }, log: zerolog.Nop()}
			l.attach(ts)
			l.register()
			conn.Start()
			err := (&Engine{}).openSession(context.Background(), l, Turn{SessionID: "s1", Cwd: "/w"}, ts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			conn.Flush(context.Background())
			if got := strings.Join(*methods, ","); got != tc.wantMethods {
				t.Fatalf("methods = %s, want %s", got, tc.wantMethods)
			}
			if len(evs) != 1 || evs[0].Type() != EventSession || evs[0].SessionID != "s1" {
				t.Fatalf("events = %+v (replayed history must not be emitted)", evs)
			}
			// A load's replay may go on after its response: it is dropped
			// until the turn's prompt goes out (drive); so is what an agent
			// replays on resume, which it should not but may.
			if replayMode(ts.replayAs.Load()) != replayDropped {
				t.Fatalf("replay mode = %d after %s", ts.replayAs.Load(), tc.wantMethods)
			}
			if l.session() != "s1" {
				t.Fatalf("link session = %q", l.session())
			}
		})
	}
}

func TestDecideAnswersCancelledWhenTurnEnds(t *testing.T) {
	perm := permission.Permission{RequestID: "0", Options: []permission.PermissionOption{{OptionID: "ok", Kind: acp.KindAllowOnce}, {OptionID: "no", Kind: acp.KindRejectOnce}}}
	never := make(chan struct{})
	defer close(never)
	stuck := permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) { <-never; return "ok", nil })
	tests := []struct {
		name    string
		decider permission.Decider
		cancel  bool
		linkEnd bool
		want    string
	}{
		{"chosen", permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) { return "ok", nil }), false, false, `{"outcome":"selected","optionId":"ok"}`},
		{"unknown id", permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) { return "maybe", nil }), false, false, `{"outcome":"cancelled"}`},
		{"decider error rejects", permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) {
			return "", errors.New("tty gone")
		}), false, false, `{"outcome":"selected","optionId":"no"}`},
		{"turn cancelled while asking", stuck, true, false, `{"outcome":"cancelled"}`},
		{"agent gone while asking", stuck, false, true, `{"outcome":"cancelled"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			linkDone := make(chan struct{})
			if tc.cancel {
				cancel()
			}
			if tc.linkEnd {
				close(linkDone)
			}
			ts := &turnState{ctx: ctx, decider: tc.decider, emitFn: func(Event) {}}
			got, _ := json.Marshal(ts.decide("s", perm, linkDone).Outcome)
			if string(got) != tc.want {
				t.Fatalf("outcome = %s, want %s", got, tc.want)
			}
		})
	}
}

func ExampleChooseByKind() {
	opts := []permission.PermissionOption{
		{OptionID: "approved-for-session", Name: "Always", Kind: acp.KindAllowAlways},
		{OptionID: "approved", Name: "Yes", Kind: acp.KindAllowOnce},
	}
	fmt.Println(permission.ChooseByKind(opts, acp.KindAllowOnce, acp.KindAllowAlways))
	// Output: approved
}
