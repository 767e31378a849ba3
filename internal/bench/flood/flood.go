//go:build unix

// Package flood measures the flood and long-chat parts. The project's
// fake agent (internal/testrig/fakeagent, scenario flood) writes 400 MiB
// of agent_message_chunk as fast as its pipe takes them, to `cdxtheme chat
// --json` on its own and through `cdxtheme serve`; the rows are the peak
// memory of our processes and how long a Stop (the SIGINT of a Ctrl-C)
// takes to end the turn mid-flood. The long-chat rows drive one session
// through serve for 400 turns and time a turn there against an early turn
// of a new chat.
package flood

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"cdxtheme/core/procfs"
	"cdxtheme/internal/bench/bare"
	"cdxtheme/internal/bench/procmem"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/testbin"
)

// Flood and long-chat rows, in table order.
const (
	whatFloodCLIRSS      = "flood: chat --json peak RSS, 400 MiB of chunks"
	whatFloodCLIStop     = "flood: Stop (SIGINT) mid-flood → chat --json exited"
	whatFloodServeRSS    = "flood: serve peak RSS, 400 MiB of chunks"
	whatFloodServeClient = "flood: chat --session peak RSS through serve"
	whatFloodServeStop   = "flood: Stop (SIGINT) mid-flood through serve → turn ended"
	whatLongChat         = "long chat: follow-up send→done, turn 400 vs turn 3 of a new chat (serve)"
	whatLongChatAgent    = "long chat: the fake agent alone (bare ACP client), turn 400 vs turn 3"
)

// Targets of issue 22.
const (
	floodCLILimit   = 50.0   // MB
	floodServeLimit = 100.0  // MB
	StopLimit       = 1000.0 // ms
	longChatLimit   = 1.2
	longChatTurns   = 400
)

// Bytes is the flood a full run gets (the fake agent's default);
// stop runs get a longer one so the flood is surely still running when
// the Stop lands, floodStopAt bytes of output into the turn.
const (
	Bytes       = 400 << 20
	StopBytes   = 4 << 30
	floodStopAt = 100 << 20
)

func floodFailed(err error) []table.Row {
	return []table.Row{table.Failed(whatFloodCLIRSS, "≤ 50 MB", err), table.Failed(whatFloodCLIStop, "≤ 1000 ms", err),
		table.Failed(whatFloodServeRSS, "≤ 100 MB", err), table.Failed(whatFloodServeClient, "≤ 50 MB", err), table.Failed(whatFloodServeStop, "≤ 1000 ms", err)}
}

// floodRig is the CLI and the fake agent, built for this run, with a
// private config, data and runtime folder (serve's socket lives there).
type floodRig struct {
	bin, agent, cwd string
	env             []string
}

// newFloodRig builds both programs under tmp.
func newFloodRig(tmp string, progress func(string)) (*floodRig, error) {
	root, err := peers.RepoRoot()
	if err != nil {
		return nil, err
	}
	if err := procfs.Available(); err != nil {
		return nil, fmt.Errorf("peak RSS needs /proc: %w", err)
	}
	progress("flood: building cdxtheme and internal/testrig/fakeagent")
	r := &floodRig{agent: filepath.Join(tmp, "fakeagent"), cwd: filepath.Join(tmp, "workspace")}
	if r.bin, err = testbin.Build(tmp); err != nil {
		return nil, fmt.Errorf("build cdxtheme: %w", err)
	}
	build := exec.Command("go", "build", "-o", r.agent, "./internal/testrig/fakeagent")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./internal/testrig/fakeagent: %v\n%s", err, out)
	}
	for _, d := range []string{"workspace", "run", "home", "codex", "state"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o700); err != nil {
			return nil, err
		}
	}
	r.env = append(os.Environ(), "HOME="+filepath.Join(tmp, "home"), "XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"),
		"CDXTHEME_CONFIG_DIR="+filepath.Join(tmp, "config"), "CDXTHEME_DATA_DIR="+filepath.Join(tmp, "data"),
		"CODEX_HOME="+filepath.Join(tmp, "codex"), "CDXTHEME_NO_KEYRING=1", "CDXTHEME_AGENT="+r.agent,
		"FAKE_AGENT_STATE="+filepath.Join(tmp, "state"), "CDXTHEME_SERVE_TTL=10m")
	return r, nil
}

