package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/internal/peers"
	"cdxtheme/internal/respmock"
)

// The serve section: `cdxtheme chat --session` follow-ups as a script
// makes them (a fresh process per prompt) through a warm `cdxtheme serve`,
// against the same command without it (spawn, initialize, resume), on the
// real adapter and the mock model.
const secServe = "serve"

// Serve rows, in table order.
const (
	whatServeCold = "cli follow-up: first chunk through serve vs without"
	whatServeAcpx = "cli follow-up: first chunk through serve vs acpx warm follow-up"
)

// acpxNote says where the acpx side comes from until the bench clients
// (acpx 0.19.1 under Node 22) are in this tree.
const acpxNote = "acpx not measured in this run: acpx 0.19.1 and Node 22 come with the bench clients on branch proc; issue #13 measured its warm follow-up at 329 ms (target ≤ 263 ms)"

func measureServe(cfg config, log zerolog.Logger, progress func(string)) []Row {
	fail := func(err error) []Row {
		return []Row{failed(whatServeCold, "-", err), failed(whatServeAcpx, "≤ 0.80", err)}
	}
	viaServe, without, err := serveFollowUps(cfg, progress)
	if err != nil {
		return fail(err)
	}
	rows := []Row{
		compare(whatServeCold, viaServe, without, 0, "-"),
		{What: whatServeAcpx, Kind: KindRatio, A: viaServe, Target: "≤ 0.80", Status: StatusNA, Error: "acpx not in this run"},
	}
	rows[0].Note = "time from starting `cdxtheme chat --json --session ID` to the first chunk of the answer on its stdout, " +
		cfg.adapter + " against the loopback mock model; through serve: the agent kept warm by `cdxtheme serve` (started on demand by the first follow-up); without: CDXTHEME_SERVE=0, the command spawns, initializes and resumes"
	rows[1].Note = acpxNote
	return rows
}

func serveFollowUps(cfg config, progress func(string)) (viaServe, without Measure, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return viaServe, without, err
	}
	adapter, err := peers.Find(dir, cfg.adapter)
	if err != nil {
		return viaServe, without, err
	}
	root, err := peers.RepoRoot()
	if err != nil {
		return viaServe, without, err
	}
	progress("serve: building cdxtheme (plain go build)")
	tmp, err := os.MkdirTemp("", "cdxtheme-bench-serve-")
	if err != nil {
		return viaServe, without, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "cdxtheme")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return viaServe, without, fmt.Errorf("go build: %v\n%s", err, out)
	}
	mock, err := respmock.Start(context.Background(), answer)
	if err != nil {
		return viaServe, without, err
	}
	defer mock.Close()
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		return viaServe, without, err
	}
	cwd := filepath.Join(filepath.Dir(home.Dir), "workspace")
	runtimeDir := filepath.Join(tmp, "run")
	for _, d := range []string{cwd, runtimeDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return viaServe, without, err
		}
	}
	env := append(os.Environ(), home.Env()...)
	env = append(env, "XDG_RUNTIME_DIR="+runtimeDir, "CDXTHEME_CONFIG_DIR="+filepath.Join(tmp, "config"),
		"CDXTHEME_DATA_DIR="+filepath.Join(tmp, "data"), "CDXTHEME_NO_KEYRING=1", "CDXTHEME_AGENT="+adapter.Words(), "CDXTHEME_SERVE_TTL=10m")
	noServe := append(append([]string(nil), env...), "CDXTHEME_SERVE=0")
	defer func() {
		stop := exec.Command(bin, "serve", "--stop")
		stop.Env = env
		stop.Run()
		if left := home.WaitGone(15 * time.Second); len(left) != 0 && err == nil {
			err = fmt.Errorf("adapter processes left behind: %v", left)
		}
		if cerr := home.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()

	seq := 0
	chat := func(env []string, sid string) (time.Duration, string, error) {
		seq++
		prompt := fmt.Sprintf("serve-%d", seq)
		args := []string{"chat", "--json", "--permission", "deny", "--cwd", cwd}
		if sid != "" {
			args = append(args, "--session", sid)
		}
		return runChatCLI(bin, append(args, prompt), env, firstWord(prompt), cfg.timeout)
	}
	// Two sessions, so the warm agent's session is never also resumed by
	// another process.
	_, warmSID, err := chat(noServe, "")
	if err != nil {
		return viaServe, without, err
	}
	_, coldSID, err := chat(noServe, "")
	if err != nil {
		return viaServe, without, err
	}
	progress("serve: one untimed follow-up through serve (starts it) and one without")
	if _, _, err := chat(env, warmSID); err != nil {
		return viaServe, without, err
	}
	if _, _, err := chat(env, warmSID); err != nil {
		return viaServe, without, err
	}
	if _, _, err := chat(noServe, coldSID); err != nil {
		return viaServe, without, err
	}
	progress(fmt.Sprintf("serve: %d follow-ups through serve and without, alternating", cfg.n))
	var rs, rc []time.Duration
	for i := 0; i < cfg.n; i++ {
		d, _, err := chat(env, warmSID)
		if err != nil {
			return viaServe, without, err
		}
		rs = append(rs, d)
		if d, _, err = chat(noServe, coldSID); err != nil {
			return viaServe, without, err
		}
		rc = append(rc, d)
		home.WaitGone(5 * time.Second) // the cold command's agent must not load the next run
	}
	return newMeasure("serve", rs), newMeasure("without", rc), nil
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
