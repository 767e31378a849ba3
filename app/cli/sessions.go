package cli

import (
	"context"
	"fmt"
	"os"
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
	fs := newCodexFlags("sessions", "cdxtheme sessions [--json] [--search TEXT] [--transcripts] [--limit N] [--acp [--agent CMD]] [--raw]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	search := fs.String("search", "", "only sessions whose title or folder contains `TEXT` (any case)")
	deep := fs.Bool("transcripts", false, "let --search also match the transcripts' text (slower)")
	limit := fs.Int("limit", 0, "show at most `N` sessions (0 = all)")
	acp := fs.Bool("acp", false, "also ask the agent (session/list) and merge its sessions in")
	agentCmd := fs.String("agent", "", "with --acp: the ACP agent command line (CDXTHEME_AGENT wins over it)")
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
	var fromAgent []codexhome.ACPSession
	if *acp {
		var code int
		if fromAgent, code = agentSessions(ctx, env, *agentCmd); code != ExitOK {
			return code
		}
	}
	home := codexHomeFor(env)
	list, err := home.Sessions(ctx, codexhome.ListOptions{Search: *search, InTranscripts: *deep, Limit: *limit, ACP: fromAgent})
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.UpdatedAt.Local().Format("2006-01-02 15:04"), env.cell(s.ID), env.cell(title), env.cell(s.Cwd))
	}
	tw.Flush()
	return ExitOK
}

// agentSessions asks the agent for its sessions. An agent without
// session/list is a note, not a failure: the disk listing still stands.
func agentSessions(ctx context.Context, env *Env, agentCmd string) ([]codexhome.ACPSession, int) {
	eng := newEngine(env, agentCmd, 0)
	defer eng.Close()
	cwd, err := os.Getwd()
	if err != nil {
		cwd = os.TempDir()
	}
	infos, ok, err := eng.ListSessions(ctx, cwd)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme sessions: asking the agent: %v\n", err)
		return nil, ExitError
	}
	if !ok {
		fmt.Fprintln(env.Stderr, "note: the agent does not offer session/list; these are the sessions saved in CODEX_HOME")
	}
	out := make([]codexhome.ACPSession, 0, len(infos))
	for _, s := range infos {
		out = append(out, codexhome.ACPSession{SessionID: s.SessionID, Cwd: s.Cwd, Title: s.Title, UpdatedAt: s.UpdatedAt})
	}
	return out, ExitOK
}

// timeLabel formats a message time for the readable views.
func timeLabel(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("15:04")
}