// with is the rig's environment plus kv.
func (r *floodRig) with(kv ...string) []string {
	return append(append([]string(nil), r.env...), kv...)
}

// chatArgs is `chat --json` on prompt, a follow-up of sid when set.
func (r *floodRig) chatArgs(sid, prompt string) []string {
	args := []string{"chat", "--json", "--permission", "deny", "--cwd", r.cwd}
	if sid != "" {
		args = append(args, "--session", sid)
	}
	return append(args, prompt)
}

// floodRun is one chat command under a flood.
type floodRun struct {
	bytes    int64         // stdout read
	wall     time.Duration // start → exit
	stop     time.Duration // SIGINT → exit (stop runs)
	rootMB   float64       // the command's own peak RSS
	ownMB    float64       // the command and its shims
	agentMB  float64       // the agent's processes
	last     doneLine      // the done (or error) line
	exitCode int
}

// doneLine is what the command's last done or error event said.
type doneLine struct {
	Type, SessionID, StopReason, Message string
}

// readEvents drains a chat --json stream without holding it: only the
// head of each line is looked at (a done or error line is short; a text
// line may be megabytes). It returns the bytes read and the last done or
// error event; onBytes sees the running count after each read.
func readEvents(r io.Reader, onBytes func(int64)) (int64, doneLine, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var n int64
	var last doneLine
	var head []byte
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if len(head) < 512 {
			head = append(head, chunk[:min(len(chunk), 512-len(head))]...)
		}
		if err == nil { // a whole line
			if bytes.Contains(head, []byte(`"type":"done"`)) || bytes.Contains(head, []byte(`"type":"error"`)) {
				var d doneLine
				if line := bytes.TrimSpace(head); len(line) < 512 && json.Unmarshal(line, &d) == nil && (d.Type == "done" || d.Type == "error") {
					last = d
				}
			}
			head = head[:0]
		}
		if onBytes != nil {
			onBytes(n)
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return n, last, nil
		default:
			return n, last, err
		}
	}
}

// runFlooded runs the CLI with args to its end, following its process
// tree's memory; with stopAt > 0 it sends SIGINT once that much output has
// been read and times the exit from there.
func (r *floodRig) runFlooded(args, env []string, stopAt int64, limit time.Duration) (floodRun, error) {
	var fr floodRun
	cmd := exec.Command(r.bin, args...)
	cmd.Env, cmd.Dir = env, r.cwd
	var stderr table.SyncBuffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fr, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fr, err
	}
	pid := cmd.Process.Pid
	peak := procmem.WatchTree(pid, r.bin, false)
	var stoppedAt time.Time
	kill := time.AfterFunc(limit, func() { syscall.Kill(-pid, syscall.SIGKILL) })
	defer kill.Stop()
	n, last, readErr := readEvents(out, func(n int64) {
		if stopAt > 0 && n >= stopAt && stoppedAt.IsZero() {
			stoppedAt = time.Now()
			_ = cmd.Process.Signal(syscall.SIGINT)
		}
	})
	waitErr := cmd.Wait()
	end := time.Now()
	rootKB := 0.0
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rootKB = float64(ru.Maxrss) // kB on Linux
	}
	fr.rootMB, fr.ownMB, fr.agentMB = peak.End(rootKB / 1024)
	syscall.Kill(-pid, syscall.SIGKILL) // anything the command left in its group
	fr.bytes, fr.last, fr.wall, fr.exitCode = n, last, end.Sub(start), cmd.ProcessState.ExitCode()
	if !stoppedAt.IsZero() {
		fr.stop = end.Sub(stoppedAt)
	}
	var exitErr *exec.ExitError
	switch {
	case readErr != nil:
		return fr, fmt.Errorf("read the output: %w", readErr)
	case waitErr != nil && !errors.As(waitErr, &exitErr):
		return fr, waitErr
	case time.Since(start) >= limit:
		return fr, fmt.Errorf("still running after %s (killed); stderr %s", limit, table.Tail(stderr.String(), 400))
	case stopAt > 0 && stoppedAt.IsZero():
		return fr, fmt.Errorf("the turn ended after %d bytes, before the Stop at %d (%+v)", n, stopAt, last)
	case stopAt > 0 && last.StopReason != "cancelled":
		return fr, fmt.Errorf("the Stop did not cancel the turn: exit %d, last event %+v; stderr %s", fr.exitCode, last, table.Tail(stderr.String(), 400))
	case stopAt == 0 && (fr.exitCode != 0 || last.StopReason != "end_turn"):
		return fr, fmt.Errorf("the flood turn failed: exit %d after %d bytes, last event %+v; stderr %s", fr.exitCode, n, last, table.Tail(stderr.String(), 400))
	}
	return fr, nil
}

