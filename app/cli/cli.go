// Package cli is the headless front end: `cdxtheme SUBCOMMAND ...`. Each
// subcommand lives in its own file and registers itself; the contract
// (flags, JSON shapes, exit codes) is in DESIGN.md and the README.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"

	_ "cdxtheme/core/packaging" // fills the .vsix and Zed extension formats
	"cdxtheme/core/paths"
	"cdxtheme/core/settings"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// Exit codes, part of the CLI contract.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitAuth      = 3
	ExitTimeout   = 4
	ExitCancelled = 130
)

// Env is what a subcommand may touch: its streams, the user's settings and
// a logger. Tests build one with buffers.
type Env struct {
	// Stdout and Stderr carry human output: agent-controlled text in it
	// is cleaned of control sequences (see clean.go) unless --raw.
	Stdout   io.Writer
	Stderr   io.Writer
	Settings settings.Settings
	Log      zerolog.Logger

	rawStdout, rawStderr io.Writer // the streams as given: --json, --raw
	terminal             bool      // stdout is a terminal
	raw                  bool      // --raw
	cleaners             []*cleaner
}

// newEnv wraps the streams in cleaners.
func newEnv(stdout, stderr io.Writer, s settings.Settings) *Env {
	env := &Env{Settings: s, rawStdout: stdout, rawStderr: stderr}
	if f, ok := stdout.(*os.File); ok {
		env.terminal = isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	}
	out, errw := newCleaner(stdout), newCleaner(stderr)
	env.Stdout, env.Stderr, env.cleaners = out, errw, []*cleaner{out, errw}
	return env
}

// keepBytes turns cleaning off (--raw): the bytes pass as the agent wrote them.
func (env *Env) keepBytes() {
	env.raw = true
	if env.rawStdout != nil {
		env.Stdout, env.Stderr = env.rawStdout, env.rawStderr
	}
}

// cell is s for one cell of a table or a one-line summary: on one line,
// and cleaned unless --raw.
func (env *Env) cell(s string) string {
	if env.raw {
		return strings.Join(strings.Fields(s), " ")
	}
	return cleanCell(s)
}

// exact is where JSON (and Markdown to a file) goes: exact bytes (JSON escapes C0 controls itself).
func (env *Env) exact() io.Writer {
	if env.rawStdout != nil {
		return env.rawStdout
	}
	return env.Stdout
}

// exactErr is stderr as given, for the app's own terminal output (a
// progress line rewritten in place); never for agent-written text.
func (env *Env) exactErr() io.Writer {
	if env.rawStderr != nil {
		return env.rawStderr
	}
	return env.Stderr
}

// addRawFlag gives a command --raw.
func (env *Env) addRawFlag(fs *flag.FlagSet) {
	fs.BoolFunc("raw", "print agent-written text byte for byte, terminal control sequences included", func(string) error {
		env.keepBytes()
		return nil
	})
}

func (env *Env) flush() {
	for _, c := range env.cleaners {
		c.Flush()
	}
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *Env, args []string) int
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// IsCommand reports whether name is a subcommand, so main can tell a CLI
// call from a desktop launch that got stray arguments (e.g. -psn_ on macOS).
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok || IsHelp(name)
}

// Main runs the CLI as this process and returns its exit code. SIGINT,
// SIGTERM and SIGHUP (a closed terminal) all end a command the same way: a
// chat sends session/cancel, waits a bounded grace and ends the agent's
// process group. A second signal ends the process at once; the agent's shim
// then ends the group. After a signal the exit code is 128 + its number, as
// a shell reports it (130 for Ctrl-C).
func Main(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	stop := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	signal.Notify(sigs, stop...)
	var got atomic.Int32
	go func() {
		s := (<-sigs).(syscall.Signal)
		got.Store(int32(s))
		signal.Reset(stop...) // the next one ends the process the usual way
		cancel()
	}()
	code := Run(ctx, args, os.Stdout, os.Stderr)
	if s := got.Load(); s != 0 && code == ExitCancelled {
		code = 128 + int(s)
	}
	return code
}

// Run executes args[0] as a subcommand and returns the process exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !IsHelp(args[0]) {
		if err := paths.Usable(); err != nil {
			fmt.Fprintf(stderr, "cdxtheme: %v\n", err)
			return ExitError
		}
	}
	s, err := settings.Load()
	if err != nil {
		fmt.Fprintf(stderr, "warning: %v (using defaults)\n", err)
	}
	level := zerolog.WarnLevel
	if l, err := zerolog.ParseLevel(os.Getenv("CDXTHEME_LOG")); err == nil && os.Getenv("CDXTHEME_LOG") != "" {
		level = l
	}
	env := newEnv(stdout, stderr, s)
	defer env.flush()
	env.Log = zerolog.New(zerolog.ConsoleWriter{Out: env.Stderr, NoColor: true}).Level(level).With().Timestamp().Logger()
	if len(args) == 0 || IsHelp(args[0]) {
		usage(stdout)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		what := "command"
		if strings.HasPrefix(args[0], "-") {
			what = "flag"
		}
		fmt.Fprintf(env.Stderr, "cdxtheme: unknown %s %q", what, args[0])
		if s := suggest(args[0]); s != "" {
			fmt.Fprintf(env.Stderr, " (did you mean %s?)", s)
		}
		fmt.Fprintln(env.Stderr)
		usage(env.Stderr)
		return ExitUsage
	}
	return c.run(ctx, env, args[1:])
}

// IsHelp reports whether arg asks for the usage.
func IsHelp(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "-help" || arg == "--help"
}

// suggest is the command closest to a mistyped name: a prefix of it, or
// at most two edits away.
func suggest(name string) string {
	name = strings.TrimLeft(strings.ToLower(name), "-")
	best, bestD := "", 3
	for n := range commands {
		d := editDistance(name, n)
		if len(name) >= 3 && strings.HasPrefix(n, name) {
			d = 1
		}
		if d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance (with adjacent swaps, so
// "sesisons" is one edit from "sessions").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func usage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: cdxtheme [COMMAND] [FLAGS] [ARGS]\n\nWithout a command the desktop app starts (the CLI-only build says it has no window).\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-12s %s\n", n, commands[n].summary)
	}
	b.WriteString("\nRun `cdxtheme COMMAND -h` for a command's flags. CODEX_HOME and CDXTHEME_AGENT are honoured.\n")
	io.WriteString(w, b.String())
}
