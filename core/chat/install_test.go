package chat

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/agent"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/npmstub"

	"github.com/rs/zerolog"
)

// Kept on the subprocess fake agent: the install fetches and runs a real
// program (the fake agent packed as the adapter), which no in-process peer is.

// sidecarRig is a machine without codex-acp on PATH, with the pinned Bun
// beside the app and a stub registry serving the fake agent as the adapter.
type sidecarRig struct {
	stub  *npmstub.Server
	opts  Options
	cache string
	logf  string
	total int64 // bytes of the tarballs the install fetches
}

func newSidecarRig(t *testing.T, filler int, rate int64, timeout time.Duration) *sidecarRig {
	t.Helper()
	bun := npmstub.Bun(t)
	stub, err := npmstub.Start(npmstub.Options{
		Packages: []npmstub.Package{npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0"), npmstub.Filler(filler)},
		Rate:     rate,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stub.Close)
	home := t.TempDir()
	r := &sidecarRig{stub: stub, cache: filepath.Join(t.TempDir(), "agents"), logf: filepath.Join(t.TempDir(), "agent.log")}
	r.total = stub.TarballSize(npmstub.AgentPackage, "2.6.0") + stub.TarballSize(npmstub.FillerPackage, "1.0.0")
	env := map[string]string{"BUN_CONFIG_REGISTRY": stub.URL, "HOME": home, agent.EnvAdapterLock: stub.AdapterLockFile(t)}
	r.opts = Options{
		Resolve: agent.ResolveOptions{
			SidecarVersion: "2.6.0",
			ExeDir:         filepath.Dir(bun),
			CacheDir:       r.cache,
			Getenv:         func(k string) string { return env[k] },
			LookPath:       func(string) (string, error) { return "", exec.ErrNotFound },
		},
		Timeout: timeout,
		Env:     []string{"FAKE_AGENT_STATE=" + t.TempDir(), "FAKE_AGENT_LOG=" + r.logf, "FAKE_AGENT_SCENARIO=normal"},
		Log:     zerolog.Nop(),
	}
	return r
}

func (r *sidecarRig) run(t *testing.T, ctx context.Context) ([]Event, Result, error) {
	t.Helper()
	e := NewEngine(r.opts)
	defer e.Close()
	var evs []Event
	res, err := e.Run(ctx, Turn{Cwd: t.TempDir(), Prompt: prompt.Text("hi")}, func(ev Event) { evs = append(evs, ev) })
	return evs, res, err
}

func installEvents(evs []Event) []agent.InstallProgress {
	var out []agent.InstallProgress
	for _, ev := range evs {
		if ev.Type() == EventInstall {
			out = append(out, *ev.Payload.(InstallProgress).Install)
		}
	}
	return out
}

// The first turn on a machine that needs the sidecar installs the adapter as
// its own step, with byte progress that only grows and ends at the
// registry's total, outside the turn's timeout (the install takes longer
// than the timeout); then the turn runs on the installed agent. The next
// turn uses the installed copy without asking the registry anything.
func TestFirstTurnInstallsTheSidecarAgentThenRuns(t *testing.T) {
	// ~8 MiB at 2 MiB/s: longer than the turn timeout, which still
	// leaves a loaded machine time to start the installed agent.
	r := newSidecarRig(t, 8<<20, 2<<20, 3*time.Second)
	evs, res, err := r.run(t, context.Background())
	if err != nil {
		t.Fatalf("first turn: %v (events %v)", err, types(evs))
	}
	prog := installEvents(evs)
	if len(prog) == 0 {
		t.Fatalf("no install events: %v", types(evs))
	}
	last := prog[len(prog)-1]
	if last.Phase != agent.PhaseDone || last.Done != r.total || last.Total != r.total {
		t.Errorf("last install event %+v, want done at %d of %d", last, r.total, r.total)
	}
	var partial []int64
	for i, p := range prog {
		if p.Package != "@agentclientprotocol/codex-acp@2.6.0" {
			t.Errorf("event %d names %q", i, p.Package)
		}
		if i > 0 && p.Done < prog[i-1].Done {
			t.Errorf("progress went back: %+v after %+v", p, prog[i-1])
		}
		if p.Phase == agent.PhaseDownloading && p.Total != r.total {
			t.Errorf("downloading total %d, want the registry's %d", p.Total, r.total)
		}
		if p.Phase == agent.PhaseDownloading && p.Done > 0 && p.Done < r.total {
			partial = append(partial, p.Done)
		}
	}
	if len(partial) < 5 {
		t.Errorf("only %d progress steps between 0 and 100%% (%v): the bytes were not counted as they came", len(partial), partial)
	}
	// Every install event comes before the agent says anything.
	if i, j := slices.IndexFunc(evs, func(ev Event) bool { return ev.Type() != EventInstall }), len(prog); i != j {
		t.Errorf("install events not first: %v", types(evs))
	}
	if got := texts(evs, EventText); !strings.Contains(got, "Hello from the fake agent.") {
		t.Errorf("reply %q, want the fake agent's", got)
	}
	if res.StopReason != "end_turn" {
		t.Errorf("stop reason %q", res.StopReason)
	}
	cmd, err := agent.Resolve(r.opts.Resolve)
	if err != nil {
		t.Fatalf("after the install: %v", err)
	}
	dir := filepath.Join(r.cache, "codex-acp@2.6.0")
	if cmd.Source != agent.SourceSidecar || !slices.Contains(cmd.Args, filepath.Join(dir, "node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js")) {
		t.Errorf("resolved %s (%s), want the installed adapter in %s", cmd, cmd.Source, dir)
	}

	asked := len(r.stub.Requests())
	// The second turn installs nothing: the timeout is not what it tests.
	r.opts.Timeout = 30 * time.Second
	evs, _, err = r.run(t, context.Background())
	if err != nil {
		t.Fatalf("second turn: %v", err)
	}
	if p := installEvents(evs); len(p) != 0 {
		t.Errorf("second turn installed again: %+v", p)
	}
	if got := r.stub.Requests(); len(got) != asked {
		t.Errorf("second turn asked the registry: %v", got[asked:])
	}
	if got := texts(evs, EventText); !strings.Contains(got, "Hello from the fake agent.") {
		t.Errorf("second reply %q", got)
	}
}

// Cancelling the turn while the adapter downloads ends the install at once
// as a cancelled turn, and leaves nothing that counts as installed.
func TestCancelDuringInstallEndsTheTurn(t *testing.T) {
	r := newSidecarRig(t, 8<<20, 512<<10, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []Event
	e := NewEngine(r.opts)
	defer e.Close()
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := e.Run(ctx, Turn{Cwd: t.TempDir(), Prompt: prompt.Text("hi")}, func(ev Event) {
			evs = append(evs, ev)
			if ev.Type() == EventInstall && ev.Payload.(InstallProgress).Install.Phase == agent.PhaseDownloading && ev.Payload.(InstallProgress).Install.Done > 0 {
				cancel()
			}
		})
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the cancelled install did not end")
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeCancelled {
		t.Fatalf("err %v, want cancelled", err)
	}
	if last := evs[len(evs)-1]; last.Type() != EventDone || last.Payload.(Done).StopReason != "cancelled" {
		t.Errorf("last event %+v, want done/cancelled", last)
	}
	if took := time.Since(start); took > 12*time.Second {
		t.Errorf("cancel took until %s (the whole download is 16 s)", took)
	}
	if _, err := agent.Resolve(r.opts.Resolve); !errors.Is(err, agent.ErrNotInstalled) {
		t.Errorf("after a cancelled install Resolve = %v, want not installed", err)
	}
}

// Opening a chat only to look at it installs nothing: the open ends at
// once (a done event, no error), the registry is never asked, and nothing
// lands in the cache; the first message installs.
func TestOpenInstallsNothing(t *testing.T) {
	r := newSidecarRig(t, 1<<10, 0, 10*time.Second)
	e := NewEngine(r.opts)
	defer e.Close()
	var evs []Event
	res, err := e.Open(context.Background(), Turn{SessionID: "s-1", Cwd: t.TempDir()}, func(ev Event) { evs = append(evs, ev) })
	if err != nil || res.StopReason != "end_turn" {
		t.Fatalf("open: %v, %+v", err, res)
	}
	if got := types(evs); !slices.Equal(got, []string{EventDone}) {
		t.Errorf("events %v, want only done", got)
	}
	if reqs := r.stub.Requests(); len(reqs) != 0 {
		t.Errorf("the registry was asked %v", reqs)
	}
	if entries, _ := filepath.Glob(filepath.Join(r.cache, "*")); len(entries) != 0 {
		t.Errorf("the cache holds %v", entries)
	}
}
