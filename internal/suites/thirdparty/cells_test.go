//go:build unix

package thirdparty

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/internal/testrig/apimock"
)

// allCells: CDXTHEME_AGENT_CELLS=all (make test-agents) runs every cell;
// make test runs the essential ones (first turn, follow-up, --model).
func allCells() bool { return os.Getenv("CDXTHEME_AGENT_CELLS") == "all" }

const said = "Hello from the mock model! You said: "

// Each agent through `cdxtheme chat`, cell by cell, on one mock and HOME.
func TestAgents(t *testing.T) {
	top := t
	// Cells that must wait for the agent (loadsInTheNextMinute) run after
	// the other agents' cells, by when that wait is mostly over.
	var later []func()
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			r := need(t, top, a)
			cell := func(t *testing.T, name string, f func(t *testing.T)) bool {
				return t.Run(name, func(t *testing.T) {
					r.t = t
					f(t)
				})
			}
			session, created := "", time.Time{}
			cell(t, "first turn", func(t *testing.T) {
				res := r.chat("hello")
				if res.code != 0 {
					t.Fatalf("chat: %s", res)
				}
				if got := res.text(); got != said+"hello" {
					t.Errorf("text = %q, want the mock's %q", got, said+"hello")
				}
				// Streamed: the mock sends a delta per word, and so must we.
				if n := res.count("text"); n < 3 {
					t.Errorf("%d text events, want the reply streamed word by word", n)
				}
				if l := res.last(); l.Type != "done" || l.StopReason != "end_turn" || l.SessionID == "" {
					t.Fatalf("last event = %+v", l)
				}
				session, created = res.last().SessionID, time.Now().UTC()
			})
			if session == "" {
				t.Fatal("no session to continue")
			}
			followUp := func(t *testing.T) {
				if a.loadsInTheNextMinute {
					waitNextMinute(t, created)
				}
				res := r.chat("--session", session, "what did I say")
				if res.code != 0 {
					t.Fatalf("chat --session: %s", res)
				}
				// Only this turn's words: history the agent replays is context.
				if got := res.text(); got != said+"what did I say" {
					t.Errorf("text = %q, want only %q", got, said+"what did I say")
				}
				if l := res.last(); l.SessionID != session {
					t.Errorf("ran in session %q, want %q", l.SessionID, session)
				}
				req, ok := r.turnFor("what did I say")
				if !ok {
					t.Fatal("the follow-up reached no model")
				}
				if !req.Carries("hello") || !req.Carries(said+"hello") {
					t.Errorf("the follow-up's model request lacks turn 1: %q", req.Texts)
				}
			}
			if a.loadsInTheNextMinute {
				later = append(later, func() { cell(top, a.name+"/follow-up", followUp) })
			} else {
				cell(t, "follow-up", followUp)
			}
			cell(t, "model", func(t *testing.T) {
				res := r.chat("--model", a.model, "which model")
				if res.code != 0 {
					t.Fatalf("chat --model %s: %s", a.model, res)
				}
				req, ok := r.turnFor("which model")
				if !ok || !strings.HasPrefix(req.Model, a.modelSent) {
					t.Errorf("the mock saw model %q for %q, want %s (from --model %s)", req.Model, req.User, a.modelSent, a.model)
				}
				if a.modelUnlisted == "" {
					return
				}
				// A full model id the agent runs but does not list (Claude
				// Code's list has default, opus, haiku) was refused by the
				// client, and the turn ran the default model.
				if res := r.chat("--model", a.modelUnlisted, "which full model"); res.code != 0 {
					t.Fatalf("chat --model %s: %s", a.modelUnlisted, res)
				}
				if req, _ := r.turnFor("which full model"); req.Model != a.modelUnlisted {
					t.Errorf("the mock saw model %q, want %s (from --model %s)", req.Model, a.modelUnlisted, a.modelUnlisted)
				}
			})
			if !allCells() {
				return
			}
			for _, policy := range []string{"allow", "deny"} {
				cell(t, "permission "+policy, func(t *testing.T) {
					target := filepath.Join(r.ws, "made-by-"+policy+".txt")
					tool, args := a.shell("echo permitted > " + target)
					r.mock.Queue(apimock.Reply{Tool: tool, Args: args})
					res := r.chat("--permission", policy, "write the file")
					if res.code != 0 {
						t.Fatalf("chat: %s", res)
					}
					if n := res.count("permission"); n != 1 {
						t.Fatalf("%d permission requests, want 1: %s\nmock: %s", n, res, r.mockLog())
					}
					_, err := os.Stat(target)
					switch policy {
					case "allow":
						if err != nil {
							t.Errorf("the allowed command did not run: %v", err)
						}
					case "deny":
						if !errors.Is(err, os.ErrNotExist) {
							t.Errorf("the denied command ran (stat: %v)", err)
						}
					}
				})
			}
			if a.listsSessions {
				cell(t, "sessions --acp", func(t *testing.T) {
					out, errs, code := r.run("sessions", "--json", "--acp")
					if code != 0 {
						t.Fatalf("sessions --acp: exit %d: %s", code, errs)
					}
					var list struct{ Sessions []struct{ ID, Cwd string } }
					if err := json.Unmarshal([]byte(out), &list); err != nil {
						t.Fatalf("sessions --json: %v\n%s", err, out)
					}
					found := false
					for _, s := range list.Sessions {
						found = found || s.ID == session
					}
					if !found {
						t.Errorf("session %s not listed: %s", session, out)
					}
				})
			}
			cell(t, "ctrl-c", func(t *testing.T) {
				if left := r.waitGone(20 * time.Second); len(left) != 0 {
					t.Fatalf("processes left by the earlier cells: %v", left)
				}
				r.mock.Queue(apimock.Reply{Text: strings.Repeat("tick ", 600), Delay: 50 * time.Millisecond})
				cmd := r.command("chat", "--json", "--timeout", turnTimeout, "be slow")
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					if strings.Contains(sc.Text(), `"tick`) {
						break
					}
				}
				if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
				for sc.Scan() {
				}
				err = cmd.Wait()
				if ee, ok := err.(interface{ ExitCode() int }); !ok || ee.ExitCode() != 130 {
					t.Errorf("chat after Ctrl-C: %v, want exit 130", err)
				}
				if left := r.waitGone(15 * time.Second); len(left) != 0 {
					t.Errorf("processes left after Ctrl-C: %v", left)
				}
			})
		})
	}
	for _, f := range later {
		f()
	}
}

// waitNextMinute waits until the UTC clock minute differs from that of t0:
// the agent's own limit (agent.loadsInTheNextMinute), not a synchronisation.
func waitNextMinute(t *testing.T, t0 time.Time) {
	next := t0.Truncate(time.Minute).Add(time.Minute)
	if d := time.Until(next); d > 0 {
		t.Logf("waiting %v for the next minute", d.Round(time.Second))
		time.Sleep(d + 100*time.Millisecond)
	}
}
