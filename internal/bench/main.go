//go:build unix

// Command bench measures the turn paths of core/chat against the real
// @agentclientprotocol/codex-acp adapter and a loopback mock model, next to a
// bare client doing the least the protocol allows. `make bench` runs it.
// Unix only (process groups, /proc), like the numbers it reports.
//
//	go run ./internal/bench [-n 7] [-out bench-results.json] [-adapter ts|rust] [-only sections] [-strict]
//
// Besides the adapter's turn paths it measures the core's per-chunk overhead
// (re-executing itself as a streaming agent), the CLI and serve against
// other ACP clients; the other parts live in packages beside this one
// (history, liveapply, flood, window) and report rows of package table.
// This package keeps the flags, the list of parts and the one table
// printed last, with scripts/bench-window.sh's result (the production
// window) in it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/internal/bench/flood"
	"cdxtheme/internal/bench/history"
	"cdxtheme/internal/bench/liveapply"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/bench/window"
	"cdxtheme/internal/testrig/fixtures"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// modelsCache is the models_cache.json codex-cli 0.166 wrote.
var modelsCache = fixtures.Read("models_cache.json")

func main() {
	if len(os.Args) > 1 && os.Args[1] == agentArg {
		os.Exit(runStreamAgent())
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Sections of the run, all by default.
const (
	secAdapter     = "adapter"
	secStream      = "stream"
	secCodexHome   = "codexhome"
	secWindow      = "window"
	secSearch      = "search"
	secPrewarm     = "prewarm"
	secFlood       = "flood"
	secLongChat    = "longchat"
	secLive        = "live"
	secWindowFlood = "windowflood"
	secWindowLong  = "windowlong"
)

var allSections = []string{secAdapter, secPrewarm, secServe, secStream, secCodexHome, secSearch, secLive, secCLI, secFlood, secLongChat, secWindowFlood, secWindowLong, secWindow}

// parseSections reads -only: a comma-separated subset of allSections.
func parseSections(s string) (map[string]bool, error) {
	out := map[string]bool{}
	if s == "" {
		for _, name := range allSections {
			out[name] = true
		}
		return out, nil
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(allSections, name) {
			return nil, fmt.Errorf("unknown section %q (want %s)", name, strings.Join(allSections, ", "))
		}
		out[name] = true
	}
	return out, nil
}

type config struct {
	adapter      string
	n            int
	timeout      time.Duration
	verbose      bool
	sections     map[string]bool
	streamChunks int
	streamRate   int
	windowJSON   string
	app          string
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
	only := fs.String("only", "", "measure only these sections, comma-separated: "+strings.Join(allSections, ","))
	chunks := fs.Int("stream-chunks", 20000, "chunks per streaming run")
	rate := fs.Int("stream-rate", 10000, "chunks per second the streaming agent writes")
	windowJSON := fs.String("window", "build/bench-window.json", "result of scripts/bench-window.sh to put in the table")
	app := fs.String("app", "build/bin/cdxtheme", "the production binary the window rows need")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file (go tool pprof)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 || *chunks < 1 || *rate < 1 {
		fmt.Fprintln(stderr, "bench: -n, -stream-chunks and -stream-rate must be at least 1")
		return 2
	}
	name := map[string]string{"ts": peers.TS, "rust": peers.Rust}[*which]
	if name == "" {
		fmt.Fprintf(stderr, "bench: unknown -adapter %q (ts or rust)\n", *which)
		return 2
	}
	sections, err := parseSections(*only)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "bench: cpu profile:", err)
			return 1
		}
		defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
	}
	cfg := config{adapter: name, n: *n, timeout: *timeout, verbose: *verbose, sections: sections,
		streamChunks: *chunks, streamRate: *rate, windowJSON: *windowJSON, app: *app}
	report := measureAll(cfg, stderr)
	if err := report.PrintTable(stdout); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	fmt.Fprintln(stdout, report.Summary())
	if *out != "" {
		if err := report.WriteJSON(*out); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	if *strict && len(report.Missed()) > 0 {
		return 1
	}
	return 0
}

