package chat

import (
	"context"
	"testing"
	"time"

	"cdxtheme/core/prompt"
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
			h := newHarness(t, hopts{warm: c.warm, scenario: "normal"})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, first, err := h.run(ctx, Turn{Prompt: prompt.Text("one")})
			if err != nil {
				t.Fatal(err)
			}
			_, second, err := h.run(ctx, Turn{Prompt: prompt.Text("two")})
			if err != nil {
				t.Fatal(err)
			}
			spawnedBefore := len(h.spawned())
			got, ok, err := h.e.ListSessions(ctx, h.cwd)
			if err != nil || !ok {
				t.Fatalf("ListSessions: ok=%v err=%v", ok, err)
			}
			ids := map[string]string{}
			for _, s := range got {
				ids[s.SessionID] = s.Cwd
			}
			for _, want := range []string{first.SessionID, second.SessionID} {
				if cwd, found := ids[want]; !found || cwd != h.cwd {
					t.Fatalf("session %s missing or with cwd %q in %+v", want, cwd, got)
				}
			}
			spawned := len(h.spawned()) - spawnedBefore
			if c.warm && spawned != 0 {
				t.Fatalf("with a warm connection the list spawned %d agents", spawned)
			}
			if !c.warm && spawned != 1 {
				t.Fatalf("without a warm connection the list spawned %d agents, want 1", spawned)
			}
			if c.warm {
				// Still warm: the next turn reuses it.
				if _, _, err := h.run(ctx, Turn{SessionID: second.SessionID, Prompt: prompt.Text("three")}); err != nil {
					t.Fatal(err)
				}
				if n := len(h.spawned()) - spawnedBefore; n != 0 {
					t.Fatalf("the turn after listing spawned %d agents", n)
				}
			}
		})
	}
}