// floodFigures are the section's measurements, in MB and durations.
type floodFigures struct {
	cliFull, cliStop, serveFull, serveStop []floodRun
	serveMB                                []float64 // serve's own peak (and its shims) per full run
	serveAgents                            int       // agent processes serve held during the flood
}

// floodRows turns the measurements into rows: each peak row is the worst
// run (a bound holds for every run), each Stop row the median with the
// worst in the note.
func floodRows(f floodFigures) []table.Row {
	own := func(runs []floodRun) []float64 {
		var v []float64
		for _, r := range runs {
			v = append(v, r.ownMB)
		}
		return v
	}
	worst := func(v []float64) table.Measure {
		m := 0.0
		for _, x := range v {
			m = max(m, x)
		}
		if len(v) == 0 {
			return table.Measure{Unit: "MB"}
		}
		return table.NewValues("worst", "MB", []float64{m})
	}
	stops := func(runs []floodRun) table.Measure {
		var d []time.Duration
		for _, r := range runs {
			d = append(d, r.stop)
		}
		return table.NewMeasure("", d)
	}
	rate := func(runs []floodRun) string {
		if len(runs) == 0 || runs[0].wall <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f MB/s", float64(runs[0].bytes)/(1<<20)/runs[0].wall.Seconds())
	}
	cliMem := append(own(f.cliFull), own(f.cliStop)...)
	clientMem := append(own(f.serveFull), own(f.serveStop)...)
	rows := []table.Row{
		table.Against(whatFloodCLIRSS, worst(cliMem), floodCLILimit, "≤ 50 MB"),
		table.Against(whatFloodCLIStop, stops(f.cliStop), StopLimit, "≤ 1000 ms"),
		table.Against(whatFloodServeRSS, worst(f.serveMB), floodServeLimit, "≤ 100 MB"),
		table.Against(whatFloodServeClient, worst(clientMem), floodCLILimit, "≤ 50 MB"),
		table.Against(whatFloodServeStop, stops(f.serveStop), StopLimit, "≤ 1000 ms"),
	}
	agentMB := 0.0
	for _, r := range f.cliFull {
		agentMB = max(agentMB, r.agentMB)
	}
	rows[0].Note = fmt.Sprintf("these rows: internal/testrig/fakeagent's flood scenario, 4 KiB agent_message_chunk lines as fast as they are read; "+
		"peak = the sum of the VmHWM of our processes (the command, or serve, and the agent shims, sampled every 10 ms; the command's own from its rusage), "+
		"the worst of %d full floods of %d MiB and %d Stop runs; output drained as fast as it comes (%s through chat --json, %s through serve); "+
		"the agent's own processes are not counted (%.0f MB at most)",
		len(f.cliFull), Bytes>>20, len(f.cliStop), rate(f.cliFull), rate(f.serveFull), agentMB)
	rows[1].Note = fmt.Sprintf("SIGINT to the command (what Ctrl-C sends) once %d MiB of the answer were read, to the command's exit with a done line saying cancelled; median of %d, worst %s",
		floodStopAt>>20, len(f.cliStop), worstDuration(f.cliStop))
	rows[2].Note = fmt.Sprintf("`cdxtheme serve` started beside the run (XDG_RUNTIME_DIR of its own), the flood a `chat --session` follow-up it runs on its warm agent; "+
		"serve and its shims, peak reset (clear_refs) before each flood; %d agent processes held at the time", f.serveAgents)
	rows[4].Note = fmt.Sprintf("SIGINT to the `chat --session` client once %d MiB were read: it sends the cancel to serve, which cancels the turn and answers with its end; to the client's exit with a done line saying cancelled; median of %d, worst %s",
		floodStopAt>>20, len(f.serveStop), worstDuration(f.serveStop))
	return rows
}

