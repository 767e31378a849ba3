package faults

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"

	"github.com/rs/zerolog"
)

// TestAgentFaults drives the chat engine into every way an agent process
// can fail or overwhelm it.
func TestAgentFaults(t *testing.T) {
	runMatrix(t, []matrixCase{
		{"agent missing: absolute path that does not exist", caseMissingAbsolute},
		{"agent missing: command not on PATH", caseMissingOnPath},
		{"agent missing: file is not executable", caseMissingNotExecutable},
		{"agent missing: nothing configured or installed", caseMissingEverywhere},
		{"exits before initialize", caseExitEarly},
		{"dies mid-stream", caseCrash},
		{"hangs and ignores SIGTERM", caseHang},
		{"user cancels a hung agent", caseCancelHang},
		{"teardown of a hung agent escalates to SIGKILL", caseStopHung},
		{"garbage on stdout", caseGarbage},
		{"64 MiB frame", caseBigFrame},
		{"100,000 updates in a burst", caseBurst},
		{"100,000 numbered updates arrive in order", caseBurstOrdered},
		{"100 MB of stderr", caseStderrFlood},
		{"unknown update variants", caseUnknown},
		{"cancel during a permission request", caseCancelPermission},
		{"warm connection killed between turns", func(t *testing.T) { caseWarmKilled(t, true) }},
		{"warm connection killed as the next turn starts", func(t *testing.T) { caseWarmKilled(t, false) }},
	})
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// missing runs one turn with an agent that cannot be found and checks the
// user gets agent_missing naming the command and saying how to fix it.
func missing(t *testing.T, o rigOptions, mentions ...string) {
	r := newRig(t, o)
	r.expectSpawn = false // nothing can start; the leftover check still runs
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("hello")})
	ce := wantError(t, l, chat.CodeAgentMissing, append(mentions, "Fix:")...)
	if !errors.Is(ce, agent.ErrNotFound) {
		t.Errorf("the error does not wrap agent.ErrNotFound: %v", ce)
	}
	if len(l.events) != 1 {
		t.Errorf("a missing agent produced %d events, want only the error: %+v", len(l.events), l.events)
	}
	if chat.TextOf(l.last()) == "" {
		t.Error("the error event carries no message for the UI")
	}
}

func caseMissingAbsolute(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "codex-acp")
	missing(t, rigOptions{command: strconv.Quote(p)}, p, "CDXTHEME_AGENT")
}

func caseMissingOnPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	missing(t, rigOptions{command: "codex-acp-not-installed --flag"}, `"codex-acp-not-installed"`, "not on PATH")
}

func caseMissingNotExecutable(t *testing.T) {
	// Root ignores permission bits for reading, not for executing: exec
	// needs an x bit for everyone, so this refuses as root too.
	p := filepath.Join(t.TempDir(), "codex-acp")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing(t, rigOptions{command: strconv.Quote(p)}, p, "is not executable")
}

func caseMissingEverywhere(t *testing.T) {
	exeDir := t.TempDir()
	missing(t, rigOptions{resolve: &agent.ResolveOptions{
		ExeDir:   exeDir,
		Getenv:   func(string) string { return "" },
		LookPath: func(name string) (string, error) { return "", errors.New("executable file not found in $PATH") },
	}}, "codex-acp", exeDir, "npm install -g @agentclientprotocol/codex-acp", "CDXTHEME_AGENT")
}

func caseExitEarly(t *testing.T) {
	r := newRig(t, rigOptions{scenario: "exit-early"})
	r.expectSpawn = false // it may be gone before the first sample
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("hello")})
	ce := wantError(t, l, chat.CodeAgentExit, r.bin, "before answering initialize", "exit status 1",
		"simulated startup failure")
	if !containsLine(ce.Stderr, "simulated startup failure") || !containsLine(l.last().Payload.(chat.ErrorEvent).Stderr, "simulated startup failure") {
		t.Errorf("the agent's stderr is not passed on: error %q, event %q", ce.Stderr, l.last().Payload.(chat.ErrorEvent).Stderr)
	}
	if l.last().Payload.(chat.ErrorEvent).Agent == "" || !strings.Contains(l.last().Payload.(chat.ErrorEvent).Agent, r.bin) {
		t.Errorf("the error event does not name the agent command: %q", l.last().Payload.(chat.ErrorEvent).Agent)
	}
}

func containsLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

