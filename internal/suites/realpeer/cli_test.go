package realpeer

import (
	"bufio"
	"bytes"
	"cdxtheme/internal/testrig/testbin"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/peers"
)

// The acceptance check: `cdxtheme chat --json "hello"` against the
// real adapter and the mock prints text events and a done event; and the
// session it leaves in CODEX_HOME is then listed and readable by the disk
// readers (`sessions`, `transcript`), straight from the files Codex wrote.
func TestCLIChatThenSessionsAndTranscript(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		bin := testbin.CLI(t)
		r := newRig(t, a, rigOptions{})
		env := append(os.Environ(), r.home.Env()...)
		env = append(env,
			"CDXTHEME_AGENT="+a.Words(),
			"CDXTHEME_CONFIG_DIR="+t.TempDir(),
			"CDXTHEME_DATA_DIR="+t.TempDir(),
			"CDXTHEME_NO_KEYRING=1",
			// The follow-up runs the turn here, after the quick teardown,
			// not on an on-demand `serve` that would outlive the test
			// (that hand-off is tested in app/cli/serve_test.go).
			"CDXTHEME_SERVE=0",
		)
		run := func(args ...string) (string, string, int) {
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			cmd.Dir = r.cwd
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("run %v: %v", args, err)
			}
			return out.String(), errb.String(), code
		}

		stdout, stderr, code := run("chat", "--json", "--timeout", "90s", "hello")
		if code != 0 {
			t.Fatalf("chat exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		var events []map[string]any
		sc := bufio.NewScanner(strings.NewReader(stdout))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev map[string]any
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("stdout line is not JSON: %q", sc.Text())
			}
			events = append(events, ev)
		}
		var text strings.Builder
		for _, ev := range events {
			if ev["type"] == "text" {
				text.WriteString(ev["text"].(string))
			}
		}
		if !strings.Contains(text.String(), "You said: hello") {
			t.Fatalf("text events = %q", text.String())
		}
		done := events[len(events)-1]
		sessionID, _ := done["sessionId"].(string)
		if done["type"] != "done" || done["stopReason"] != "end_turn" || sessionID == "" {
			t.Fatalf("last event = %v", done)
		}

		// Codex writes the rollout as the turn goes; give it a moment to land.
		var listed bool
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !listed; {
			out, _, code := run("sessions", "--json")
			if code != 0 {
				t.Fatalf("sessions exit %d: %s", code, out)
			}
			var list struct {
				Sessions []struct{ ID, Title, Cwd, Path string }
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatalf("sessions --json: %v\n%s", err, out)
			}
			for _, s := range list.Sessions {
				if s.ID == sessionID {
					listed = true
					if s.Cwd != r.cwd {
						t.Errorf("session cwd = %q, want %q", s.Cwd, r.cwd)
					}
				}
			}
			if !listed {
				time.Sleep(300 * time.Millisecond)
			}
		}
		if !listed {
			t.Fatalf("the chat's session %s is not listed from CODEX_HOME", sessionID)
		}
		out, stderr, code := run("transcript", sessionID, "--json")
		if code != 0 {
			t.Fatalf("transcript exit %d: %s %s", code, out, stderr)
		}
		var tr struct {
			ID       string
			Messages []struct{ Role, Text string }
		}
		if err := json.Unmarshal([]byte(out), &tr); err != nil {
			t.Fatalf("transcript --json: %v\n%s", err, out)
		}
		var user, assistant bool
		for _, m := range tr.Messages {
			user = user || (m.Role == "user" && m.Text == "hello")
			assistant = assistant || (m.Role == "assistant" && strings.Contains(m.Text, "You said: hello"))
		}
		if tr.ID != sessionID || !user || !assistant {
			t.Fatalf("transcript of %s = %+v", sessionID, tr)
		}

		// chat ends the agent's group as soon as the turn is done, without
		// waiting for the adapter to wind down: the follow-up still finds
		// the whole first exchange in the session it resumes.
		stdout, stderr, code = run("chat", "--json", "--timeout", "90s", "--session", sessionID, "again")
		var again strings.Builder
		for _, l := range strings.Split(stdout, "\n") {
			var ev struct{ Type, Text string }
			if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "text" {
				again.WriteString(ev.Text)
			}
		}
		if code != 0 || !strings.Contains(again.String(), "You said: again") {
			t.Fatalf("follow-up exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		turns := r.mock.Turns()
		var history []string
		for _, it := range turns[len(turns)-1].Input {
			if it.Type == "message" {
				history = append(history, it.Role+": "+it.Text())
			}
		}
		joined := strings.Join(history, "\n")
		if !strings.Contains(joined, "user: hello") || !strings.Contains(joined, "You said: hello") || !strings.Contains(joined, "user: again") {
			t.Fatalf("the follow-up's model request lacks the first exchange:\n%s", joined)
		}
	})
}