// measureAll measures every section asked for. A section that cannot run
// gives error rows; the others still run. CPU-bound local measurements go
// first, before the adapter's Node processes load the machine.
func measureAll(cfg config, stderr io.Writer) table.Report {
	progress := func(what string) { fmt.Fprintf(stderr, "bench: %s…\n", what) }
	rep := table.Report{Runs: cfg.n, When: time.Now().UTC(), CPUs: runtime.NumCPU(), LoadStart: table.LoadAverage()}
	var logBuf table.SyncBuffer
	var logOut io.Writer = &logBuf
	level := zerolog.InfoLevel
	if cfg.verbose {
		logOut, level = io.MultiWriter(&logBuf, stderr), zerolog.DebugLevel
	}
	log := zerolog.New(logOut).Level(level)
	ctx := context.Background()

	var adapter, stream, home, index, cli, windows []table.Row
	if cfg.sections[secCodexHome] {
		home = history.CodexHomeRows(ctx, cfg.n, progress)
	}
	if cfg.sections[secSearch] {
		index = history.SearchRows(ctx, cfg.n, progress)
	}
	if cfg.sections[secLive] {
		index = append(index, liveapply.Measure(cfg.n, progress)...)
	}
	if cfg.sections[secStream] {
		progress(fmt.Sprintf("streaming %d chunks at %d/s through chat.Engine, %d runs", cfg.streamChunks, cfg.streamRate, cfg.n))
		sb, cleanup, err := streamBenchFor(cfg.streamChunks, cfg.streamRate, log)
		if err != nil {
			stream = []table.Row{table.Failed("stream: agent stdout line → core event", "≤ 1 ms", err)}
		} else {
			stream = streamRows(ctx, sb, cfg.n)
			cleanup()
		}
	}
	var models []table.Row
	if cfg.sections[secAdapter] {
		var version string
		var err error
		adapter, models, version, err = measureAdapter(cfg, log, &logBuf, progress)
		rep.Adapter, rep.Version = cfg.adapter, version
		if err != nil {
			adapter, models = adapterFailed(err)
		}
	}
	var warmup []table.Row
	if cfg.sections[secPrewarm] {
		var version string
		warmup, version = measurePrewarm(cfg, log, progress)
		if rep.Adapter == "" {
			rep.Adapter, rep.Version = cfg.adapter, version
		}
	}
	var served []table.Row
	if cfg.sections[secServe] {
		served = measureServe(cfg, log, progress)
	}
	if cfg.sections[secCLI] {
		var err error
		if cli, err = cliRows(cfg, progress); err != nil {
			cli = cliFailed(err)
		}
		if rep.Adapter == "" {
			rep.Adapter = cfg.adapter
		}
	}
	var floods []table.Row
	if cfg.sections[secFlood] {
		floods = flood.Measure(cfg.n, progress)
	}
	if cfg.sections[secLongChat] {
		floods = append(floods, flood.MeasureLongChat(cfg.n, progress)...)
	}
	if cfg.sections[secWindowFlood] {
		floods = append(floods, window.MeasureFlood(cfg.app, progress)...)
	}
	if cfg.sections[secWindowLong] {
		floods = append(floods, window.MeasureLong(cfg.app, progress)...)
	}
	if cfg.sections[secWindow] {
		windows = window.Rows(cfg.windowJSON, cfg.app)
	}
	rep.Rows = slices.Concat(adapter, warmup, served, stream, models, home, index, cli, floods, windows)
	rep.LoadEnd = table.LoadAverage()
	return rep
}

// Adapter rows, in table order.
const (
	whatWarmLoad = "follow-up: warm vs per-turn load (seed)"
	whatWarmBare = "follow-up: warm vs bare open connection"
	whatResume   = "follow-up: per-turn resume vs per-turn load"
	whatFirst    = "first turn: engine vs bare"
	whatModels   = "model list: disk vs asking the agent"
)

