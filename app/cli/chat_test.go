package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
)

// chatEnv points the CLI at a private copy of the fake agent (so leftover
// processes can be found by their executable) with its own state and log.
type chatEnv struct {
	t    *testing.T
	bin  string
	logf string
	cwd  string
}

func newChatEnv(t *testing.T, scenario string) *chatEnv {
	t.Helper()
	if err := processesCheckable(); err != nil {
		t.Skipf("the leftover-process checks cannot look here: %v", err)
	}
	src := fakeagenttest.Build(t)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	name := "fakeagent-cli"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	c := &chatEnv{t: t, bin: filepath.Join(t.TempDir(), name), logf: filepath.Join(t.TempDir(), "agent.log"), cwd: t.TempDir()}
	if err := os.WriteFile(c.bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	t.Setenv("CDXTHEME_AGENT", strconv.Quote(c.bin))
	t.Setenv("FAKE_AGENT_STATE", t.TempDir())
	t.Setenv("FAKE_AGENT_LOG", c.logf)
	t.Setenv("FAKE_AGENT_SCENARIO", scenario)
	t.Cleanup(func() {
		// An agent let go after a finished turn may still be finishing
		// under its shim, which ends it within a bound (10 s at most).
		deadline := time.Now().Add(11 * time.Second)
		n := processesOf(c.bin)
		for n > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			n = processesOf(c.bin)
		}
		if n != 0 {
			t.Errorf("%d agent processes outlived the command's wind-down bound (-1: cannot look)", n)
		}
	})
	return c
}

func (c *chatEnv) run(ctx context.Context, stdout io.Writer, args ...string) (string, int) {
	c.t.Helper()
	var errb bytes.Buffer
	code := Run(ctx, append([]string{"chat", "--cwd", c.cwd}, args...), stdout, &errb)
	return errb.String(), code
}

func (c *chatEnv) methods() []string {
	f, err := os.Open(c.logf)
	if err != nil {
		c.t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct{ Method string }
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method != "" {
			out = append(out, m.Method)
		}
	}
	return out
}