func caseCrash(t *testing.T) {
	r := newRig(t, rigOptions{})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("please #crash now")})
	ce := wantError(t, l, chat.CodeAgentExit, r.bin, "during the turn", "exit status 3",
		"fatal: simulated crash", "panicked at src/agent.rs:42:7")
	if l.text() != "Starting work... almost there " {
		t.Errorf("the partial answer was not kept: %q", l.text())
	}
	if !containsLine(ce.Stderr, "fatal: simulated crash") {
		t.Errorf("stderr tail %q lacks the crash message", ce.Stderr)
	}
	if l.last().SessionID == "" || l.res.SessionID != l.last().SessionID {
		t.Errorf("the error does not carry the session (to retry in): %q / %q", l.last().SessionID, l.res.SessionID)
	}
}

func caseHang(t *testing.T) {
	r := newRig(t, rigOptions{timeout: 3 * time.Second})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("#hang forever")})
	wantError(t, l, chat.CodeTimeout, "longer than 3s", r.bin)
	if !strings.HasPrefix(l.text(), "Hanging (grandchild pid ") {
		t.Errorf("the text streamed before the hang was lost: %q", l.text())
	}
	if !r.received("session/cancel") {
		t.Error("the timed-out turn never sent session/cancel")
	}
	m := grandchildRe.FindStringSubmatch(l.text())
	if m == nil {
		t.Fatalf("no grandchild pid in %q", l.text())
	}
	pid, _ := strconv.Atoi(m[1])
	if p, ok := Lookup(pid); ok && !p.Zombie() {
		t.Errorf("the hung agent's grandchild survived: %v", p)
	}
}

func caseGarbage(t *testing.T) {
	r := newRig(t, rigOptions{scenario: "garbage"})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("hello")})
	// core/acp: a line that is not JSON-RPC is skipped and the connection
	// stays up; core/chat warns once.
	if l.err != nil || l.last().Payload.(chat.Done).StopReason != "end_turn" {
		t.Fatalf("the turn did not complete: %v %+v", l.err, l.last())
	}
	if l.text() != "Before the garbage. After the garbage." {
		t.Errorf("text around the garbage: %q", l.text())
	}
	warns := l.ofType(chat.EventWarning)
	if len(warns) != 1 || !strings.Contains(warns[0].Payload.(chat.Warning).Text, "not ACP") || !strings.Contains(warns[0].Payload.(chat.Warning).Text, "this is not JSON") {
		t.Errorf("want one warning quoting the bad line, got %+v", warns)
	}
}

func caseBigFrame(t *testing.T) {
	const size = 64 << 20
	r := newRig(t, rigOptions{scenario: "big-frame", env: []string{"FAKE_AGENT_FRAME_BYTES=" + strconv.Itoa(size)}})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("big")})
	if l.err != nil {
		t.Fatalf("a 64 MiB frame failed the turn: %v", l.err)
	}
	texts := l.ofType(chat.EventText)
	if len(texts) != 1 || len(texts[0].Payload.(chat.TextChunk).Text) != size {
		n := 0
		for _, e := range texts {
			n += len(e.Payload.(chat.TextChunk).Text)
		}
		t.Fatalf("want one %d-byte chunk, got %d chunks, %d bytes", size, len(texts), n)
	}
	if len(l.text()) != size || strings.Trim(l.text(), "x") != "" {
		t.Fatalf("the frame's text is not %d x's (len %d)", size, len(l.text()))
	}
}

func caseBurst(t *testing.T) {
	const n = 100000
	r := newRig(t, rigOptions{scenario: "burst", env: []string{"FAKE_AGENT_BURST=" + strconv.Itoa(n)}})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("burst")})
	if l.err != nil {
		t.Fatalf("the burst failed the turn: %v", l.err)
	}
	texts := l.ofType(chat.EventText)
	if len(texts) != n || l.text() != strings.Repeat("x", n) {
		t.Fatalf("%d of %d chunks arrived (%d bytes of text)", len(texts), n, len(l.text()))
	}
	// The session's title is sent after the burst: it must come after
	// every chunk, and the session event before them.
	firstText, lastText, title, session := -1, -1, -1, -1
	for i, e := range l.events {
		switch e.Type() {
		case chat.EventText:
			if firstText < 0 {
				firstText = i
			}
			lastText = i
		case chat.EventSessionInfo:
			title = i
		case chat.EventSession:
			session = i
		}
	}
	if !(session < firstText && lastText < title) {
		t.Errorf("out of order: session %d, text %d..%d, title %d", session, firstText, lastText, title)
	}
}

