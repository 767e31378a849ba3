package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/fixtures"
	"cdxtheme/internal/testrig/testbin"

	"github.com/rs/zerolog"
)

// matrix counts the fault matrix's cases (not the instruments' own tests).
var matrix Tally

// skipReasons holds why a case skipped, by test name, for the report.
var skipReasons sync.Map

// atExit runs after every case (servers shared between cases).
var atExit []func()

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range atExit {
		f()
	}
	if seqBin != "" {
		os.RemoveAll(filepath.Dir(seqBin))
	}
	testbin.Remove()
	// The summary is the very last line of the output.
	fmt.Print(matrix.Report())
	if _, failed, _ := matrix.Counts(); failed > 0 && code == 0 {
		code = 1
	}
	os.Exit(code)
}

// matrixCase is one row of the fault matrix.
type matrixCase struct {
	name string
	run  func(t *testing.T)
}

// runMatrix runs each case as a subtest and records its outcome. A panic
// in a case is a failure of that case, not of the whole run.
func runMatrix(t *testing.T, cases []matrixCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Registered first, so it runs after every other cleanup (the
			// process and CODEX_HOME checks) and sees their verdicts.
			t.Cleanup(func() {
				switch {
				case t.Failed():
					matrix.Record(t.Name(), Failed, "")
				case t.Skipped():
					why, _ := skipReasons.Load(t.Name())
					s, _ := why.(string)
					matrix.Record(t.Name(), Skipped, s)
				default:
					matrix.Record(t.Name(), Passed, "")
				}
			})
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("the case panicked: %v\n%s", r, debug.Stack())
				}
			}()
			c.run(t)
		})
	}
}

// skipCase skips t with a reason that the final report repeats.
func skipCase(t *testing.T, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	skipReasons.Store(t.Name(), why)
	t.Skip(why)
}

// copyHome copies the real Codex sample home (internal/testrig/fixtures) to dst.
func copyHome(t *testing.T, dst string) {
	t.Helper()
	if err := fixtures.CopyCodexHome(dst); err != nil {
		t.Fatal(err)
	}
}

// guardHome makes a copy of the sample Codex home, points CODEX_HOME at it
// and checks at cleanup that nothing was written into it.
func guardHome(t *testing.T, dir string) string {
	t.Helper()
	copyHome(t, dir)
	t.Setenv("CODEX_HOME", dir)
	watchHome(t, dir)
	return dir
}

// watchHome snapshots dir now and fails the case at cleanup if anything
// under it changed (bytes, sizes, modes, mtimes, listing).
func watchHome(t *testing.T, dir string) {
	t.Helper()
	before, err := Take(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		after, err := Take(dir)
		if err != nil {
			t.Errorf("CODEX_HOME snapshot after the case: %v", err)
			return
		}
		if d := before.Diff(after); len(d) > 0 {
			t.Errorf("something wrote into CODEX_HOME %s:\n  %s", dir, strings.Join(d, "\n  "))
		}
	})
}

var caseSeq atomic.Int64

// rig runs turns of one case against an agent through core/chat, the
// engine the desktop app and the CLI use.
type rig struct {
	t       *testing.T
	bin     string // the fake agent
	cwd     string
	logPath string
	marker  string // KEY=VALUE in every agent process's environment
	home    string
	engine  *chat.Engine
	watch   *Watch
	timeout time.Duration
	// expectSpawn: the case must have seen an agent process, so the
	// leftover check cannot pass vacuously.
	expectSpawn bool
	// onEvent, if set, sees every event as it is emitted (to act mid-turn).
	onEvent func(chat.Event)
}

