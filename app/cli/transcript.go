package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cdxtheme/core/codexhome"
)

func init() {
	register(command{
		name:    "transcript",
		summary: "print a saved Codex session's transcript (text, --json or --markdown)",
		run:     runTranscript,
	})
}

func runTranscript(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("transcript", "cdxtheme transcript ID [--json | --markdown] [--raw]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	asMD := fs.Bool("markdown", false, "print a Markdown export")
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	switch {
	case len(pos) == 0:
		return codexUsage(env, fs, "missing session ID (see `cdxtheme sessions`)")
	case len(pos) > 1:
		return codexUsage(env, fs, "unexpected argument %q", pos[1])
	case *asJSON && *asMD:
		return codexUsage(env, fs, "--json and --markdown exclude each other")
	}
	home := codexHomeFor(env)
	t, err := home.Transcript(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme transcript: %v\n", err)
		if errors.Is(err, codexhome.ErrNotFound) {
			if hint := home.Hint(); hint != "" {
				fmt.Fprintf(env.Stderr, "note: %s\n", hint)
			}
		}
		return ExitError
	}
	if t.Skipped > 0 {
		fmt.Fprintf(env.Stderr, "warning: %d unreadable lines skipped in %s\n", t.Skipped, t.Path)
	}
	switch {
	case *asJSON:
		return printCodexJSON(env, t)
	case *asMD:
		// To a file or a pipe the export is exact; a terminal gets it cleaned.
		w := env.exact()
		if env.terminal {
			w = env.Stdout
		}
		if err := codexhome.WriteMarkdown(w, t); err != nil {
			fmt.Fprintf(env.Stderr, "cdxtheme transcript: %v\n", err)
			return ExitError
		}
		return ExitOK
	}
	printTranscriptText(env, t)
	return ExitOK
}

func printTranscriptText(env *Env, t codexhome.Transcript) {
	w := env.Stdout
	title := t.Title
	if title == "" {
		title = "(no title)"
	}
	fmt.Fprintf(w, "%s\n%s  %s\n", title, t.ID, t.Cwd)
	for _, m := range t.Messages {
		fmt.Fprintf(w, "\n[%s %s]\n", m.Role, timeLabel(m.Time))
		if m.Tool == nil {
			fmt.Fprintln(w, strings.TrimSpace(m.Text))
			continue
		}
		status := ""
		if m.Tool.ExitCode != nil {
			status = fmt.Sprintf(" (exit %d)", *m.Tool.ExitCode)
		}
		fmt.Fprintf(w, "%s%s\n", m.Tool.Name, status)
		if m.Tool.Command != "" {
			fmt.Fprintln(w, indent("$ "+strings.TrimRight(m.Tool.Command, "\n")))
		}
		if out := strings.TrimRight(m.Tool.Output, "\n"); out != "" {
			fmt.Fprintln(w, indent(out))
		}
	}
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