// buildSeqAgent compiles testdata/seqagent (an agent whose burst chunks
// are numbered) once per test process.
func buildSeqAgent(t *testing.T) string {
	t.Helper()
	seqOnce.Do(func() {
		dir, err := os.MkdirTemp("", "faults-seqagent-")
		if err != nil {
			seqErr = err
			return
		}
		seqBin = filepath.Join(dir, "seqagent")
		seqErr = goBuild(seqBin, "./testdata/seqagent")
	})
	if seqErr != nil {
		t.Fatalf("build seqagent: %v", seqErr)
	}
	return seqBin
}

func caseBurstOrdered(t *testing.T) {
	const n = 100000
	bin := buildSeqAgent(t)
	r := newRig(t, rigOptions{command: strconv.Quote(bin), env: []string{"SEQ_AGENT_COUNT=" + strconv.Itoa(n)}})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("count")})
	if l.err != nil {
		t.Fatalf("the burst failed the turn: %v", l.err)
	}
	texts := l.ofType(chat.EventText)
	if len(texts) != n {
		t.Fatalf("%d of %d chunks arrived", len(texts), n)
	}
	for i, e := range texts {
		if want := strconv.Itoa(i) + ","; e.Payload.(chat.TextChunk).Text != want {
			t.Fatalf("chunk %d is %q, want %q: updates were reordered or lost", i, e.Payload.(chat.TextChunk).Text, want)
		}
	}
}

// heapPeak samples HeapInuse until stop is closed and returns the peak.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tk := time.NewTicker(25 * time.Millisecond)
		defer tk.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-tk.C:
			}
		}
	}()
	return out
}

func caseStderrFlood(t *testing.T) {
	const flood = 100_000_000
	r := newRig(t, rigOptions{warm: true, env: []string{"FAKE_AGENT_STDERR_BYTES=" + strconv.Itoa(flood)}})
	ctx := ctxFor(t)

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peakc := heapPeak(stop)
	l := r.run(ctx, chat.Turn{Prompt: prompt.Text("#stderr-flood please")})
	close(stop)
	peak := <-peakc
	if l.err != nil || l.last().Payload.(chat.Done).StopReason != "end_turn" {
		t.Fatalf("the turn under a stderr flood did not complete: %v", l.err)
	}
	if !strings.HasSuffix(l.text(), "Hello from the fake agent.") {
		t.Errorf("answer under the flood: %q", l.text())
	}
	grew := int64(peak) - int64(base.HeapInuse)
	t.Logf("heap in use: %d MiB before, peak %d MiB during 100 MB of stderr (+%d MiB)", base.HeapInuse>>20, peak>>20, grew>>20)
	if grew > 32<<20 {
		t.Errorf("100 MB of agent stderr grew the heap by %d MiB: stderr is held, not drained", grew>>20)
	}

	// The same agent (kept warm) now crashes: the error quotes the end of
	// 100 MB of stderr, bounded.
	l2 := r.run(ctx, chat.Turn{SessionID: l.res.SessionID, Prompt: prompt.Text("#crash")})
	ce := wantError(t, l2, chat.CodeAgentExit, "fatal: simulated crash", "stderr noise")
	total := 0
	for _, s := range ce.Stderr {
		total += len(s)
	}
	if len(ce.Stderr) > 50 || total > 16<<10 {
		t.Errorf("the stderr tail is not bounded: %d lines, %d bytes", len(ce.Stderr), total)
	}
	if msg := ce.Error(); len(msg) > 16<<10 {
		t.Errorf("the error message is %d bytes long", len(msg))
	}
	if last := ce.Stderr[len(ce.Stderr)-1]; last != "fatal: simulated crash" {
		t.Errorf("the tail does not end with the agent's last words: %q", last)
	}
}