func worstDuration(runs []floodRun) string {
	var w time.Duration
	for _, r := range runs {
		w = max(w, r.stop)
	}
	return fmt.Sprintf("%.0f ms", table.MS(w))
}

// measureFlood runs the flood section.
func Measure(n int, progress func(string)) []table.Row {
	tmp, err := os.MkdirTemp("", "cdxtheme-bench-flood-")
	if err != nil {
		return floodFailed(err)
	}
	defer os.RemoveAll(tmp)
	rig, err := newFloodRig(tmp, progress)
	if err != nil {
		return floodFailed(err)
	}
	f, err := rig.floods(min(n, 3), progress)
	if err != nil {
		return floodFailed(err)
	}
	return floodRows(f)
}

// floods measures runs full floods and runs Stops each way: the command
// alone, then through serve.
func (r *floodRig) floods(runs int, progress func(string)) (f floodFigures, err error) {
	const limit = 2 * time.Minute
	full := r.with("CDXTHEME_SERVE=0", fmt.Sprintf("FAKE_AGENT_FLOOD_BYTES=%d", Bytes))
	long := r.with("CDXTHEME_SERVE=0", fmt.Sprintf("FAKE_AGENT_FLOOD_BYTES=%d", StopBytes))
	progress(fmt.Sprintf("flood: chat --json, %d floods of %d MiB and %d Stops", runs, Bytes>>20, runs))
	for i := 0; i < runs; i++ {
		fr, err := r.runFlooded(r.chatArgs("", "flood me #flood"), full, 0, limit)
		if err != nil {
			return f, fmt.Errorf("chat --json flood: %w", err)
		}
		f.cliFull = append(f.cliFull, fr)
		if fr, err = r.runFlooded(r.chatArgs("", "flood me #flood"), long, floodStopAt, limit); err != nil {
			return f, fmt.Errorf("chat --json Stop: %w", err)
		}
		f.cliStop = append(f.cliStop, fr)
	}

	// serve reads the flood size from its environment, which its agents
	// inherit: one serve per size.
	for _, size := range []int{Bytes, StopBytes} {
		env := r.with(fmt.Sprintf("FAKE_AGENT_FLOOD_BYTES=%d", size))
		err := r.withServe(env, func(serve int, sid string) error {
			for i := 0; i < runs; i++ {
				if size == Bytes {
					peak := procmem.WatchTree(serve, r.bin, true)
					fr, err := r.runFlooded(r.chatArgs(sid, "flood me #flood"), env, 0, limit)
					_, own, _ := peak.End(0)
					if err != nil {
						return fmt.Errorf("flood through serve: %w", err)
					}
					f.serveFull, f.serveMB = append(f.serveFull, fr), append(f.serveMB, own)
					if kids, err := procfs.Descendants(serve); err == nil {
						f.serveAgents = countExe(kids, r.agent)
					}
					continue
				}
				fr, err := r.runFlooded(r.chatArgs(sid, "flood me #flood"), env, floodStopAt, limit)
				if err != nil {
					return fmt.Errorf("Stop through serve: %w", err)
				}
				f.serveStop = append(f.serveStop, fr)
			}
			return nil
		})
		if err != nil {
			return f, err
		}
		if size == Bytes {
			progress(fmt.Sprintf("flood: %d floods through serve done; %d Stops through serve", runs, runs))
		}
	}
	return f, nil
}

// countExe counts the processes running exe.
func countExe(ps []procfs.Proc, exe string) int {
	n := 0
	for _, p := range ps {
		if e, err := procfs.Exe(p.PID); err == nil && e == exe {
			n++
		}
	}
	return n
}

// withServe starts `cdxtheme serve` with env, a session whose agent serve
// holds warm (a first turn, then one untimed follow-up through serve), and
// runs fn; then stops serve and waits for it to exit.
func (r *floodRig) withServe(env []string, fn func(serve int, sid string) error) (err error) {
	srv := exec.Command(r.bin, "serve", "--ttl", "10m")
	srv.Env, srv.Dir = env, r.cwd
	var stderr table.SyncBuffer
	srv.Stderr = &stderr
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := srv.Start(); err != nil {
		return fmt.Errorf("start serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	defer func() {
		stop := exec.Command(r.bin, "serve", "--stop")
		stop.Env = env
		_ = stop.Run()
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
			<-exited
			if err == nil {
				err = fmt.Errorf("serve did not exit on --stop; stderr %s", table.Tail(stderr.String(), 400))
			}
		}
	}()
	noServe := append(append([]string(nil), env...), "CDXTHEME_SERVE=0")
	sid, _, err := r.turn(noServe, "", "hello")
	if err != nil {
		return err
	}
	if _, _, err := r.turn(env, sid, "warm up"); err != nil {
		return err
	}
	if !Holds(srv.Process.Pid, r.agent) {
		return fmt.Errorf("serve holds no agent after a follow-up (did the client run the turn itself?); stderr %s", table.Tail(stderr.String(), 400))
	}
	return fn(srv.Process.Pid, sid)
}

