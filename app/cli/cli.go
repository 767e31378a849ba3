// Package cli is the headless front end: `cdxtheme SUBCOMMAND ...`. Each
// subcommand lives in its own file and registers itself; the contract
// (flags, JSON shapes, exit codes) is in DESIGN.md and the README.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"cdxtheme/core/settings"

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
	Stdout   io.Writer
	Stderr   io.Writer
	Settings settings.Settings
	Log      zerolog.Logger
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
	return ok || name == "help" || name == "-h" || name == "--help"
}

// Run executes args[0] as a subcommand and returns the process exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	s, err := settings.Load()
	if err != nil {
		fmt.Fprintf(stderr, "warning: %v (using defaults)\n", err)
	}
	level := zerolog.WarnLevel
	if l, err := zerolog.ParseLevel(os.Getenv("CDXTHEME_LOG")); err == nil && os.Getenv("CDXTHEME_LOG") != "" {
		level = l
	}
	env := &Env{
		Stdout:   stdout,
		Stderr:   stderr,
		Settings: s,
		Log:      zerolog.New(zerolog.ConsoleWriter{Out: stderr, NoColor: true}).Level(level).With().Timestamp().Logger(),
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "cdxtheme: unknown command %q\n", args[0])
		usage(stderr)
		return ExitUsage
	}
	return c.run(ctx, env, args[1:])
}

func usage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: cdxtheme [COMMAND] [FLAGS] [ARGS]\n\nWithout a command the desktop app starts.\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-12s %s\n", n, commands[n].summary)
	}
	b.WriteString("\nRun `cdxtheme COMMAND -h` for a command's flags. CODEX_HOME and CDXTHEME_AGENT are honoured.\n")
	io.WriteString(w, b.String())
}
