package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/codexhome"
)

// agentModels asks the agent itself: the models it offers (by config
// option or models state, one list either way) and its other settings.
func agentModels(ctx context.Context, env *Env, agentCmd, cwd string, asJSON bool) int {
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(env.Stderr, "cdxtheme models: cannot tell the current directory: %v\n", err)
			return ExitUsage
		}
		cwd = wd
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme models: --cwd %s: %v\n", cwd, err)
		return ExitUsage
	}
	eng := newEngine(env, agentCmd, chat.DefaultTimeout)
	defer eng.Leave()
	setup, err := eng.Describe(ctx, abs)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme models: %v\n", err)
		if ce, ok := errors.AsType[*chat.Error](err); ok && ce.Code == chat.CodeAuth {
			return ExitAuth
		}
		return ExitError
	}
	type model struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
	}
	out := struct {
		Current string                `json:"current"`
		Source  string                `json:"source"` // "config_option" | "models" | "none"
		Models  []model               `json:"models"`
		Modes   *acp.SessionModeState `json:"modes,omitempty"`
		Options []acp.ConfigOption    `json:"options"`
	}{Source: "none", Models: []model{}, Modes: setup.Modes, Options: []acp.ConfigOption{}}
	for _, o := range setup.ConfigOptions {
		if o.Category == acp.CategoryModel && out.Source == "none" {
			out.Current, out.Source = o.Value, "config_option"
			if o.ViaSetModel {
				out.Source = "models"
			}
			for _, v := range o.Values() {
				out.Models = append(out.Models, model{v.Value, v.Name, v.Description})
			}
			continue
		}
		out.Options = append(out.Options, o)
	}
	if asJSON {
		return printCodexJSON(env, out)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\tMODEL\tNAME")
	for _, m := range out.Models {
		mark := ""
		if m.ID == out.Current {
			mark = "→"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", mark, m.ID, m.Name)
	}
	tw.Flush()
	if len(out.Models) == 0 {
		fmt.Fprintln(env.Stdout, "(the agent offers no model setting)")
	}
	if out.Modes != nil && len(out.Modes.AvailableModes) > 0 {
		var ms []string
		for _, m := range out.Modes.AvailableModes {
			s := m.ID
			if m.ID == out.Modes.CurrentModeID {
				s += "*"
			}
			ms = append(ms, s)
		}
		fmt.Fprintf(env.Stdout, "\nmodes (current*): %s\n", strings.Join(ms, " "))
	}
	for _, o := range out.Options {
		var vs []string
		for _, v := range o.Values() {
			s := v.Value
			if v.Value == o.Value {
				s += "*"
			}
			vs = append(vs, s)
		}
		if o.Type == "boolean" {
			vs = []string{fmt.Sprint(o.Bool)}
		}
		fmt.Fprintf(env.Stdout, "option %s (%s): %s\n", o.ID, o.Name, strings.Join(vs, " "))
	}
	fmt.Fprintf(env.Stdout, "\nsource: the agent (%s)\n", out.Source)
	return ExitOK
}

func init() {
	register(command{
		name:    "models",
		summary: "list the models Codex offers (from CODEX_HOME), or with --agent what that agent offers",
		run:     runModels,
	})
}

func runModels(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("models", "cdxtheme models [--agent CMD [--cwd DIR]] [--json]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	agentCmd := fs.String("agent", "", "ask this ACP agent (one session/new) for its models and options")
	cwd := fs.String("cwd", "", "with --agent: the folder the agent's session opens in (default: the current one)")
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		return codexUsage(env, fs, "unexpected argument %q", pos[0])
	}
	if *agentCmd != "" {
		return agentModels(ctx, env, *agentCmd, *cwd, *asJSON)
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
