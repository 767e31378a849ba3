//go:build unix

package turns

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/procfs"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
	"cdxtheme/internal/testrig/testbin"
)

// The serve section: follow-ups on one session as a script makes them (a
// fresh client process per prompt), on the real adapter and the mock
// model, four clients taking turns round by round: `cdxtheme chat
// --session` through a warm `cdxtheme serve`; acpx on its own session,
// whose queue-owner process keeps the agent between calls; the same
// cdxtheme command without serve (spawn, initialize, resume); and the SDK
// client, which has no process that outlives a call (spawn, initialize,
// session/resume).

// Serve rows, in table order.
const (
	whatServeCold = "cli follow-up: first chunk through serve vs without"
	whatServeAcpx = "cli follow-up: first chunk through serve vs acpx warm follow-up"
	whatServeSDK  = "cli follow-up: first chunk without serve vs SDK client (spawn + resume)"
)

// acpxTTL is the idle TTL acpx's queue owner gets: longer than the section
// takes, so every timed follow-up finds it (the run checks it stayed the
// same process).
const acpxTTL = 15 * time.Minute

// followUps are the first-chunk times of each client's follow-ups.
type followUps struct {
	viaServe, without, acpx, sdk table.Measure
}

func MeasureServe(cfg Config, log zerolog.Logger, progress func(string)) []table.Row {
	fail := func(err error) []table.Row {
		return []table.Row{table.Failed(whatServeCold, "-", err), table.Failed(whatServeAcpx, "≤ 0.80", err), table.Failed(whatServeSDK, "-", err)}
	}
	load := table.LoadAverage()
	f, err := serveFollowUps(cfg, progress)
	if err != nil {
		return fail(err)
	}
	rows := []table.Row{
		table.Compare(whatServeCold, f.viaServe, f.without, 0, "-"),
		table.Compare(whatServeAcpx, f.viaServe, f.acpx, 0.8, "≤ 0.80"),
		table.Compare(whatServeSDK, f.without, f.sdk, 0, "-"),
	}
	rows[0].Note = "these rows: time from starting a client process to the first chunk of the answer to a follow-up prompt on an existing session, " +
		cfg.Adapter + " against the loopback mock model, the four clients taking turns round by round (load average " + load + " when the section started); " +
		"through serve: `cdxtheme chat --json --session ID`, the agent kept warm by `cdxtheme serve` (started on demand by the first follow-up); " +
		"without: the same with CDXTHEME_SERVE=0, the command spawns, initializes and resumes"
	rows[1].Note = fmt.Sprintf("acpx 0.19.1 as its README has a user do it: `acpx --agent CMD --cwd DIR sessions new`, then `acpx ... prompt TEXT` per follow-up "+
		"(--format json --deny-all --ttl %d); its detached queue owner holds the agent and the session between calls and was the same process for every timed follow-up", int(acpxTTL.Seconds()))
	rows[2].Note = "the SDK client (sdk-client.mjs on @agentclientprotocol/sdk 2.4.0) cannot hold an agent across processes: the SDK is a library with no owner process, so a scripted " +
		"follow-up is spawn + initialize + session/resume + prompt, the same work as `cdxtheme chat --session` without serve"
	return rows
}

