package realpeer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// A follow-up turn on a fresh connection continues the conversation: the
// engine resumes (or loads) the session in a new adapter process, and the
// model sees the first turn's words in its input.
func TestFollowUpResumesTheConversation(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{warm: false})

		first, evs, err := r.turn(chat.Turn{Prompt: prompt.Text("Remember the word banana")})
		if err != nil {
			t.Fatalf("first turn: %v", err)
		}
		if first.SessionID == "" || first.StopReason != "end_turn" {
			t.Fatalf("first turn result = %+v", first)
		}
		if want := "Hello from the mock model! You said: Remember the word banana"; !strings.Contains(evs.text(), want) {
			t.Errorf("first turn text = %q, want it to contain %q", evs.text(), want)
		}
		if len(evs.ofType(chat.EventSession)) == 0 {
			t.Error("no session event in the first turn")
		}
		// Not warm: the first adapter must be gone before the second turn,
		// so the second really continues the session in a new process.
		if left := r.home.WaitGone(15 * time.Second); len(left) != 0 {
			t.Fatalf("adapter still running between turns without warm: %v", left)
		}

		second, evs2, err := r.turn(chat.Turn{SessionID: first.SessionID, Prompt: prompt.Text("What was the word?")})
		if err != nil {
			t.Fatalf("second turn: %v", err)
		}
		if second.SessionID != first.SessionID {
			t.Errorf("second turn ran in session %q, want %q", second.SessionID, first.SessionID)
		}
		if !strings.Contains(evs2.text(), "You said: What was the word?") {
			t.Errorf("second turn text = %q", evs2.text())
		}
		// History is context for the model, not new output for the user.
		if strings.Contains(evs2.text(), "banana") {
			t.Errorf("second turn re-streamed the first turn's text: %q", evs2.text())
		}
		if got := evs2.last(); got.Type() != chat.EventDone || got.Payload.(chat.Done).StopReason != "end_turn" {
			t.Errorf("second turn ended with %+v", got)
		}

		turns := r.mock.Turns()
		if len(turns) != 2 {
			t.Fatalf("mock saw %d turn requests, want 2", len(turns))
		}
		in := turns[1]
		if got := strings.Join(in.UserTexts(), " | "); got != "Remember the word banana | What was the word?" {
			t.Errorf("second request's user messages = %q", got)
		}
		if got := strings.Join(in.AssistantTexts(), " | "); !strings.Contains(got, "You said: Remember the word banana") {
			t.Errorf("second request lacks the first answer; assistant messages = %q", got)
		}
	})
}

// Setting Turn.Model changes the model the adapter asks the API for.
func TestModelSwitchReachesTheModel(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{warm: true})
		first, evs, err := r.turn(chat.Turn{Prompt: prompt.Text("first")})
		if err != nil {
			t.Fatalf("first turn: %v", err)
		}
		current, values := modelOptions(t, evs)
		if current != peers.DefaultModel {
			t.Errorf("current model = %q, want the config's %q", current, peers.DefaultModel)
		}
		// Another model from the adapter's own list, so the switch is one
		// it accepts (the two adapters' catalogues differ).
		other := ""
		for _, v := range values {
			if v != current && v != "" {
				other = v
				break
			}
		}
		if other == "" {
			t.Fatalf("the adapter offers no second model: %q", values)
		}

		if _, _, err := r.turn(chat.Turn{SessionID: first.SessionID, Model: other, Prompt: prompt.Text("second")}); err != nil {
			t.Fatalf("turn with model %s: %v", other, err)
		}
		// And back, on a fresh connection: the model is applied after resume too.
		_ = r.engine.Close()
		if _, _, err := r.turn(chat.Turn{SessionID: first.SessionID, Model: current, Prompt: prompt.Text("third")}); err != nil {
			t.Fatalf("turn back to %s: %v", current, err)
		}

		var got []string
		for _, req := range r.mock.Turns() {
			got = append(got, req.LastUserText()+"="+req.Model)
		}
		want := []string{"first=" + current, "second=" + other, "third=" + current}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("models at the mock = %q, want %q", got, want)
		}
	})
}

// In the workspace-sandboxed mode a command the model wants to run outside
// the sandbox needs the user's permission; the answer decides whether it runs.
func TestPermission(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		for _, policy := range []string{"allow", "deny"} {
			t.Run(policy, func(t *testing.T) {
				r := newRig(t, a, rigOptions{mode: peers.ModeWorkspace})
				target := filepath.Join(r.home.Outside, "made-by-codex.txt")
				r.mock.Queue(respmock.EscalatedShell("echo permitted > " + target))

				res, evs, err := r.turn(chat.Turn{Prompt: prompt.Text("write the file"), Decider: permission.Policy(policy)})
				if err != nil {
					t.Fatalf("turn: %v", err)
				}
				perms := evs.ofType(chat.EventPermission)
				if len(perms) != 1 || perms[0].Payload.(chat.PermissionAsked).Permission == nil {
					t.Fatalf("permission events = %d, want 1", len(perms))
				}
				p := perms[0].Payload.(chat.PermissionAsked).Permission
				kinds := map[string]bool{}
				for _, o := range p.Options {
					kinds[o.Kind] = true
				}
				if !kinds["allow_once"] || !kinds["reject_once"] {
					t.Errorf("permission options lack allow_once/reject_once: %+v", p.Options)
				}
				if p.ToolCall == nil || !strings.Contains(p.Command+" "+deref(p.ToolCall.Title), "made-by-codex.txt") {
					t.Errorf("permission tool call does not show the command: %q %+v", p.Command, p.ToolCall)
				}

				_, statErr := os.Stat(target)
				outputs := strings.Join(lastToolOutputs(r.mock), "\n")
				switch policy {
				case "allow":
					if statErr != nil {
						t.Errorf("allowed command did not run: %v", statErr)
					}
					if !strings.Contains(outputs, "exited with code 0") {
						t.Errorf("the model was not told the command succeeded; tool outputs: %q", outputs)
					}
					if res.StopReason != "end_turn" {
						t.Errorf("stop reason = %q, want end_turn", res.StopReason)
					}
				case "deny":
					if !errors.Is(statErr, os.ErrNotExist) {
						t.Errorf("denied command ran anyway (stat: %v)", statErr)
					}
					if strings.Contains(outputs, "exited with code 0") {
						t.Errorf("the model was told a denied command succeeded: %q", outputs)
					}
					// Both adapters end the turn when the user rejects.
					if res.StopReason == "" {
						t.Errorf("no stop reason after a denial: %+v", res)
					}
				}
			})
		}
	})
}

