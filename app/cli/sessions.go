package cli

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/notes"
	"cdxtheme/core/search"
	"cdxtheme/core/workspace"
)

func init() {
	register(command{
		name:    "sessions",
		summary: "list saved Codex sessions, newest first",
		run:     runSessions,
	})
}

func runSessions(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("sessions", "cdxtheme sessions [--json] [--search TEXT] [--all] [--limit N] [--acp [--agent CMD]] [--raw]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	query := fs.String("search", "", "only sessions whose title, folder or messages match `TEXT`: words (any case), word*, \"a phrase\"")
	all := fs.Bool("all", false, "also list sub-agent sessions (reviews, guardians) and those hidden in the app")
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
	n, err := notes.Open(notes.DefaultPath()).Get()
	if err != nil {
		fmt.Fprintf(env.Stderr, "warning: %v\n", err)
	}
	// A build's sessions go by the build's name, as in the app.
	titles := workspace.SessionTitles(workspace.Root(), n.Titles)
	opts := codexhome.ListOptions{Limit: *limit, ACP: fromAgent, Titles: titles, Hidden: n.Hidden, ShowInternal: *all, ShowHidden: *all}
	if search.ParseQuery(*query).Empty() {
		list, err := home.Sessions(ctx, opts)
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
		return printSessions(env, list.Hint, list.Sessions, nil)
	}
	ix, openErr, updateErr := searchIndex(ctx, env, home)
	if ix != nil {
		defer ix.Close()
	}
	res, err := search.Find(ctx, codexhome.NewLister(home), ix, *query, opts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme sessions: %v\n", err)
		return ExitError
	}
	res.Degraded(*query, openErr, updateErr)
	if res.TitlesOnly != "" {
		fmt.Fprintf(env.Stderr, "warning: %s; matching titles and folders only\n", res.TitlesOnly)
	}
	if res.Stale != "" {
		fmt.Fprintf(env.Stderr, "warning: updating the search index: %s\n", res.Stale)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", w)
	}
	if *asJSON {
		return printCodexJSON(env, res)
	}
	list := make([]codexhome.Session, len(res.Sessions))
	snippets := make([]string, len(res.Sessions))
	for i, r := range res.Sessions {
		list[i], snippets[i] = r.Session, r.Snippet.Text
	}
	return printSessions(env, res.Hint, list, snippets)
}

// searchIndex opens the index the app keeps and brings it up to date
// (built first if needed, which takes a while the first time: said on
// stderr). nil with openErr when it cannot be had: then titles and folders
// still match; updateErr when it is only out of date.
func searchIndex(ctx context.Context, env *Env, home codexhome.Home) (ix *search.Index, openErr, updateErr error) {
	if !home.Exists() {
		return nil, nil, nil
	}
	ix, err := search.Open(ctx, search.Path(home), home)
	if err != nil {
		return nil, err, nil
	}
	said := false
	_, err = ix.Update(ctx, func(p search.Progress) {
		if p.First && !said && p.Total > 200 {
			said = true
			fmt.Fprintf(env.Stderr, "note: building the search index of %d sessions (once)\n", p.Total)
		}
	})
	return ix, nil, err
}

// printSessions prints the human table; snippets (when searching) go on
// a line of their own under each session that matched by text.
func printSessions(env *Env, hint string, list []codexhome.Session, snippets []string) int {
	if hint != "" {
		fmt.Fprintf(env.Stderr, "note: %s\n", hint)
	}
	if len(list) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "UPDATED\tID\tTITLE\tFOLDER")
	for i, s := range list {
		title := s.Title
		if title == "" {
			title = "(no title)"
		}
		switch {
		case s.Unreadable != "":
			title = "(unreadable: " + s.Unreadable + ")"
		case s.Internal:
			title += " [internal]"
		}
		if s.Archived {
			title += " [archived]"
		}
		if s.Hidden {
			title += " [hidden]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.UpdatedAt.Local().Format("2006-01-02 15:04"), env.cell(s.ID), env.cell(title), env.cell(s.Cwd))
		if i < len(snippets) && snippets[i] != "" {
			fmt.Fprintf(tw, "\t\t  “%s”\t\n", env.cell(snippets[i]))
		}
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