func serveFollowUps(cfg Config, progress func(string)) (f followUps, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return f, err
	}
	adapter, err := peers.Find(dir, cfg.Adapter)
	if err != nil {
		return f, err
	}
	root, err := peers.RepoRoot()
	if err != nil {
		return f, err
	}
	cp, err := findClients(root)
	if err != nil {
		return f, err
	}
	if err := procfs.Available(); err != nil {
		return f, fmt.Errorf("the section waits on the agents' processes, which needs /proc: %w", err)
	}
	progress("serve: building cdxtheme (plain go build)")
	tmp, err := os.MkdirTemp("", "cdxtheme-bench-serve-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(tmp)
	bin, err := testbin.Build(tmp)
	if err != nil {
		return f, fmt.Errorf("build cdxtheme: %w", err)
	}
	mock, err := respmock.Start(context.Background(), answer)
	if err != nil {
		return f, err
	}
	defer mock.Close()
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		return f, err
	}
	cwd := filepath.Join(filepath.Dir(home.Dir), "workspace")
	runtimeDir := filepath.Join(tmp, "run")
	userHome := filepath.Join(tmp, "home") // acpx keeps its sessions under $HOME/.acpx
	for _, d := range []string{cwd, runtimeDir, userHome} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return f, err
		}
	}
	env := append(os.Environ(), home.Env()...)
	env = append(env, "HOME="+userHome, "XDG_RUNTIME_DIR="+runtimeDir, "CDXTHEME_CONFIG_DIR="+filepath.Join(tmp, "config"),
		"CDXTHEME_DATA_DIR="+filepath.Join(tmp, "data"), "CDXTHEME_NO_KEYRING=1", "CDXTHEME_AGENT="+adapter.Words(), "CDXTHEME_SERVE_TTL=10m")
	noServe := append(append([]string(nil), env...), "CDXTHEME_SERVE=0")
	acpxArgs := func(args ...string) []string {
		return append([]string{cp.node, cp.acpx, "--agent", adapter.Words(), "--format", "json", "--deny-all", "--cwd", cwd,
			"--ttl", strconv.Itoa(int(acpxTTL.Seconds()))}, args...)
	}
	defer func() {
		stop := exec.Command(bin, "serve", "--stop")
		stop.Env = env
		stop.Run()
		if cerr := stopAcpx(acpxArgs, env, cwd, userHome); cerr != nil && err == nil {
			err = cerr
		}
		if left := home.WaitGone(15 * time.Second); len(left) != 0 && err == nil {
			err = fmt.Errorf("adapter processes left behind: %v", left)
		}
		if cerr := home.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()

	seq := 0
	next := func(client string) string {
		seq++
		return fmt.Sprintf("%s-%d", client, seq)
	}
	chat := func(env []string, sid string) (time.Duration, string, error) {
		prompt := next("serve")
		args := []string{"chat", "--json", "--permission", "deny", "--cwd", cwd}
		if sid != "" {
			args = append(args, "--session", sid)
		}
		return runChatCLI(bin, append(args, prompt), env, firstWord(prompt), cfg.Timeout)
	}
	acpxPrompt := func() (time.Duration, error) {
		prompt := next("acpx")
		r, err := runClient(followUpClient("acpx", firstWord(prompt), `"stopReason"`), acpxArgs("prompt", prompt), env, cwd, true, cfg.Timeout+30*time.Second)
		if err != nil {
			return 0, fmt.Errorf("acpx prompt: %w", err)
		}
		return r.firstChunk, nil
	}
	var sdkSID string
	sdkPrompt := func() (time.Duration, error) {
		prompt := next("sdk")
		e := env
		if sdkSID != "" {
			e = append(append([]string(nil), env...), "SDK_CLIENT_SESSION="+sdkSID)
		}
		var sid string
		c := followUpClient("SDK client", firstWord(prompt), `"type":"done"`)
		isDone := c.isDone
		c.isDone = func(l string) bool {
			if !isDone(l) {
				return false
			}
			var done struct{ SessionID string }
			if json.Unmarshal([]byte(l), &done) == nil {
				sid = done.SessionID
			}
			return true
		}
		argv := append([]string{cp.node, cp.sdk, strconv.FormatInt(cfg.Timeout.Milliseconds(), 10), prompt, adapter.Path}, adapter.Args...)
		r, err := runClient(c, argv, e, cwd, true, cfg.Timeout+30*time.Second)
		if err != nil {
			return 0, fmt.Errorf("SDK client: %w", err)
		}
		if sid == "" {
			return 0, errors.New("SDK client: no session in its done line")
		}
		sdkSID = sid
		return r.firstChunk, nil
	}

	// A session each, so no session is resumed by two processes.
	progress("serve: a first prompt through each client (untimed)")
	_, warmSID, err := chat(noServe, "")
	if err != nil {
		return f, err
	}
	_, coldSID, err := chat(noServe, "")
	if err != nil {
		return f, err
	}
	created := func(l string) bool { return strings.Contains(l, `"acpxSessionId"`) }
	if _, err := runClient(cliClient{name: "acpx", isChunk: created, isDone: created}, acpxArgs("sessions", "new"), env, cwd, true, time.Minute); err != nil {
		return f, fmt.Errorf("acpx sessions new: %w", err)
	}
	if _, err := acpxPrompt(); err != nil {
		return f, err
	}
	if _, err := sdkPrompt(); err != nil {
		return f, err
	}
	// Each side's first follow-up carries Codex's one-off title request,
	// and starts serve or acpx's queue owner where the first prompt did not.
	progress("serve: one untimed follow-up through each client")
	for _, run := range []func() error{
		func() error { _, _, err := chat(env, warmSID); return err },
		func() error { _, _, err := chat(env, warmSID); return err },
		func() error { _, err := acpxPrompt(); return err },
		func() error { _, _, err := chat(noServe, coldSID); return err },
		func() error { _, err := sdkPrompt(); return err },
	} {
		if err := run(); err != nil {
			return f, err
		}
	}
	owner, err := acpxOwner(userHome)
	if err != nil {
		return f, err
	}
	// The warm agents (serve's and acpx's) stay; the cold clients' agents
	// must be gone before the next run, or they would load it.
	time.Sleep(3 * time.Second)
	warm := map[int]bool{}
	for _, pid := range home.Processes() {
		warm[pid] = true
	}
	settle := func() {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if !slices.ContainsFunc(home.Processes(), func(pid int) bool { return !warm[pid] }) {
				return
			}
		}
	}

	progress(fmt.Sprintf("serve: %d rounds of follow-ups: through serve, acpx, without serve, SDK client", cfg.N))
	var rs, ra, rc, rk []time.Duration
	for i := 0; i < cfg.N; i++ {
		d, _, err := chat(env, warmSID)
		if err != nil {
			return f, err
		}
		rs = append(rs, d)
		if d, err = acpxPrompt(); err != nil {
			return f, err
		}
		ra = append(ra, d)
		if d, _, err = chat(noServe, coldSID); err != nil {
			return f, err
		}
		rc = append(rc, d)
		settle()
		if d, err = sdkPrompt(); err != nil {
			return f, err
		}
		rk = append(rk, d)
		settle()
	}
	if again, err := acpxOwner(userHome); err != nil || again != owner {
		return f, fmt.Errorf("acpx's queue owner did not hold the agent through the run (pid %d, then %d, %v)", owner, again, err)
	}
	return followUps{viaServe: table.NewMeasure("serve", rs), without: table.NewMeasure("without", rc), acpx: table.NewMeasure("acpx", ra), sdk: table.NewMeasure("sdk", rk)}, nil
}

