//go:build unix

package thirdparty

import (
	"bufio"
	"bytes"
	"cdxtheme/internal/testrig/testbin"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/core/procfs"
	"cdxtheme/internal/testrig/apimock"
	"cdxtheme/internal/testrig/peers"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Remove()
	os.Exit(code)
}

// rig is one agent against its own mock, with a HOME of its own that marks
// every process the agent starts.
type rig struct {
	t    *testing.T
	a    agent
	bin  string
	argv string
	mock *apimock.Server
	home string
	ws   string
	env  []string
}

const turnTimeout = "120s"

// need returns the agent's rig, skipping t (or failing it under
// CDXTHEME_REQUIRE_PEERS=1) when the agent is not installed. The rig lives
// until owner ends: a cell may come back to it after t's other cells.
func need(t *testing.T, owner testing.TB, a agent) *rig {
	t.Helper()
	if err := procfs.Available(); err != nil {
		t.Skipf("needs /proc to see the agent's processes: %v", err)
	}
	argv, err := a.find()
	if err != nil {
		if os.Getenv(peers.EnvRequire) == "1" {
			t.Fatalf("third-party agent required (%s=1) but missing: %v", peers.EnvRequire, err)
		}
		t.Skipf("third-party agent missing, skipping (run `make peers`; set %s=1 to fail instead): %v", peers.EnvRequire, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	mock, err := apimock.Start(ctx, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	// Not t.TempDir: the rig outlives t when a cell comes back to it.
	root, err := os.MkdirTemp("", "cdxtheme-tp-"+a.name+"-")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	owner.Cleanup(func() { _ = os.RemoveAll(root) }) // last: after the processes are gone
	r := &rig{t: t, a: a, bin: testbin.CLI(t), argv: strings.Join(argv, " "), mock: mock,
		home: filepath.Join(root, "home"), ws: filepath.Join(root, "ws")}
	for _, d := range []string{r.home, r.ws, filepath.Join(root, "codex"), filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	extra, err := a.configure(r.home, mock.URL())
	if err != nil {
		t.Fatalf("configure %s: %v", a.name, err)
	}
	// A clean environment: nothing from the developer's shell (keys, a
	// proxy, their own agent settings) reaches the agent.
	r.env = append([]string{
		"PATH=" + filepath.Dir(argv[0]) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + r.home,
		"XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(r.home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(r.home, ".local", "state"),
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"CODEX_HOME=" + filepath.Join(root, "codex"),
		"CDXTHEME_AGENT=" + r.argv,
		"CDXTHEME_CONFIG_DIR=" + filepath.Join(root, "cfg"),
		"CDXTHEME_DATA_DIR=" + filepath.Join(root, "data"),
		"CDXTHEME_NO_KEYRING=1",
		// Each turn in this process; a `serve` would outlive the test.
		"CDXTHEME_SERVE=0",
		"NO_COLOR=1",
	}, extra...)
	owner.Cleanup(func() {
		// Every cell already waited its processes out; this only keeps a
		// failed cell from leaving any behind for the next test.
		for _, pid := range r.waitGone(20 * time.Second) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		cancel()
	})
	return r
}

// processes are the live processes started with this rig's HOME: the
// agent's shim, the agent and whatever the agent started.
func (r *rig) processes() []int {
	ps, err := procfs.Marked("HOME=" + r.home)
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range ps {
		if !p.Zombie() {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// waitGone polls until the rig's processes are gone or d passed (they take
// their bounded wind-down), and returns those still alive.
func (r *rig) waitGone(d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		pids := r.processes()
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// event is one NDJSON line of `chat --json`.
type event struct {
	Type       string          `json:"type"`
	SessionID  string          `json:"sessionId"`
	Text       string          `json:"text"`
	StopReason string          `json:"stopReason"`
	Message    string          `json:"message"`
	Permission json.RawMessage `json:"permission"`
}

type result struct {
	events []event
	stderr string
	code   int
}

func (res result) text() string {
	var b strings.Builder
	for _, e := range res.events {
		if e.Type == "text" {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func (res result) count(typ string) int {
	n := 0
	for _, e := range res.events {
		if e.Type == typ {
			n++
		}
	}
	return n
}

func (res result) last() event {
	if len(res.events) == 0 {
		return event{}
	}
	return res.events[len(res.events)-1]
}

func (res result) String() string {
	b, _ := json.Marshal(res.events)
	return "exit " + strconv.Itoa(res.code) + "\nevents: " + string(b) + "\nstderr:\n" + res.stderr
}

// command is the CLI with the rig's environment, run in the workspace.
func (r *rig) command(args ...string) *exec.Cmd {
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.env
	cmd.Dir = r.ws
	return cmd
}

// run runs the CLI to its end.
func (r *rig) run(args ...string) (string, string, int) {
	r.t.Helper()
	cmd := r.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("run %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// chat runs `cdxtheme chat --json` with args.
func (r *rig) chat(args ...string) result {
	r.t.Helper()
	out, errs, code := r.run(append([]string{"chat", "--json", "--timeout", turnTimeout}, args...)...)
	return result{events: parseEvents(r.t, strings.NewReader(out)), stderr: errs, code: code}
}

func parseEvents(t *testing.T, rd io.Reader) []event {
	t.Helper()
	var evs []event
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Errorf("stdout line is not JSON: %q", sc.Text())
			continue
		}
		evs = append(evs, ev)
	}
	return evs
}

// turnFor is the last model turn the mock got whose user words are user (an
// agent may send side requests of its own around a turn).
func (r *rig) turnFor(user string) (apimock.Request, bool) {
	turns := r.mock.Turns()
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].User == user {
			return turns[i], true
		}
	}
	return apimock.Request{}, false
}

// mockLog sums up what the mock was asked, for a failure message.
func (r *rig) mockLog() string {
	var b strings.Builder
	for _, q := range r.mock.Requests() {
		user := q.User
		if len(user) > 60 {
			user = user[:60] + "…"
		}
		fmt.Fprintf(&b, "\n  %s %s model=%s side=%v tool-result=%v user=%q", q.API, q.Path, q.Model, q.JSONMode, q.ToolResult, user)
	}
	return b.String()
}