// adapterFailed is every adapter row failing with err (e.g. peers not installed).
func adapterFailed(err error) (adapter, models []table.Row) {
	return []table.Row{table.Failed(whatWarmLoad, "≤ 0.10", err), table.Failed(whatWarmBare, "≤ 1.20", err),
			table.Failed(whatResume, "-", err), table.Failed(whatFirst, "≤ 1.05", err)},
		[]table.Row{table.Failed(whatModels, "≤ 1/300", err)}
}

// newBench sets up the real adapter, a mock model and an offline Codex
// home, and runs one untimed turn so disk caches do not favour whichever
// path runs first. done tears it down and says whether the adapter left
// processes behind.
func newBench(cfg config, log zerolog.Logger, progress func(string)) (b *bench, done func() error, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return nil, nil, err
	}
	adapter, err := peers.Find(dir, cfg.adapter)
	if err != nil {
		return nil, nil, err
	}
	mock, err := respmock.Start(context.Background(), answer)
	if err != nil {
		return nil, nil, err
	}
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		mock.Close()
		return nil, nil, err
	}
	done = func() error {
		var err error
		if left := home.WaitGone(10 * time.Second); len(left) != 0 {
			err = fmt.Errorf("adapter processes left behind: %v", left)
		}
		if cerr := home.Close(); cerr != nil && err == nil {
			err = cerr
		}
		mock.Close()
		return err
	}
	cwd := filepath.Join(filepath.Dir(home.Dir), "workspace")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		done()
		return nil, nil, err
	}
	b = &bench{adapter: adapter, mock: mock, home: home, cwd: cwd, n: cfg.n, timeout: cfg.timeout, log: log}
	progress("warming up " + adapter.Name)
	if _, err := b.bareFirstTurn(); err != nil {
		done()
		return nil, nil, fmt.Errorf("warm-up turn: %w", err)
	}
	return b, done, nil
}

// measureAdapter runs the turn paths on the real adapter against the mock
// model; an error means the adapter could not be set up at all.
func measureAdapter(cfg config, log zerolog.Logger, logBuf *table.SyncBuffer, progress func(string)) (adapterRows, modelRows []table.Row, version string, err error) {
	b, done, err := newBench(cfg, log, progress)
	if err != nil {
		return nil, nil, "", err
	}
	defer func() {
		if derr := done(); derr != nil && err == nil {
			err = derr
		}
	}()
	adapter := b.adapter
	progress("first turn: engine and bare client, alternating")
	engineFirst, bareFirst, errFirst := b.firstTurns()
	progress("follow-up: engine warm connection and bare open connection, alternating")
	warm, bareFollow, errWarm := b.warmFollowUps()
	progress("follow-up: engine per-turn reconnect and seed spawn + session/load, alternating")
	// The engine's log tells whether a per-turn reconnect fell back from
	// session/resume to session/load.
	logBuf.Reset()
	cold, load, errCold := b.perTurnFollowUps()
	replayed := strings.Contains(logBuf.String(), "session/load")
	progress("model list")
	disk, errD := b.diskModels(modelsCache)
	asked, errA := b.agentModels()

	row := func(what string, a, bm table.Measure, limit float64, target string, errs ...error) table.Row {
		if err := errors.Join(errs...); err != nil {
			return table.Failed(what, target, err)
		}
		return table.Compare(what, a, bm, limit, target)
	}
	coldWhat := whatResume
	if replayed {
		coldWhat = "follow-up: per-turn engine (fell back to load) vs seed load"
	}
	adapterRows = []table.Row{
		row(whatWarmLoad, warm, load, 0.1, "≤ 0.10", errWarm, errCold),
		row(whatWarmBare, warm, bareFollow, 1.2, "≤ 1.20", errWarm),
		row(coldWhat, cold, load, 0, "-", errCold),
		row(whatFirst, engineFirst, bareFirst, 1.05, "≤ 1.05", errFirst),
	}
	adapterRows[0].Note = "this and the next three rows: time to the first chunk of the answer, " + adapter.Name +
		" against the loopback mock model, the two sides run alternately"
	modelRows = []table.Row{row(whatModels, disk, asked, 1.0/300, "≤ 1/300", errD, errA)}
	return adapterRows, modelRows, adapter.Version, nil
}