// followUpClient reads a client's stdout for the first chunk of one answer:
// a line carrying the answer's first word as a text value.
func followUpClient(name, want, done string) cliClient {
	return cliClient{name: name,
		isChunk: func(l string) bool { return strings.Contains(l, `"text":"`+want) },
		isDone:  func(l string) bool { return strings.Contains(l, done) }}
}

// acpxOwner is the pid of the live acpx queue owner under home: the one
// process that holds its agent between calls.
func acpxOwner(home string) (int, error) {
	locks, _ := filepath.Glob(filepath.Join(home, ".acpx", "queues", "*.lock"))
	for _, l := range locks {
		b, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		var lock struct{ PID int }
		if json.Unmarshal(b, &lock) == nil && lock.PID > 0 && syscall.Kill(lock.PID, 0) == nil {
			return lock.PID, nil
		}
	}
	return 0, fmt.Errorf("no live acpx queue owner under %s", home)
}

// stopAcpx closes acpx's session, which ends its queue owner and agent;
// an owner still alive after that is ended by its pid.
func stopAcpx(args func(...string) []string, env []string, cwd, home string) error {
	owner, err := acpxOwner(home)
	if err != nil {
		return nil // never started, or gone already
	}
	argv := args("sessions", "close")
	c := exec.Command(argv[0], argv[1:]...)
	c.Env, c.Dir = env, cwd
	out, cerr := c.CombinedOutput()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(owner, 0) != nil {
			return nil
		}
	}
	syscall.Kill(owner, syscall.SIGTERM)
	return fmt.Errorf("acpx sessions close left its queue owner %d running (%v: %s)", owner, cerr, table.Tail(string(out), 300))
}

// runChatCLI runs the CLI and returns the time from its start to the first
// text event starting with want, and the session of its done event.
func runChatCLI(bin string, args, env []string, want string, timeout time.Duration) (time.Duration, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, "", err
	}
	var first time.Duration
	sid := ""
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev struct{ Type, Text, SessionID string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Type == "text" && first == 0 && strings.HasPrefix(ev.Text, want) {
			first = time.Since(start)
		}
		if ev.Type == "done" {
			sid = ev.SessionID
		}
	}
	if err := cmd.Wait(); err != nil {
		return 0, "", fmt.Errorf("cdxtheme %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if first == 0 || sid == "" {
		return 0, "", fmt.Errorf("cdxtheme %s: no answer (%s)", strings.Join(args, " "), stderr.String())
	}
	return first, sid, nil
}
