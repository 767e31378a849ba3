package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"cdxtheme/core/codexhome"
)

func init() {
	register(command{
		name:    "sessions",
		summary: "list saved Codex sessions, newest first",
		run:     runSessions,
	})
}

func runSessions(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("sessions", "cdxtheme sessions [--json] [--search TEXT] [--transcripts] [--limit N] [--acp]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	search := fs.String("search", "", "only sessions whose title or folder contains `TEXT` (any case)")
	deep := fs.Bool("transcripts", false, "let --search also match the transcripts' text (slower)")
	limit := fs.Int("limit", 0, "show at most `N` sessions (0 = all)")
	acp := fs.Bool("acp", false, "also ask the agent's session/list")
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		return codexUsage(env, fs, "unexpected argument %q", pos[0])
	}
	if *limit < 0 {
		return codexUsage(env, fs, "--limit %d: want 0 or more", *limit)
	}
	if *acp {
		// The agent's session/list needs a chat engine call that core/chat
		// does not offer; say so rather than silently listing disk only.
		fmt.Fprintln(env.Stderr, "cdxtheme sessions: --acp is not available: this build cannot ask the agent for its session list yet; run without --acp to list the sessions saved in CODEX_HOME")
		return ExitError
	}
	home := codexHomeFor(env)
	list, err := home.Sessions(ctx, codexhome.ListOptions{Search: *search, InTranscripts: *deep, Limit: *limit})
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme sessions: %v\n", err)
		return ExitError
	}
	for _, w := range list.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", w)
	}
	if *asJSON {
		return printCodexJSON(env, list)
	}
	if list.Hint != "" {
		fmt.Fprintf(env.Stderr, "note: %s\n", list.Hint)
	}
	if len(list.Sessions) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "UPDATED\tID\tTITLE\tFOLDER")
	for _, s := range list.Sessions {
		title := s.Title
		if title == "" {
			title = "(no title)"
		}
		if s.Archived {
			title += " [archived]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.UpdatedAt.Local().Format("2006-01-02 15:04"), s.ID, title, s.Cwd)
	}
	tw.Flush()
	return ExitOK
}

// timeLabel formats a message time for the readable views.
func timeLabel(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("15:04")
}