// Holds says whether a process below pid runs exe.
func Holds(pid int, exe string) bool {
	kids, err := procfs.Descendants(pid)
	return err == nil && countExe(kids, exe) > 0
}

// turn runs one short chat turn and returns its session and the time from
// the command's start to its done line.
func (r *floodRig) turn(env []string, sid, prompt string) (string, time.Duration, error) {
	cmd := exec.Command(r.bin, r.chatArgs(sid, prompt)...)
	cmd.Env, cmd.Dir = env, r.cwd
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return "", 0, err
	}
	var doneAt time.Duration
	var done doneLine
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev doneLine
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "done" {
			doneAt, done = time.Since(start), ev
		}
	}
	if err := cmd.Wait(); err != nil {
		return "", 0, fmt.Errorf("cdxtheme %s: %v; stderr %s", strings.Join(cmd.Args[1:], " "), err, table.Tail(stderr.String(), 400))
	}
	if done.SessionID == "" || done.StopReason != "end_turn" {
		return "", 0, fmt.Errorf("cdxtheme %s: no done line ending the turn (%+v); stderr %s", strings.Join(cmd.Args[1:], " "), done, table.Tail(stderr.String(), 400))
	}
	return done.SessionID, doneAt, nil
}

// measureLongChat runs the long-chat section: one chat driven to
// longChatTurns turns through serve, then, round by round, a warm turn of
// it beside a warm turn (the third) of a new chat.
func MeasureLongChat(n int, progress func(string)) []table.Row {
	tmp, err := os.MkdirTemp("", "cdxtheme-bench-longchat-")
	if err != nil {
		return []table.Row{table.Failed(whatLongChat, "≤ 1.20", err)}
	}
	defer os.RemoveAll(tmp)
	rig, err := newFloodRig(tmp, progress)
	if err != nil {
		return []table.Row{table.Failed(whatLongChat, "≤ 1.20", err)}
	}
	var l longChat
	env := rig.with()
	noServe := rig.with("CDXTHEME_SERVE=0")
	progress(fmt.Sprintf("long chat: the agent alone, %d turns on a bare ACP connection", longChatTurns))
	floor, err := rig.bareLongChat(n)
	if err != nil {
		return []table.Row{table.Failed(whatLongChat, "≤ 1.20", err), table.Failed(whatLongChatAgent, "-", err)}
	}
	err = rig.withServe(env, func(_ int, sid string) error {
		progress(fmt.Sprintf("long chat: %d turns of one chat through serve", longChatTurns))
		for turn := 3; turn <= longChatTurns; turn++ {
			_, d, err := rig.turn(env, sid, fmt.Sprintf("turn %d of the long chat", turn))
			if err != nil {
				return fmt.Errorf("turn %d: %w", turn, err)
			}
			l.drive = append(l.drive, d)
		}
		progress(fmt.Sprintf("long chat: %d rounds, a new chat's third turn and the long chat's next", n))
		for i := 0; i < n; i++ {
			// serve keeps one chat's agent warm: each side's timed turn
			// follows an untimed one that takes the agent over.
			nsid, _, err := rig.turn(noServe, "", "a new chat")
			if err != nil {
				return err
			}
			if _, _, err := rig.turn(env, nsid, "its second turn"); err != nil {
				return err
			}
			_, d, err := rig.turn(env, nsid, "its third turn")
			if err != nil {
				return err
			}
			l.fresh = append(l.fresh, d)
			if _, _, err := rig.turn(env, sid, "back to the long chat"); err != nil {
				return err
			}
			if _, d, err = rig.turn(env, sid, "a timed turn of the long chat"); err != nil {
				return err
			}
			l.long = append(l.long, d)
		}
		return nil
	})
	if err != nil {
		return []table.Row{table.Failed(whatLongChat, "≤ 1.20", err), table.Failed(whatLongChatAgent, "-", err)}
	}
	return []table.Row{l.row(), floor.floorRow()}
}

