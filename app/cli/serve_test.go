package cli

import (
	"bytes"
	"cdxtheme/internal/testrig/testbin"
	"cdxtheme/internal/testrig/unixsock"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cdxtheme/core/agent"
)

// Every test of the package runs without the hand-off unless it turns it
// on: the test binary is no cdxtheme to start as serve, and the user's own
// runtime dir must not be touched.
func TestMain(m *testing.M) {
	os.Setenv(EnvServe, "0")
	dir, err := os.MkdirTemp("", "cdxtheme-cli-test-")
	if err == nil {
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
	serveBinary = func() (string, error) { return "", errors.New("no cdxtheme binary in this test") }
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// withServe turns the hand-off on, with serve started on demand from the
// real binary in a runtime dir of the test's own; at the end serve is
// stopped and must be gone.
func withServe(t *testing.T, ttl string) (bin, dir string) {
	t.Helper()
	bin = testbin.CLI(t)
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(EnvServe, "1")
	t.Setenv(EnvServeTTL, ttl)
	saved := serveBinary
	serveBinary = func() (string, error) { return bin, nil }
	t.Cleanup(func() {
		serveBinary = saved
		var out, errb bytes.Buffer
		Run(context.Background(), []string{"serve", "--stop"}, &out, &errb)
		waitGone(t, bin, 15*time.Second)
	})
	return bin, filepath.Join(rt, "cdxtheme")
}

func waitGone(t *testing.T, exe string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for processesOf(exe) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of %s still running after %s", processesOf(exe), filepath.Base(exe), within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sessionOf(t *testing.T, ndjson string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(ndjson), "\n")
	var done struct{ Type, SessionID string }
	json.Unmarshal([]byte(lines[len(lines)-1]), &done)
	if done.Type != "done" || done.SessionID == "" {
		t.Fatalf("no done event with a session: %s", lines[len(lines)-1])
	}
	return done.SessionID
}

func TestFollowUpsThroughServeShareOneAgent(t *testing.T) {
	unixsock.Need(t)
	c := newChatEnv(t, "")
	bin, dir := withServe(t, "1m")
	var out bytes.Buffer
	if stderr, code := c.run(context.Background(), &out, "--json", "first"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := sessionOf(t, out.String())
	for _, prompt := range []string{"second", "third"} {
		out.Reset()
		stderr, code := c.run(context.Background(), &out, "--session", id, prompt)
		if code != ExitOK || out.String() != "You said: "+prompt+"\nHello from the fake agent.\n" ||
			!strings.Contains(stderr, "session: "+id+" (stop: end_turn) — continue with --session "+id) {
			t.Fatalf("follow-up %s: exit %d, stdout %q, stderr %s", prompt, code, out.String(), stderr)
		}
	}
	m := c.methods()
	if count(m, "initialize") != 2 || count(m, "session/resume") != 1 || count(m, "session/prompt") != 3 {
		t.Fatalf("the two follow-ups did not share serve's agent: %v", m)
	}
	if n := processesOf(c.bin); n != 1 {
		t.Fatalf("want serve's warm agent alive between calls, found %d", n)
	}
	if n := processesOf(bin); n != 1 {
		t.Fatalf("want one serve, found %d", n)
	}
	fi, err := os.Lstat(filepath.Join(dir, "serve.sock"))
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("serve's socket: %v %v", fi, err)
	}
	if dfi, _ := os.Lstat(dir); dfi.Mode().Perm() != 0o700 {
		t.Fatalf("socket folder mode %v", dfi.Mode())
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, s := range xs {
		if s == x {
			n++
		}
	}
	return n
}

// typesOf is the event types of NDJSON output, in order.
func typesOf(t *testing.T, ndjson string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(ndjson), "\n") {
		var ev struct{ Type string }
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		out = append(out, ev.Type)
	}
	return out
}

// The contract is the same through serve: NDJSON events, the text, the
// last done line, exit codes, and Ctrl-C sending session/cancel.
func TestChatThroughServeKeepsTheContract(t *testing.T) {
	unixsock.Need(t)
	c := newChatEnv(t, "")
	var out bytes.Buffer
	if stderr, code := c.run(context.Background(), &out, "--json", "first"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := sessionOf(t, out.String())
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--json", "--session", id, "again"); code != ExitOK {
		t.Fatalf("local follow-up: exit %d: %s", code, stderr)
	}
	local := out.String()

	withServe(t, "1m")
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--json", "--session", id, "again"); code != ExitOK {
		t.Fatalf("follow-up through serve: exit %d: %s", code, stderr)
	}
	served := out.String()
	if strings.Join(typesOf(t, served), ",") != strings.Join(typesOf(t, local), ",") {
		t.Fatalf("events differ:\nlocal  %v\nserved %v", typesOf(t, local), typesOf(t, served))
	}
	// Line for line the same bytes, but for what differs between two
	// processes of the agent (none in the fake agent's answer).
	if served != local {
		t.Fatalf("NDJSON differs:\nlocal:\n%s\nserved:\n%s", local, served)
	}
	if processesOf(c.bin) != 1 {
		t.Fatal("the follow-up did not run on serve's agent")
	}

	// Ctrl-C once the answer streams: session/cancel, done cancelled, 130.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfter{cancel: cancel, after: "tick 2"}
	stderr, code := c.run(ctx, w, "--json", "--session", id, "#slow")
	if code != ExitCancelled {
		t.Fatalf("cancel through serve: exit %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if !strings.Contains(lines[len(lines)-1], `"type":"done"`) || !strings.Contains(lines[len(lines)-1], `"stopReason":"cancelled"`) {
		t.Fatalf("last line after cancel: %s", lines[len(lines)-1])
	}
	if count(c.methods(), "session/cancel") != 1 {
		t.Fatalf("serve's agent got no session/cancel: %v", c.methods())
	}

	// A timeout through serve: exit 4, the hung agent's group ended.
	stderr, code = c.run(context.Background(), &out, "--session", id, "--timeout", "1s", "#hang")
	if code != ExitTimeout || !strings.Contains(stderr, "longer than 1s") {
		t.Fatalf("timeout through serve: exit %d, stderr %s", code, stderr)
	}
}

// cancelAfter cancels once the output holds after.
type cancelAfter struct {
	mu     sync.Mutex
	b      bytes.Buffer
	cancel context.CancelFunc
	after  string
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.after) {
		w.cancel()
	}
	return len(p), nil
}

func (w *cancelAfter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func TestServeIdlesOut(t *testing.T) {
	unixsock.Need(t)
	c := newChatEnv(t, "")
	bin, dir := withServe(t, "1s")
	var out bytes.Buffer
	c.run(context.Background(), &out, "--json", "first")
	id := sessionOf(t, out.String())
	if stderr, code := c.run(context.Background(), &out, "--session", id, "second"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if processesOf(bin) != 1 || processesOf(c.bin) != 1 {
		t.Fatalf("serve %d, agents %d right after the call", processesOf(bin), processesOf(c.bin))
	}
	// Idle for its TTL: serve exits and takes its agent's group with it.
	waitGone(t, bin, 15*time.Second)
	waitGone(t, c.bin, 5*time.Second)
	if _, err := os.Lstat(filepath.Join(dir, "serve.sock")); !os.IsNotExist(err) {
		t.Fatalf("serve left its socket: %v", err)
	}
}

// serve exits soon after its agent died: it has nothing left to keep warm.
func TestServeExitsWhenItsAgentDies(t *testing.T) {
	unixsock.Need(t)
	c := newChatEnv(t, "")
	bin, _ := withServe(t, "1m")
	var out bytes.Buffer
	c.run(context.Background(), &out, "--json", "first")
	id := sessionOf(t, out.String())
	if _, code := c.run(context.Background(), &out, "--session", id, "second"); code != ExitOK {
		t.Fatal("follow-up failed")
	}
	agents := pidsOf(c.bin)
	if len(agents) != 1 || processesOf(bin) != 1 {
		t.Fatalf("agents %v, serve %d", agents, processesOf(bin))
	}
	sendSignal(agents[0], syscall.SIGKILL)
	waitGone(t, bin, 10*time.Second)
	// The next follow-up starts a new serve and works.
	out.Reset()
	if stderr, code := c.run(context.Background(), &out, "--session", id, "third"); code != ExitOK || !strings.HasPrefix(out.String(), "You said: third") {
		t.Fatalf("after serve went: exit %d, %q, %s", code, out.String(), stderr)
	}
	if processesOf(bin) != 1 {
		t.Fatal("no new serve for the next follow-up")
	}
}

// SIGTERM, SIGHUP or SIGINT end serve the careful way: the running turn
// is cancelled and every agent's group is torn down, even an agent that
// ignores its closed stdin (a hard exit would leave this one running).
func TestServeExitsOnSignal(t *testing.T) {
	unixsock.Need(t)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			c := newChatEnv(t, "")
			bin, _ := withServe(t, "1m")
			var out bytes.Buffer
			c.run(context.Background(), &out, "--json", "first")
			id := sessionOf(t, out.String())
			done := make(chan int, 1)
			go func() {
				var o bytes.Buffer
				_, code := c.run(context.Background(), &o, "--session", id, "#hang")
				done <- code
			}()
			deadline := time.Now().Add(20 * time.Second)
			for count(c.methods(), "session/prompt") < 2 {
				if time.Now().After(deadline) {
					t.Fatal("the hanging prompt never reached serve's agent")
				}
				time.Sleep(20 * time.Millisecond)
			}
			pids := pidsOf(bin)
			if len(pids) != 1 {
				t.Fatalf("serve processes: %v", pids)
			}
			sendSignal(pids[0], sig)
			select {
			case code := <-done:
				if code != ExitCancelled {
					t.Fatalf("the CLI whose turn serve gave up exited %d", code)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the CLI did not return after serve was signalled")
			}
			waitGone(t, bin, 15*time.Second)
			waitGone(t, c.bin, 5*time.Second)
		})
	}
}

// A socket that is not this user's private one is never used: the turn
// runs here as without serve, and stderr says why.
func TestForeignSocketRefused(t *testing.T) {
	unixsock.Need(t)
	cases := []struct {
		name  string
		plant func(path string) error
		want  string
	}{
		{"open to others", func(p string) error { return os.Chmod(p, 0o666) }, "lets others in"},
	}
	if os.Getuid() == 0 {
		cases = append(cases, struct {
			name  string
			plant func(path string) error
			want  string
		}{"another user's", func(p string) error { return os.Lchown(p, 65534, 65534) }, "owned by uid 65534"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newChatEnv(t, "")
			bin, dir := withServe(t, "1m")
			var out bytes.Buffer
			c.run(context.Background(), &out, "--json", "first")
			id := sessionOf(t, out.String())
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("unix", filepath.Join(dir, "serve.sock"))
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan struct{}, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					accepted <- struct{}{}
					c.Close()
				}
			}()
			if err := tc.plant(filepath.Join(dir, "serve.sock")); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			stderr, code := c.run(context.Background(), &out, "--session", id, "second")
			if code != ExitOK || !strings.HasPrefix(out.String(), "You said: second") {
				t.Fatalf("exit %d, stdout %q, stderr %s", code, out.String(), stderr)
			}
			if !strings.Contains(stderr, "warning: not using a warm agent") || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr does not say why the socket was refused:\n%s", stderr)
			}
			select {
			case <-accepted:
				t.Fatal("the CLI connected to the foreign socket")
			default:
			}
			if processesOf(bin) != 0 {
				t.Fatal("a serve was started beside the foreign socket")
			}
		})
	}
}