func caseUnknown(t *testing.T) {
	r := newRig(t, rigOptions{scenario: "unknown"})
	l := r.run(ctxFor(t), chat.Turn{Prompt: prompt.Text("hello")})
	if l.err != nil || l.last().Payload.(chat.Done).StopReason != "end_turn" {
		t.Fatalf("unknown variants failed the turn: %v", l.err)
	}
	if errs := append(l.ofType(chat.EventError), l.ofType(chat.EventWarning)...); len(errs) > 0 {
		t.Errorf("unknown variants raised errors or warnings: %+v", errs)
	}
	var future, hologram bool
	for _, e := range l.ofType(chat.EventUpdate) {
		var u struct {
			Kind    string          `json:"sessionUpdate"`
			Payload json.RawMessage `json:"payload"`
			Meta    json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(e.Payload.(chat.UnknownUpdate).Update, &u); err != nil {
			t.Fatalf("an update event's raw update is not JSON: %s", e.Payload.(chat.UnknownUpdate).Update)
		}
		if u.Kind == "future_update_kind" {
			future = string(u.Payload) == `{"answer":42}` && string(u.Meta) == `{"vendor":"fake"}`
		}
	}
	// A chunk of an unknown block type is a message chunk all the same,
	// its block passed on as the agent sent it.
	for _, e := range l.ofType(chat.EventText) {
		if c := e.Payload.(chat.TextChunk).Content; c != nil && c.Type == "hologram" {
			var b struct {
				Data string          `json:"data"`
				Meta json.RawMessage `json:"_meta"`
			}
			hologram = json.Unmarshal(c.Raw, &b) == nil && b.Data == "AAEC" && string(b.Meta) == `{"dimensions":3}`
		}
	}
	if !future || !hologram {
		t.Errorf("unknown variant passed on intact: %v, unknown content block: %v; events %+v", future, hologram, l.events)
	}
	if l.text() != "Still here." {
		t.Errorf("text after the unknown variants: %q", l.text())
	}
}

func caseCancelPermission(t *testing.T) {
	r := newRig(t, rigOptions{scenario: "permission"})
	ctx, cancel := context.WithCancel(ctxFor(t))
	defer cancel()
	asked := make(chan permission.Permission, 1)
	decider := permission.DeciderFunc(func(dctx context.Context, _ string, p permission.Permission) (string, error) {
		asked <- p
		<-dctx.Done() // the user never answers
		return "", dctx.Err()
	})
	go func() {
		select {
		case <-asked:
			cancel()
		case <-ctx.Done():
		}
	}()
	l := r.run(ctx, chat.Turn{Prompt: prompt.Text("run a tool"), Decider: decider})
	wantError(t, l, chat.CodeCancelled)
	if perms := l.ofType(chat.EventPermission); len(perms) != 1 || len(perms[0].Payload.(chat.PermissionAsked).Permission.Options) != 4 {
		t.Errorf("want the permission request shown once with its 4 options, got %+v", perms)
	}
	// The agent must have been told: its request answered "cancelled".
	var outcome string
	for _, m := range r.agentLog() {
		if _, isResp := m["result"]; isResp && m["method"] == nil {
			var res struct {
				Outcome struct {
					Outcome string `json:"outcome"`
				} `json:"outcome"`
			}
			if json.Unmarshal(m["result"], &res) == nil && res.Outcome.Outcome != "" {
				outcome = res.Outcome.Outcome
			}
		}
	}
	if outcome != "cancelled" {
		t.Errorf("the agent's permission request was answered %q, want cancelled", outcome)
	}
	if !r.received("session/cancel") {
		t.Error("no session/cancel was sent")
	}
}

// caseWarmKilled kills the warm agent between two turns of a chat. With
// settle, the next turn starts once the agent is dead (the engine finds
// the link dead); without, at once (the engine may still take the link
// and must retry on a fresh one).
func caseWarmKilled(t *testing.T, settle bool) {
	r := newRig(t, rigOptions{warm: true})
	ctx := ctxFor(t)
	l1 := r.run(ctx, chat.Turn{Prompt: prompt.Text("first")})
	if l1.err != nil {
		t.Fatalf("first turn: %v", l1.err)
	}
	marked, err := Marked(r.marker)
	if err != nil {
		t.Fatal(err)
	}
	// The agent's shim leads its group; the agent is the other member.
	var warm []Proc
	for _, p := range marked {
		if p.PID != p.PGID {
			warm = append(warm, p)
		}
	}
	if len(marked) != 2 || len(warm) != 1 {
		t.Fatalf("want exactly the warm agent and its shim alive between turns, found %v", marked)
	}
	if err := kill(warm[0].PID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for settle {
		if p, ok := Lookup(warm[0].PID); !ok {
			break // dead and reaped by the engine's agent.Process
		} else if time.Now().After(deadline) {
			t.Fatalf("the killed agent %v was not reaped", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
	l2 := r.run(ctx, chat.Turn{SessionID: l1.res.SessionID, Prompt: prompt.Text("second")})
	if l2.err != nil {
		t.Fatalf("the turn after the warm agent died failed: %v", l2.err)
	}
	if errs := append(l2.ofType(chat.EventError), l2.ofType(chat.EventWarning)...); len(errs) > 0 {
		t.Errorf("the reconnect was not transparent: %+v", errs)
	}
	if l2.res.SessionID != l1.res.SessionID || !strings.HasPrefix(l2.text(), "You said: second\n") {
		t.Errorf("second turn: session %q (want %q), text %q", l2.res.SessionID, l1.res.SessionID, l2.text())
	}
	if !r.received("session/resume") {
		t.Error("the new agent did not resume the session")
	}
	var types []string
	for _, e := range l2.events {
		types = append(types, e.Type())
	}
	t.Logf("second turn's events: %s", strings.Join(types, " "))
	inits := 0
	for _, m := range r.agentLog() {
		if string(m["method"]) == `"initialize"` {
			inits++
		}
	}
	if inits != 2 {
		t.Errorf("%d agent processes were initialized, want 2 (the killed warm one and its replacement)", inits)
	}
}

func caseCancelHang(t *testing.T) {
	r := newRig(t, rigOptions{})
	ctx, cancel := context.WithCancel(ctxFor(t))
	defer cancel()
	// The user presses Cancel once the agent has said something and hangs.
	r.onEvent = func(ev chat.Event) {
		if ev.Type() == chat.EventText && strings.HasPrefix(ev.Payload.(chat.TextChunk).Text, "Hanging") {
			cancel()
		}
	}
	l := r.run(ctx, chat.Turn{Prompt: prompt.Text("#hang")})
	wantError(t, l, chat.CodeCancelled)
	if !strings.HasPrefix(l.text(), "Hanging (grandchild pid ") {
		t.Errorf("the text streamed before the cancel was lost: %q", l.text())
	}
	if !r.received("session/cancel") {
		t.Error("cancel did not send session/cancel first")
	}
	if m := grandchildRe.FindStringSubmatch(l.text()); m != nil {
		pid, _ := strconv.Atoi(m[1])
		if p, ok := Lookup(pid); ok && !p.Zombie() {
			t.Errorf("the hung agent's grandchild survived the cancel: %v", p)
		}
	}
}

// caseStopHung drives agent.Process directly: a hung agent ignores stdin
// EOF and SIGTERM, so Stop must escalate to SIGKILL of the whole group.
func caseStopHung(t *testing.T) {
	r := newRig(t, rigOptions{})
	env := []string{r.marker, "FAKE_AGENT_STATE=" + t.TempDir(), "CODEX_HOME=" + r.home}
	proc, err := agent.Start(context.Background(), agent.Command{Path: r.bin, Env: env, Reason: "fault matrix"}, r.cwd, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Kill()
	conn := acp.NewConn(proc.Stdout(), proc.Stdin(), acp.Options{})
	hanging := make(chan string, 1)
	conn.HandleUpdates(func(_ context.Context, n acp.SessionNotification, _ error) {
		if m := grandchildRe.FindSubmatch(n.Update.Raw); m != nil {
			select {
			case hanging <- string(m[1]):
			default:
			}
		}
	})
	conn.Start()
	defer conn.Close()
	ctx := ctxFor(t)
	var ns acp.NewSessionResponse
	if err := conn.Call(ctx, acp.MethodInitialize, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersion}, nil); err != nil {
		t.Fatal(err)
	}
	if err := conn.Call(ctx, acp.MethodSessionNew, acp.NewSessionRequest{Cwd: r.cwd}, &ns); err != nil {
		t.Fatal(err)
	}
	go conn.Call(ctx, acp.MethodSessionPrompt, acp.PromptRequest{SessionID: ns.SessionID, Prompt: prompt.Text("#hang")}, nil)
	var grandchild int
	select {
	case s := <-hanging:
		grandchild, _ = strconv.Atoi(s)
	case <-ctx.Done():
		t.Fatal("the agent never reported hanging")
	}
	r.watch.Sample()
	if err := proc.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if xe := proc.ExitErr(); xe == nil || !strings.Contains(xe.Error(), "killed") {
		t.Errorf("exit status %v: the agent should only have died of SIGKILL", xe)
	}
	if gone, live := GroupGone(proc.Pid()); !gone {
		t.Errorf("Stop returned with the group alive: %v", live)
	}
	if p, ok := Lookup(grandchild); ok && !p.Zombie() {
		t.Errorf("the grandchild %v survived Stop", p)
	}
}

// kill ends pid at once: SIGKILL, or TerminateProcess on Windows.
func kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