func TestChatPlainOutput(t *testing.T) {
	c := newChatEnv(t, "")
	var out bytes.Buffer
	stderr, code := c.run(context.Background(), &out, "make", "it", "teal")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if out.String() != "You said: make it teal\nHello from the fake agent.\n" {
		t.Fatalf("stdout = %q", out.String())
	}
	for _, want := range []string{"[thinking] Thinking about how to greet the user.", "[plan] Read the prompt (completed)", "session: ", "continue with --session"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestChatJSON(t *testing.T) {
	c := newChatEnv(t, "")
	var out bytes.Buffer
	stderr, code := c.run(context.Background(), &out, "--json", "hello")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	seen := map[string]bool{}
	var text strings.Builder
	for _, l := range lines {
		var ev struct {
			Type, Text string
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		seen[ev.Type] = true
		if ev.Type == "text" {
			text.WriteString(ev.Text)
		}
	}
	for _, typ := range []string{"text", "thought", "plan", "usage"} {
		if !seen[typ] {
			t.Errorf("no %s event", typ)
		}
	}
	if text.String() != "You said: hello\nHello from the fake agent." {
		t.Errorf("text = %q", text.String())
	}
	var last map[string]any
	json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if len(last) != 3 || last["type"] != "done" || last["stopReason"] != "end_turn" || last["sessionId"] == "" {
		t.Fatalf("last line = %s", lines[len(lines)-1])
	}

	// The session continues with --session.
	id := last["sessionId"].(string)
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--session", id, "second"); code != ExitOK || !strings.HasPrefix(out.String(), "You said: second\n") {
		t.Fatalf("follow-up: exit %d, stdout %q, stderr %s", code, out.String(), stderr)
	}
}

func TestChatExitCodes(t *testing.T) {
	tests := []struct {
		name       string
		scenario   string
		args       []string
		want       int
		wantStderr string
	}{
		{"no prompt", "", nil, ExitUsage, "missing PROMPT"},
		{"bad permission flag", "", []string{"--permission", "maybe", "hi"}, ExitUsage, "ask, allow or deny"},
		{"bad timeout", "", []string{"--timeout", "-1s", "hi"}, ExitUsage, "--timeout"},
		{"missing cwd", "", []string{"--cwd", "/nonexistent/dir", "hi"}, ExitUsage, "not a directory"},
		{"auth required", "auth", []string{"hi"}, ExitAuth, "API Key (api-key)"},
		{"agent exits early", "exit-early", []string{"hi"}, ExitError, "simulated startup failure"},
		{"agent crashes", "", []string{"#crash"}, ExitError, "fatal: simulated crash"},
		{"timeout", "", []string{"--timeout", "1s", "#hang"}, ExitTimeout, "longer than 1s"},
		// The agent said it lost its model server, then ran out of time.
		{"model server down", "", []string{"--timeout", "2s", "#retry"}, ExitTimeout, "agent: Reconnecting... waiting for network (Connection failed: error sending request)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newChatEnv(t, tc.scenario)
			t.Setenv("FAKE_AGENT_RETRIES", "1000")
			var out bytes.Buffer
			stderr, code := c.run(context.Background(), &out, tc.args...)
			if code != tc.want || !strings.Contains(stderr, tc.wantStderr) {
				t.Fatalf("exit %d (want %d), stderr:\n%s", code, tc.want, stderr)
			}
		})
	}
}

func TestChatAgentPrecedence(t *testing.T) {
	c := newChatEnv(t, "")
	var out bytes.Buffer
	// CDXTHEME_AGENT (the fake agent) wins over --agent.
	if stderr, code := c.run(context.Background(), &out, "--agent", "/nonexistent/agent", "hi"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Without it, --agent is used.
	t.Setenv("CDXTHEME_AGENT", "")
	stderr, code := c.run(context.Background(), &out, "--agent", "/nonexistent/agent", "hi")
	if code != ExitError || !strings.Contains(stderr, "/nonexistent/agent") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// cancelOnWrite cancels the context when the answer starts streaming, as
// a user's Ctrl-C would.
type cancelOnWrite struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cancel()
	return w.buf.Write(b)
}

func TestChatCancelled(t *testing.T) {
	c := newChatEnv(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelOnWrite{cancel: cancel}
	stderr, code := c.run(ctx, w, "#slow")
	if code != ExitCancelled {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(w.buf.String(), "tick 1") {
		t.Fatalf("streamed text lost: %q", w.buf.String())
	}
	m := c.methods()
	if len(m) == 0 || m[len(m)-1] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel last", m)
	}
}

func TestChatPermissions(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		terminal   bool
		input      string
		wantOut    string
		wantStderr string
	}{
		{"allow", []string{"--permission", "allow"}, false, "", "allow_once (option proceed)", "by --permission allow"},
		{"deny", []string{"--permission", "deny"}, false, "", "reject_once (option skip)", "by --permission deny"},
		{"ask without a terminal denies", []string{"--permission", "ask"}, false, "", "reject_once (option skip)", "stdin is not a terminal"},
		{"ask on a terminal, option 2", []string{"--permission", "ask"}, true, "2\n", "allow_always (option trust-forever)", "2) Yes, and don't ask again"},
		{"ask on a terminal, Enter rejects", []string{"--permission", "ask"}, true, "\n", "reject_once (option skip)", "Enter rejects"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newChatEnv(t, "")
			oldIn, oldTerm := chatStdin, stdinTerminal
			chatStdin, stdinTerminal = strings.NewReader(tc.input), func() bool { return tc.terminal }
			t.Cleanup(func() { chatStdin, stdinTerminal = oldIn, oldTerm })
			var out bytes.Buffer
			stderr, code := c.run(context.Background(), &out, append(tc.args, "#permission")...)
			if code != ExitOK || !strings.Contains(out.String(), tc.wantOut) || !strings.Contains(stderr, tc.wantStderr) {
				t.Fatalf("exit %d\nstdout %q\nstderr %s", code, out.String(), stderr)
			}
		})
	}
}

func TestChatModelAndEffort(t *testing.T) {
	c := newChatEnv(t, "")
	var out bytes.Buffer
	stderr, code := c.run(context.Background(), &out, "--model", "gpt-5.4", "--effort", "high", "hi")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(c.logf)
	for _, want := range []string{`"configId":"model","value":"gpt-5.4"`, `"configId":"reasoning_effort","value":"high"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("agent never got %s", want)
		}
	}
}

func TestChatFlagsAfterPrompt(t *testing.T) {
	c := newChatEnv(t, "")
	var out bytes.Buffer
	start := time.Now()
	stderr, code := c.run(context.Background(), &out, "hi", "there", "--json", "--", "--not-a-flag")
	if code != ExitOK {
		t.Fatalf("exit %d after %s: %s", code, time.Since(start), stderr)
	}
	if !strings.Contains(out.String(), `"text":"You said: hi there --not-a-flag\n"`) {
		t.Fatalf("stdout = %s", out.String())
	}
}

// hostile is what the fake agent's "escapes" scenario puts into every
// string it sends (internal/testrig/fakeagent/scenarios.go).
const hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x1b[31mred\x1b[0m\r\x1b[2K\u009b2J\u009d52;c;eA==\u009c"

// controlIn names the first terminal control character in s, if any.
func controlIn(s string) string {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return strconv.QuoteRune(r)
		}
	}
	return ""
}

func TestChatStripsTerminalControlSequences(t *testing.T) {
	c := newChatEnv(t, "escapes")
	oldIn, oldTerm := chatStdin, stdinTerminal
	chatStdin, stdinTerminal = strings.NewReader("1\n"), func() bool { return true }
	t.Cleanup(func() { chatStdin, stdinTerminal = oldIn, oldTerm })

	var out bytes.Buffer
	stderr, code := c.run(context.Background(), &out, "--permission", "ask", "hi")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := out.String(); got != "Answer:red done\tand\nnext line.\n" {
		t.Errorf("stdout = %q", got)
	}
	for name, s := range map[string]string{"stdout": out.String(), "stderr": stderr} {
		if c := controlIn(s); c != "" {
			t.Errorf("%s carries the control character %s:\n%q", name, c, s)
		}
	}
	for _, want := range []string{"[thinking] Thinkingred hard.", "[plan] Stepred (in_progress)", "[tool] touch themered.json (execute) [pending]",
		"The agent asks permission: touch themered.json", "1) Allowred", "2) Rejectred"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// --json keeps every byte: the events decode to exactly what the agent sent.
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--json", "--permission", "allow", "hi"); code != ExitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var text, title string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var ev struct {
			Type, Text string
			Update     json.RawMessage
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		if ev.Type == "text" {
			text += ev.Text
		}
		var u struct{ Title string }
		if json.Unmarshal(ev.Update, &u) == nil && strings.HasPrefix(u.Title, "Title") {
			title = u.Title
		}
	}
	if text != "Answer:"+hostile+" done\tand\nnext line." {
		t.Errorf("--json text = %q", text)
	}
	if title != "" && title != "Title"+hostile {
		t.Errorf("--json title = %q", title)
	}

	// --raw prints what the agent wrote.
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--raw", "--permission", "allow", "hi"); code != ExitOK || !strings.Contains(out.String(), "Answer:"+hostile) {
		t.Errorf("--raw: exit %d, stdout %q, stderr %s", code, out.String(), stderr)
	}
}

// `models --agent` asks the agent itself, with one session/new, and lists
// its models however it offers them; `chat --model` then takes an id or a
// display name, and a value it does not offer is refused with the list.
func TestModelsOfAnyAgent(t *testing.T) {
	for _, shape := range []string{"config_option", "models"} {
		t.Run(shape, func(t *testing.T) {
			c := newChatEnv(t, "settings")
			if shape == "models" {
				t.Setenv("FAKE_AGENT_SHAPE", "models")
			}
			var out, errb bytes.Buffer
			if code := Run(context.Background(), []string{"models", "--agent", "ignored: CDXTHEME_AGENT wins", "--cwd", c.cwd, "--json"}, &out, &errb); code != ExitOK {
				t.Fatalf("models exit %d: %s", code, errb.String())
			}
			var got struct {
				Current, Source string
				Models          []struct{ ID, Name string }
				Modes           *struct{ CurrentModeID string }
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if got.Source != shape || got.Current != "gpt-5.5" || len(got.Models) != 4 || got.Models[2].Name != "GPT-5.4-Mini" || got.Modes == nil || got.Modes.CurrentModeID != "agent" {
				t.Fatalf("models of the agent: %+v", got)
			}
			if m := c.methods(); strings.Join(m, " ") != "initialize session/new" {
				t.Fatalf("the agent got %v, want one session/new", m)
			}
			var text bytes.Buffer
			stderr, code := c.run(context.Background(), &text, "--model", "GPT-5.4-Mini", "which model?")
			if code != ExitOK || !strings.Contains(text.String(), "model=gpt-5.4-mini") {
				t.Fatalf("--model by display name: exit %d, %q, %s", code, text.String(), stderr)
			}
			text.Reset()
			stderr, code = c.run(context.Background(), &text, "--model", "gpt-0", "which model?")
			// A config option's values are all it takes: refused before
			// asking, with the list. The models state (session/set_model)
			// lists suggestions only (Claude Code runs ids it does not list),
			// so the id is sent and the agent's own refusal is what shows.
			refusal := "gpt-5.5 (GPT-5.5), gpt-5.4, gpt-5.4-mini (GPT-5.4-Mini), gpt-5-pro (GPT-5 Pro)"
			if shape == "models" {
				refusal = `the agent did not take model = gpt-0: Invalid params: unknown model "gpt-0"`
			}
			if code != ExitOK || !strings.Contains(stderr, refusal) || !strings.Contains(text.String(), "model=gpt-5.5") {
				t.Fatalf("--model not offered: exit %d, %q, stderr %s", code, text.String(), stderr)
			}
		})
	}
}
