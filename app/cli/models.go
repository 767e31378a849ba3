package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"cdxtheme/core/codexhome"
)

func init() {
	register(command{
		name:    "models",
		summary: "list the models Codex offers (from CODEX_HOME)",
		run:     runModels,
	})
}

func runModels(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("models", "cdxtheme models [--json]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		return codexUsage(env, fs, "unexpected argument %q", pos[0])
	}
	list := codexHomeFor(env).Models()
	for _, w := range list.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", w)
	}
	if *asJSON {
		return printCodexJSON(env, list)
	}
	if list.Hint != "" {
		fmt.Fprintf(env.Stderr, "note: %s\n", list.Hint)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\tMODEL\tNAME\tEFFORTS (default*)")
	for _, m := range list.Models {
		mark := ""
		if m.ID == list.Current {
			mark = "→"
		}
		var efforts []string
		for _, l := range m.ReasoningLevels {
			e := l.Effort
			if e == m.DefaultReasoningLevel {
				e += "*"
			}
			efforts = append(efforts, e)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", mark, m.ID, m.Name, strings.Join(efforts, " "))
	}
	tw.Flush()
	fmt.Fprintf(env.Stdout, "\nsource: %s (%s)\n", list.Source, codexHomeFor(env).Dir)
	return ExitOK
}

// codexHomeFor finds CODEX_HOME: the settings override, then the
// environment, then ~/.codex.
func codexHomeFor(env *Env) codexhome.Home { return codexhome.Locate(env.Settings.CodexHome) }

// newCodexFlags makes a flag set that reports to the command's stderr.
func newCodexFlags(name, synopsis string, env *Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	env.addRawFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseCodexFlags parses flags placed anywhere among the positional
// arguments (`transcript ID --json` as well as `transcript --json ID`).
// It returns the positionals and -1, or an exit code to return.
func parseCodexFlags(fs *flag.FlagSet, args []string) ([]string, int) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, ExitOK
			}
			return nil, ExitUsage
		}
		if fs.NArg() == 0 {
			return pos, -1
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func codexUsage(env *Env, fs *flag.FlagSet, format string, a ...any) int {
	fmt.Fprintf(env.Stderr, "cdxtheme %s: %s\n", fs.Name(), fmt.Sprintf(format, a...))
	fs.Usage()
	return ExitUsage
}

func printCodexJSON(env *Env, v any) int {
	enc := json.NewEncoder(env.exact())
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme: write JSON: %v\n", err)
		return ExitError
	}
	return ExitOK
}
