//go:build unix

// Command bench is `make bench`'s harness: it runs the parts asked for
// and prints one table of ratios (and writes it as JSON). Unix only
// (process groups, /proc), like the numbers it reports.
//
//	go run ./internal/bench [-n 7] [-out bench-results.json] [-adapter ts|rust] [-only sections] [-strict]
//
// This package keeps the flags, the list of parts and the table printed
// last; the parts live in packages beside it, named for what they
// measure: turns (the adapter's turn paths against a bare client, prewarm,
// serve, stream, the CLI against other ACP clients), history (codexhome,
// search), liveapply (live), flood (flood, longchat) and window (window,
// windowflood, windowlong, with scripts/bench-window.sh's result). They
// report rows of package table.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
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
	"cdxtheme/internal/bench/turns"
	"cdxtheme/internal/bench/window"
	"cdxtheme/internal/testrig/peers"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == turns.AgentArg {
		os.Exit(turns.RunStreamAgent())
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
	secServe       = "serve"
	secCLI         = "cli"
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
	turns.Config // what the turn parts take: adapter, runs, bounds
	verbose      bool
	sections     map[string]bool
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
	cfg := config{Config: turns.Config{Adapter: name, N: *n, Timeout: *timeout, StreamChunks: *chunks, StreamRate: *rate},
		verbose: *verbose, sections: sections, windowJSON: *windowJSON, app: *app}
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
	rep := table.Report{Runs: cfg.N, When: time.Now().UTC(), CPUs: runtime.NumCPU(), LoadStart: table.LoadAverage()}
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
		home = history.CodexHomeRows(ctx, cfg.N, progress)
	}
	if cfg.sections[secSearch] {
		index = history.SearchRows(ctx, cfg.N, progress)
	}
	if cfg.sections[secLive] {
		index = append(index, liveapply.Measure(cfg.N, progress)...)
	}
	if cfg.sections[secStream] {
		stream = turns.MeasureStream(ctx, cfg.Config, log, progress)
	}
	var models []table.Row
	if cfg.sections[secAdapter] {
		var version string
		var err error
		adapter, models, version, err = turns.MeasureAdapter(cfg.Config, log, &logBuf, progress)
		rep.Adapter, rep.Version = cfg.Adapter, version
		if err != nil {
			adapter, models = turns.AdapterFailed(err)
		}
	}
	var warmup []table.Row
	if cfg.sections[secPrewarm] {
		var version string
		warmup, version = turns.MeasurePrewarm(cfg.Config, log, progress)
		if rep.Adapter == "" {
			rep.Adapter, rep.Version = cfg.Adapter, version
		}
	}
	var served []table.Row
	if cfg.sections[secServe] {
		served = turns.MeasureServe(cfg.Config, log, progress)
	}
	if cfg.sections[secCLI] {
		var err error
		if cli, err = turns.CLIRows(cfg.Config, progress); err != nil {
			cli = turns.CLIFailed(err)
		}
		if rep.Adapter == "" {
			rep.Adapter = cfg.Adapter
		}
	}
	var floods []table.Row
	if cfg.sections[secFlood] {
		floods = flood.Measure(cfg.N, progress)
	}
	if cfg.sections[secLongChat] {
		floods = append(floods, flood.MeasureLongChat(cfg.N, progress)...)
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
