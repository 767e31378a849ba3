package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
)

func TestListSessions(t *testing.T) {
	cases := []struct {
		name string
		warm bool
	}{
		{"fresh agent per question", false},
		{"the warm connection answers", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ag := acpstub.New()
			ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
			// The agent lists every session it opened, with its folder.
			ag.Handle("session/list", func(*acpstub.Call) (any, error) {
				var sessions []map[string]string
				for i, p := range ag.Params("session/new") {
					var n struct{ Cwd string }
					json.Unmarshal(p, &n)
					sessions = append(sessions, map[string]string{"sessionId": fmt.Sprintf("s-%d", i+1), "cwd": n.Cwd})
				}
				return map[string]any{"sessions": sessions}, nil
			})
			e := stubEngine(t, ag, Options{Warm: c.warm})
			cwd := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("one")})
			if err != nil {
				t.Fatal(err)
			}
			_, second, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("two")})
			if err != nil {
				t.Fatal(err)
			}
			startedBefore := ag.Started()
			got, ok, err := e.ListSessions(ctx, cwd)
			if err != nil || !ok {
				t.Fatalf("ListSessions: ok=%v err=%v", ok, err)
			}
			ids := map[string]string{}
			for _, s := range got {
				ids[s.SessionID] = s.Cwd
			}
			for _, want := range []string{first.SessionID, second.SessionID} {
				if got, found := ids[want]; !found || got != cwd {
					t.Fatalf("session %s missing or with cwd %q in %+v", want, got, ids)
				}
			}
			started := ag.Started() - startedBefore
			if c.warm && started != 0 {
				t.Fatalf("with a warm connection the list started %d agents", started)
			}
			if !c.warm && started != 1 {
				t.Fatalf("without a warm connection the list started %d agents, want 1", started)
			}
			if c.warm {
				// Still warm: the next turn reuses it.
				if _, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: second.SessionID, Prompt: prompt.Text("three")}); err != nil {
					t.Fatal(err)
				}
				if n := ag.Started() - startedBefore; n != 0 {
					t.Fatalf("the turn after listing started %d agents", n)
				}
			}
		})
	}
}
