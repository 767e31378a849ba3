// Command bench measures the turn paths of core/chat against the real
// @agentclientprotocol/codex-acp adapter and a loopback mock model, next to a
// bare client doing the least the protocol allows. `make bench` runs it.
//
//	go run ./internal/bench [-n 7] [-out bench-results.json] [-adapter ts|rust] [-strict]
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/internal/peers"
	"cdxtheme/internal/respmock"
)

//go:embed testdata/models_cache.codex-0.166.json
var modelsCache []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 7, "runs per measurement (the median is reported)")
	out := fs.String("out", "", "write the results as JSON to this file")
	which := fs.String("adapter", "ts", "adapter to drive: ts (@agentclientprotocol/codex-acp) or rust (@zed-industries/codex-acp)")
	timeout := fs.Duration("timeout", 60*time.Second, "bound of one turn")
	strict := fs.Bool("strict", false, "exit 1 when a target is missed")
	verbose := fs.Bool("v", false, "log the engine's debug output to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "bench: -n must be at least 1")
		return 2
	}
	name := map[string]string{"ts": peers.TS, "rust": peers.Rust}[*which]
	if name == "" {
		fmt.Fprintf(stderr, "bench: unknown -adapter %q (ts or rust)\n", *which)
		return 2
	}
	report, err := measureAll(name, *n, *timeout, *verbose, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if err := report.printTable(stdout); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	fmt.Fprintln(stdout, report.summary())
	if *out != "" {
		if err := report.writeJSON(*out); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	if *strict && len(report.missed()) > 0 {
		return 1
	}
	return 0
}

func measureAll(name string, n int, timeout time.Duration, verbose bool, stderr io.Writer) (rep Report, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return rep, err
	}
	adapter, err := peers.Find(dir, name)
	if err != nil {
		return rep, err
	}
	mock, err := respmock.Start(context.Background(), answer)
	if err != nil {
		return rep, err
	}
	defer mock.Close()
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		return rep, err
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
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		return rep, err
	}
	// The engine's log tells whether a per-turn reconnect fell back from
	// session/resume to session/load.
	var logBuf syncBuffer
	var logOut io.Writer = &logBuf
	level := zerolog.InfoLevel
	if verbose {
		logOut, level = io.MultiWriter(&logBuf, stderr), zerolog.DebugLevel
	}
	log := zerolog.New(logOut).Level(level)
	b := &bench{adapter: adapter, mock: mock, home: home, cwd: cwd, n: n, timeout: timeout, log: log}
	rep = Report{Adapter: adapter.Name, Version: adapter.Version, Runs: n, When: time.Now().UTC()}

	progress := func(what string) { fmt.Fprintf(stderr, "bench: %s…\n", what) }

	// One untimed turn first, so disk caches do not favour whichever path runs first.
	progress("warming up")
	if _, err := b.bareFirstTurn(); err != nil {
		return rep, fmt.Errorf("warm-up turn: %w", err)
	}
	progress("first turn: engine and bare client, alternating")
	engineFirst, bareFirst, errFirst := b.firstTurns()
	progress("follow-up: engine warm connection and bare open connection, alternating")
	warm, bareFollow, errWarm := b.warmFollowUps()
	progress("follow-up: engine per-turn reconnect and seed spawn + session/load, alternating")
	logBuf.Reset()
	cold, load, errCold := b.perTurnFollowUps()
	replayed := strings.Contains(logBuf.String(), "session/load")
	progress("model list")
	disk, errD := b.diskModels(modelsCache)
	asked, errA := b.agentModels()

	row := func(what string, a, bm Measure, limit float64, target string, errs ...error) Row {
		if err := errors.Join(errs...); err != nil {
			return failed(what, target, err)
		}
		return compare(what, a, bm, limit, target)
	}
	coldWhat := "follow-up: per-turn resume vs per-turn load"
	if replayed {
		coldWhat = "follow-up: per-turn engine (fell back to load) vs seed load"
	}
	rep.Rows = []Row{
		row("follow-up: warm vs per-turn load (seed)", warm, load, 0.1, "≤ 0.10", errWarm, errCold),
		row("follow-up: warm vs bare open connection", warm, bareFollow, 1.2, "≤ 1.20", errWarm),
		row(coldWhat, cold, load, 0, "-", errCold),
		row("first turn: engine vs bare", engineFirst, bareFirst, 1.05, "≤ 1.05", errFirst),
		row("model list: disk vs asking the agent", disk, asked, 1.0/300, "≤ 1/300", errD, errA),
	}
	return rep, nil
}

// syncBuffer is a strings.Builder safe for the engine's concurrent logging.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}