func lastToolOutputs(s *respmock.Server) []string {
	var out []string
	for _, r := range s.Turns() {
		if o, ok := r.LastToolOutput(); ok {
			out = append(out, o)
		}
	}
	return out
}

// Cancelling mid-stream ends the turn as cancelled, keeps what was streamed
// and leaves no adapter process behind.
func TestCancelMidStream(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{})
		r.mock.Queue(respmock.Reply{Text: strings.Repeat("tick ", 600), Delay: 100 * time.Millisecond})

		ctx, cancel := context.WithTimeout(context.Background(), turnTimeout+10*time.Second)
		defer cancel()
		ticks := 0
		res, evs, err := r.turnCtx(ctx, chat.Turn{Prompt: prompt.Text("be slow")}, func(ev chat.Event) {
			if ev.Type() == chat.EventText && strings.Contains(ev.Payload.(chat.TextChunk).Text, "tick") {
				ticks++
				if ticks == 3 {
					cancel()
				}
			}
		})
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != chat.CodeCancelled {
			t.Fatalf("err = %v, want a cancelled *chat.Error", err)
		}
		if got := evs.last(); got.Type() != chat.EventDone || got.Payload.(chat.Done).StopReason != "cancelled" {
			t.Errorf("last event = %+v, want done/cancelled", got)
		}
		if res.StopReason != "cancelled" {
			t.Errorf("result stop reason = %q", res.StopReason)
		}
		if !strings.HasPrefix(evs.text(), "tick tick tick") {
			t.Errorf("streamed text lost on cancel: %q", evs.text())
		}
		// 600 ticks at 100 ms would take a minute: the stream really stopped.
		if n := strings.Count(evs.text(), "tick"); n >= 600 {
			t.Errorf("the whole answer streamed (%d ticks) despite the cancel", n)
		}
		if left := r.home.WaitGone(15 * time.Second); len(left) != 0 {
			t.Errorf("adapter processes left after cancel: %v", left)
		}
	})
}

// With Warm on, a follow-up turn runs in the same adapter process (no
// spawn, initialize or resume), and Close ends it.
func TestWarmConnectionIsReused(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{warm: true})
		first, _, err := r.turn(chat.Turn{Prompt: prompt.Text("one")})
		if err != nil {
			t.Fatalf("first turn: %v", err)
		}
		before := r.home.Roots()
		if len(before) == 0 {
			t.Fatal("no adapter process kept after a warm turn")
		}
		_, evs2, err := r.turn(chat.Turn{SessionID: first.SessionID, Prompt: prompt.Text("two")})
		if err != nil {
			t.Fatalf("second turn: %v", err)
		}
		if !strings.Contains(evs2.text(), "You said: two") {
			t.Errorf("second turn text = %q", evs2.text())
		}
		after := map[int]bool{}
		for _, pid := range r.home.Roots() {
			after[pid] = true
		}
		for _, pid := range before {
			if !after[pid] {
				t.Errorf("process %d of the warm connection is gone after the follow-up: %v -> %v", pid, before, after)
			}
		}
		if turns := r.mock.Turns(); len(turns) != 2 || strings.Join(turns[1].UserTexts(), "|") != "one|two" {
			t.Errorf("the follow-up is not the same conversation at the model: %d turns", len(turns))
		}
		if err := r.engine.Close(); err != nil {
			t.Fatal(err)
		}
		if left := r.home.WaitGone(15 * time.Second); len(left) != 0 {
			t.Errorf("Close left %v running", left)
		}
	})
}

// Without a warm connection the answer's end reaches the user before the
// agent is torn down: the Rust adapter ignores a closed stdin, and its
// SIGTERM step would otherwise hold the done event back by seconds.
func TestDoneBeforeTeardown(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{warm: false})
		var aliveAtDone []int
		ctx, cancel := context.WithTimeout(context.Background(), turnTimeout+10*time.Second)
		defer cancel()
		res, _, err := r.turnCtx(ctx, chat.Turn{Prompt: prompt.Text("hi")}, func(ev chat.Event) {
			if ev.Type() == chat.EventDone {
				aliveAtDone = r.home.Processes()
			}
		})
		if err != nil || res.StopReason != "end_turn" {
			t.Fatalf("turn: %+v %v", res, err)
		}
		if len(aliveAtDone) == 0 {
			t.Fatal("the done event waited for the agent's teardown")
		}
		if left := r.home.WaitGone(15 * time.Second); len(left) != 0 {
			t.Fatalf("adapter still running after Run returned: %v", left)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
