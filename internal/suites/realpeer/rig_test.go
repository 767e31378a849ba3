package realpeer

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/procfs"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// turnTimeout bounds every turn: generous for a loaded 2-core machine,
// short enough that a hung adapter fails the test instead of the run.
const turnTimeout = 60 * time.Second

// rig is one adapter wired to its own mock model and Codex home.
type rig struct {
	t       *testing.T
	adapter peers.Adapter
	mock    *respmock.Server
	home    *peers.Home
	cwd     string
	engine  *chat.Engine
}

type rigOptions struct {
	warm bool
	mode string // "" = the adapter's default; "workspace" = sandboxed to the workspace, asking for more
}

func newRig(t *testing.T, a peers.Adapter, opts rigOptions) *rig {
	t.Helper()
	if err := procfs.Available(); err != nil {
		t.Skipf("the leftover-process checks cannot look here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	mock, err := respmock.Start(ctx, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	home := peers.TestHome(t, peers.HomeOptions{BaseURL: mock.BaseURL(), Mode: opts.mode})
	r := &rig{t: t, adapter: a, mock: mock, home: home, cwd: t.TempDir()}
	r.engine = chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{Override: a.Words()},
		Version: "realpeer-test",
		Warm:    opts.warm,
		Timeout: turnTimeout,
		Env:     home.Env(),
		Log:     zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel),
	})
	// Registered after TestHome's cleanup, so it runs before the home is removed.
	t.Cleanup(func() {
		_ = r.engine.Close()
		cancel()
		_ = mock.Close()
		r.assertNoProcesses()
	})
	return r
}

// assertNoProcesses fails when anything started with this rig's CODEX_HOME
// is still alive, and kills it so one leak does not spoil the next test.
func (r *rig) assertNoProcesses() {
	r.t.Helper()
	left := r.home.WaitGone(15 * time.Second)
	if len(left) == 0 {
		return
	}
	var desc []string
	for _, pid := range left {
		cmd, _ := procfs.Cmdline(pid)
		desc = append(desc, strconv.Itoa(pid)+" "+strings.Join(cmd, " "))
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
	r.t.Errorf("adapter processes left behind:\n%s", strings.Join(desc, "\n"))
}

// events collects what a turn emitted.
type events struct {
	mu  sync.Mutex
	all []chat.Event
}

func (e *events) add(ev chat.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

func (e *events) list() []chat.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]chat.Event(nil), e.all...)
}

func (e *events) ofType(typ string) []chat.Event {
	var out []chat.Event
	for _, ev := range e.list() {
		if ev.Type() == typ {
			out = append(out, ev)
		}
	}
	return out
}

// text joins the turn's text events, as the chat view shows them.
func (e *events) text() string {
	var b strings.Builder
	for _, ev := range e.ofType(chat.EventText) {
		b.WriteString(ev.Payload.(chat.TextChunk).Text)
	}
	return b.String()
}

func (e *events) last() chat.Event {
	all := e.list()
	if len(all) == 0 {
		return chat.Event{}
	}
	return all[len(all)-1]
}

// turn runs one turn with a bounded context; on top of Run's own checks it
// fails the test when the turn does not end with exactly one done/error.
func (r *rig) turn(t chat.Turn) (chat.Result, *events, error) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout+10*time.Second)
	defer cancel()
	return r.turnCtx(ctx, t, nil)
}

func (r *rig) turnCtx(ctx context.Context, t chat.Turn, onEvent func(chat.Event)) (chat.Result, *events, error) {
	r.t.Helper()
	if t.Cwd == "" {
		t.Cwd = r.cwd
	}
	evs := &events{}
	res, err := r.engine.Run(ctx, t, func(ev chat.Event) {
		evs.add(ev)
		if onEvent != nil {
			onEvent(ev)
		}
	})
	ends := 0
	for _, ev := range evs.list() {
		if ev.Type() == chat.EventDone || ev.Type() == chat.EventError {
			ends++
		}
	}
	if last := evs.last().Type(); ends == 0 || (last != chat.EventDone && last != chat.EventError) {
		r.t.Errorf("turn did not end with done or error; last event %q", last)
	}
	return res, evs, err
}

// modelOptions reads the values of the model config option from a session
// event (the session/new|load|resume result as the agent sent it).
func modelOptions(t *testing.T, evs *events) (current string, values []string) {
	t.Helper()
	for _, ev := range evs.ofType(chat.EventSession) {
		if ev.Payload.(chat.SessionSetup).Setup == nil {
			t.Fatalf("session event without its setup: %+v", ev)
		}
		for _, o := range ev.Payload.(chat.SessionSetup).Setup.ConfigOptions {
			if o.Category == "model" || o.ID == "model" {
				for _, v := range o.Values() {
					values = append(values, v.Value)
				}
				return o.Value, values
			}
		}
	}
	t.Fatal("no session event with a model config option")
	return "", nil
}

// forEachPeer runs f as a subtest per installed adapter.
func forEachPeer(t *testing.T, f func(t *testing.T, a peers.Adapter)) {
	for _, a := range peers.Require(t) {
		t.Run(a.Name, func(t *testing.T) { f(t, a) })
	}
}