func TestChatWithoutServeAsBefore(t *testing.T) {
	c := newChatEnv(t, "")
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(EnvServe, "0")
	var out bytes.Buffer
	c.run(context.Background(), &out, "--json", "first")
	id := sessionOf(t, out.String())
	out.Reset()
	stderr, code := c.run(context.Background(), &out, "--session", id, "second")
	if code != ExitOK || !strings.HasPrefix(out.String(), "You said: second") || strings.Contains(stderr, "warning") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out.String(), stderr)
	}
	if entries, _ := os.ReadDir(rt); len(entries) != 0 {
		t.Fatalf("the runtime dir was touched: %v", entries)
	}
	if m := c.methods(); count(m, "initialize") != 2 {
		t.Fatalf("want one agent per call, got %v", m)
	}
	// newChatEnv's cleanup checks no agent outlived its command.
}

// pidsOf lists live processes running exe.
func pidsOf(exe string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink("/proc/" + e.Name() + "/exe")
		if err != nil || strings.TrimSuffix(target, " (deleted)") != exe {
			continue
		}
		// The agent's shim is this binary too (re-executed under its own name).
		if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && strings.TrimSpace(string(comm)) == agent.ShimComm {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := strings.LastIndexByte(string(st), ')'); i > 0 && strings.HasPrefix(string(st)[i+1:], " Z") {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

// sendSignal sends sig to pid (on Windows only SIGKILL exists, as TerminateProcess).
func sendSignal(pid int, sig syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}