type rigOptions struct {
	scenario string
	env      []string
	warm     bool
	timeout  time.Duration
	// resolve replaces the default (the fake agent as override).
	resolve *agent.ResolveOptions
	// command is the agent command line instead of the fake agent.
	command string
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	bin := fakeagenttest.Build(t)
	root := t.TempDir()
	r := &rig{
		t:           t,
		bin:         bin,
		cwd:         filepath.Join(root, "workspace"),
		logPath:     filepath.Join(root, "agent.log"),
		marker:      fmt.Sprintf("CDXTHEME_FAULTS_CASE=%d-%d", os.Getpid(), caseSeq.Add(1)),
		timeout:     o.timeout,
		expectSpawn: o.resolve == nil,
	}
	if err := os.MkdirAll(r.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	r.home = guardHome(t, filepath.Join(root, "codex-home"))
	scenario := o.scenario
	if scenario == "" {
		scenario = "normal"
	}
	env := append([]string{
		r.marker,
		"CODEX_HOME=" + r.home,
		"FAKE_AGENT_SCENARIO=" + scenario,
		"FAKE_AGENT_STATE=" + filepath.Join(root, "agent-state"),
		"FAKE_AGENT_LOG=" + r.logPath,
	}, o.env...)
	resolve := agent.ResolveOptions{Override: strconv.Quote(bin)}
	if o.command != "" {
		resolve.Override = o.command
	}
	if o.resolve != nil {
		resolve = *o.resolve
	}
	if r.timeout == 0 {
		r.timeout = 3 * time.Minute // generous: a loaded 2-core machine
	}
	r.engine = chat.NewEngine(chat.Options{
		Resolve: resolve,
		Version: "faults",
		Warm:    o.warm,
		Timeout: r.timeout,
		Env:     env,
		Log:     zerolog.Nop(),
	})
	r.watch = StartWatch(r.marker, 100*time.Millisecond)
	t.Cleanup(r.finish)
	return r
}

// finish closes the engine and checks that no agent process is left: none
// carrying the case's marker is alive, and every process group seen
// during the case is gone (zombies under a non-reaping PID 1 count as gone).
func (r *rig) finish() {
	t := r.t
	if err := r.engine.Close(); err != nil {
		t.Errorf("engine Close: %v", err)
	}
	seen, err := r.watch.Stop()
	if errors.Is(err, ErrNoProc) {
		skipCase(t, "the leftover-process checks cannot look here: %v", err)
	}
	if r.expectSpawn && len(seen) == 0 {
		t.Errorf("no agent process was ever seen, so the leftover check proves nothing")
	}
	if live, err := Marked(r.marker); err != nil {
		t.Errorf("cannot look for leftover agent processes: %v", err)
	} else if len(live) > 0 {
		t.Errorf("agent processes left behind: %v", live)
	}
	for _, g := range Groups(seen) {
		if gone, live := GroupGone(g); !gone {
			t.Errorf("process group %d of the agent is still alive: %v", g, live)
		}
	}
}

// turnLog is what one Run produced.
type turnLog struct {
	events []chat.Event
	res    chat.Result
	err    error
}

func (l turnLog) last() chat.Event {
	if len(l.events) == 0 {
		return chat.Event{}
	}
	return l.events[len(l.events)-1]
}

// text joins the text events, as the chat view shows them.
func (l turnLog) text() string {
	var b strings.Builder
	for _, e := range l.events {
		if e.Type() == chat.EventText {
			b.WriteString(e.Payload.(chat.TextChunk).Text)
		}
	}
	return b.String()
}

func (l turnLog) ofType(typ string) []chat.Event {
	var out []chat.Event
	for _, e := range l.events {
		if e.Type() == typ {
			out = append(out, e)
		}
	}
	return out
}

// run runs one turn in the rig's workspace and checks what every turn
// owes the UI: events end with exactly one done or error, errors are
// *chat.Error matching the final event, and the streamed text is kept in
// the Result.
func (r *rig) run(ctx context.Context, turn chat.Turn) turnLog {
	r.t.Helper()
	if turn.Cwd == "" {
		turn.Cwd = r.cwd
	}
	var l turnLog
	sampled := false
	l.res, l.err = r.engine.Run(ctx, turn, func(ev chat.Event) {
		// An event proves an agent runs right now; a session event comes
		// from each connection the turn opens (a retry opens a second).
		if !sampled || ev.Type() == chat.EventSession {
			sampled = true
			r.watch.Sample()
		}
		l.events = append(l.events, ev)
		if r.onEvent != nil {
			r.onEvent(ev)
		}
	})
	checkTurnShape(r.t, l)
	return l
}

func checkTurnShape(t *testing.T, l turnLog) {
	t.Helper()
	if len(l.events) == 0 {
		t.Fatalf("the turn emitted no events (err %v)", l.err)
	}
	terminal := 0
	for _, e := range l.events {
		if e.Type() == chat.EventDone || e.Type() == chat.EventError {
			terminal++
		}
	}
	last := l.last()
	if terminal != 1 || (last.Type() != chat.EventDone && last.Type() != chat.EventError) {
		t.Errorf("want exactly one done/error event, last: %d terminal events, last is %q", terminal, last.Type())
	}
	if l.err != nil {
		var ce *chat.Error
		if !errors.As(l.err, &ce) {
			t.Errorf("Run returned %T, not *chat.Error: %v", l.err, l.err)
		} else if ce.Code == chat.CodeCancelled {
			if last.Type() != chat.EventDone || last.Payload.(chat.Done).StopReason != "cancelled" {
				t.Errorf("a cancelled turn must end with done/cancelled, got %+v", last)
			}
		} else if last.Type() != chat.EventError || last.Payload.(chat.ErrorEvent).Code != ce.Code {
			t.Errorf("error %q but the last event is %+v", ce.Code, last)
		}
	} else if last.Type() != chat.EventDone {
		t.Errorf("no error but the last event is %+v", last)
	}
	if got := l.text(); got != l.text() {
		t.Errorf("Result.Text (%d bytes) differs from the streamed text (%d bytes)", len(l.text()), len(got))
	}
}

// wantError checks the error a user would see: its code, and that the
// message names what matters (the command, the agent's last words).
func wantError(t *testing.T, l turnLog, code string, mentions ...string) *chat.Error {
	t.Helper()
	var ce *chat.Error
	if !errors.As(l.err, &ce) {
		t.Fatalf("want a %s error, got %v", code, l.err)
	}
	if ce.Code != code {
		t.Fatalf("error code %q, want %q: %v", ce.Code, code, ce)
	}
	msg := ce.Error()
	t.Logf("the user sees (%s): %s", ce.Code, msg)
	for _, m := range mentions {
		if !strings.Contains(msg, m) {
			t.Errorf("the error does not mention %q:\n%s", m, msg)
		}
	}
	return ce
}

// agentLog returns the JSON messages the fake agent received, in order.
func (r *rig) agentLog() []map[string]json.RawMessage {
	r.t.Helper()
	b, err := os.ReadFile(r.logPath)
	if err != nil {
		r.t.Fatalf("read the agent's log: %v", err)
	}
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(string(b), "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// received reports whether the agent got a message with this method.
func (r *rig) received(method string) bool {
	for _, m := range r.agentLog() {
		if string(m["method"]) == strconv.Quote(method) {
			return true
		}
	}
	return false
}

var grandchildRe = regexp.MustCompile(`grandchild pid (\d+)`)