// bareLongChat is the agent's own share: the same turns on one bare ACP
// connection (internal/bench/bare), where nothing of ours runs. Both
// sessions stay open on the one process, so the rounds alternate turn for
// turn; prompt sent → its response.
func (r *floodRig) bareLongChat(rounds int) (longChat, error) {
	var l longChat
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := bare.Start(bare.Options{Path: r.agent, Env: r.env, Dir: r.cwd})
	if err != nil {
		return l, err
	}
	defer c.Close()
	sid, err := bare.FirstTurn(ctx, c, r.cwd, "hello")
	if err != nil {
		return l, fmt.Errorf("bare client: %w", err)
	}
	prompt := func(sid, text string) (time.Duration, error) {
		start := time.Now()
		stop, err := c.Prompt(ctx, sid, text)
		if err == nil && stop != "end_turn" {
			err = fmt.Errorf("stop reason %q", stop)
		}
		if err != nil {
			return 0, fmt.Errorf("bare client: %w", err)
		}
		return time.Since(start), nil
	}
	for turn := 2; turn <= longChatTurns; turn++ {
		d, err := prompt(sid, fmt.Sprintf("turn %d of the long chat", turn))
		if err != nil {
			return l, err
		}
		if turn >= 3 {
			l.drive = append(l.drive, d)
		}
	}
	for i := 0; i < rounds; i++ {
		nsid, err := c.OpenSession(ctx, "new", r.cwd, "")
		if err != nil {
			return l, fmt.Errorf("bare client: %w", err)
		}
		var d time.Duration
		for turn := 1; turn <= 3 && err == nil; turn++ {
			d, err = prompt(nsid, fmt.Sprintf("turn %d of a new chat", turn))
		}
		if err != nil {
			return l, err
		}
		l.fresh = append(l.fresh, d)
		if d, err = prompt(sid, "a timed turn of the long chat"); err != nil {
			return l, err
		}
		l.long = append(l.long, d)
	}
	return l, nil
}

func (l longChat) floorRow() table.Row {
	r := table.Compare(whatLongChatAgent, table.NewMeasure("turn 400+", l.long), table.NewMeasure("new chat", l.fresh), 0, "-")
	r.Note = fmt.Sprintf("the same turns on one bare ACP connection to internal/testrig/fakeagent (prompt → its response), nothing of ours in between: the agent's own growth "+
		"(it reads and rewrites its whole session file, history included, on every prompt); while driving: %s", l.drivePhrase())
	return r
}

// longChat holds the long-chat section's turn times (start of the chat
// command → its done line).
type longChat struct {
	drive       []time.Duration // turns 3..longChatTurns of the long chat
	fresh, long []time.Duration // the side-by-side rounds
}

func (l longChat) row() table.Row {
	r := table.Compare(whatLongChat, table.NewMeasure("turn 400+", l.long), table.NewMeasure("new chat", l.fresh), longChatLimit, "≤ 1.20")
	r.Note = fmt.Sprintf("`chat --json --session` through `cdxtheme serve` on internal/testrig/fakeagent, start of the command to its done line; "+
		"one chat driven to %d turns, then %d rounds of a new chat's third turn beside the long chat's next (each after an untimed turn that gives it serve's one warm agent); "+
		"while driving: %s", longChatTurns, len(l.long), l.drivePhrase())
	return r
}

// drivePhrase gives the medians of the first and last 25 driven turns.
func (l longChat) drivePhrase() string {
	window := func(from, to int) string { // drive turns from..to (1-based turn numbers)
		lo, hi := max(from-3, 0), min(to-2, len(l.drive))
		if lo >= hi {
			return "-"
		}
		return fmt.Sprintf("%.1f ms", table.MS(table.Median(l.drive[lo:hi])))
	}
	return fmt.Sprintf("median of turns 3–27 %s, of turns %d–%d %s", window(3, 27), longChatTurns-24, longChatTurns, window(longChatTurns-24, longChatTurns))
}
