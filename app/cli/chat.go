package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/mcp"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/core/settings"

	"github.com/mattn/go-isatty"
)

func init() {
	register(command{
		name:    "chat",
		summary: "send one prompt to the agent and stream the answer",
		run:     runChat,
	})
}

// Where `--permission ask` reads answers; variables so tests can play a
// terminal.
var (
	chatStdin     io.Reader = os.Stdin
	stdinTerminal           = func() bool {
		fd := os.Stdin.Fd()
		return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
	}
)

const chatSynopsis = "cdxtheme chat [--session ID] [--model ID] [--effort E] [--cwd DIR] [--agent CMD] [--timeout DUR] [--permission ask|allow|deny] [--json] [--raw] PROMPT"

type chatFlags struct {
	session, model, effort, cwd, agentCmd, permission string
	timeout                                           time.Duration
	json                                              bool
	prompt                                            string
}

func parseChatFlags(env *Env, args []string) (chatFlags, int) {
	var f chatFlags
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s\n", chatSynopsis)
		fs.PrintDefaults()
	}
	fs.StringVar(&f.session, "session", "", "continue this session id (default: a new session)")
	fs.StringVar(&f.model, "model", env.Settings.Model, "model id to use")
	fs.StringVar(&f.effort, "effort", env.Settings.ReasoningEffort, "reasoning effort (e.g. low, medium, high)")
	fs.StringVar(&f.cwd, "cwd", "", "workspace directory the agent works in (default: the current directory)")
	fs.StringVar(&f.agentCmd, "agent", "", "ACP agent command line (CDXTHEME_AGENT wins over it)")
	fs.DurationVar(&f.timeout, "timeout", env.Settings.Timeout(), "bound for the whole turn")
	fs.StringVar(&f.permission, "permission", env.Settings.Policy(), "answer permission requests: ask, allow or deny")
	fs.BoolVar(&f.json, "json", false, "print NDJSON events instead of text")
	env.addRawFlag(fs)

	// Flags may come after the prompt words; "--" ends flags for good.
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return f, ExitOK
			}
			return f, ExitUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			words = append(words, rest...)
			break
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
	f.prompt = strings.TrimSpace(strings.Join(words, " "))
	bad := func(format string, a ...any) (chatFlags, int) {
		fmt.Fprintf(env.Stderr, "cdxtheme chat: %s\n", fmt.Sprintf(format, a...))
		fs.Usage()
		return f, ExitUsage
	}
	switch {
	case f.prompt == "":
		return bad("missing PROMPT")
	case f.timeout <= 0:
		return bad("--timeout must be positive, got %s", f.timeout)
	}
	switch f.permission {
	case settings.PolicyAsk, settings.PolicyAllow, settings.PolicyDeny:
	default:
		return bad("--permission must be ask, allow or deny, got %q", f.permission)
	}
	if f.cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return bad("cannot tell the current directory: %v", err)
		}
		f.cwd = wd
	}
	abs, err := filepath.Abs(f.cwd)
	if err != nil {
		return bad("--cwd %s: %v", f.cwd, err)
	}
	f.cwd = abs
	return f, -1
}

// newEngine builds the chat engine for a command. The agent command:
// CDXTHEME_AGENT beats --agent (flag) beats the Codex entry's command in
// the agents list (Settings), else the search for codex-acp.
func newEngine(env *Env, flag string, timeout time.Duration) *chat.Engine {
	return chat.NewEngine(engineOptions(env, flag, timeout))
}

func engineOptions(env *Env, flag string, timeout time.Duration) chat.Options {
	override := flag
	if v := os.Getenv("CDXTHEME_AGENT"); v != "" {
		override = v
	}
	var argv []string
	if override == "" {
		l, err := settings.LoadAgents()
		if err != nil {
			fmt.Fprintf(env.Stderr, "warning: %v\n", err)
		}
		if codex, ok := l.Find(settings.KindCodex); ok {
			argv = codex.Argv("")
		}
	}
	return chat.Options{
		Resolve: agent.ResolveOptions{Override: override, Argv: argv, SidecarVersion: env.Settings.ACPVersion(), CacheDir: settings.AgentsCacheDir()},
		Version: clientVersion(),
		Timeout: timeout,
		Log:     env.Log,
	}
}

func runChat(ctx context.Context, env *Env, args []string) int {
	f, code := parseChatFlags(env, args)
	if code >= 0 {
		return code
	}
	out := &chatPrinter{env: env, json: f.json, install: newInstallLine(env.exactErr())}
	turn := chat.Turn{
		SessionID: f.session,
		Cwd:       f.cwd,
		Model:     f.model,
		Effort:    f.effort,
		Prompt:    prompt.Text(f.prompt),
		Decider:   decider(env, f.permission, out),
	}
	// The user's MCP servers and, in a build, the app's theme tools, as
	// the app gives them (a follow-up the app serves gets the app's).
	if l, err := settings.LoadAgents(); err == nil {
		turn.MCPServers = l.ACPServers()
	}
	if env.Settings.Tools() {
		turn.MCPServers = mcp.With(turn.MCPServers, mcp.ForBuild(mcp.Executable(), f.cwd))
	}
	// A follow-up runs on a warm agent of the desktop app or of
	// `cdxtheme serve` when there is one (see serve.go); else here.
	res, err, handled := handOff(ctx, env, f, turn, out.event)
	if !handled {
		eng := newEngine(env, f.agentCmd, f.timeout)
		// An agent let go after its turn finishes under its shim, not here.
		defer eng.Leave()
		res, err = eng.Run(ctx, turn, out.event)
	}
	out.finish(res)
	if err == nil {
		return ExitOK
	}
	var ce *chat.Error
	if !errors.As(err, &ce) {
		fmt.Fprintf(env.Stderr, "cdxtheme chat: %v\n", err)
		return ExitError
	}
	switch ce.Code {
	case chat.CodeAuth:
		return ExitAuth
	case chat.CodeTimeout:
		return ExitTimeout
	case chat.CodeModelServer:
		// The model server explains it, but the turn still ran out of time.
		if errors.Is(err, context.DeadlineExceeded) {
			return ExitTimeout
		}
	case chat.CodeCancelled:
		return ExitCancelled
	case chat.CodeInput:
		return ExitUsage
	}
	return ExitError
}

func clientVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// chatPrinter renders events: NDJSON on stdout with --json; otherwise the
// answer's text on stdout as it streams and one-line summaries of
// everything else on stderr.
type chatPrinter struct {
	env     *Env
	json    bool
	install *installLine // the first-run install's progress, on stderr

	mu        sync.Mutex
	thought   strings.Builder
	lastByte  byte // last byte of text written to stdout
	wroteText bool
	errorSeen bool
}

func (p *chatPrinter) event(ev chat.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if in, ok := ev.Payload.(chat.InstallProgress); ok {
		if in.Install != nil && p.install != nil {
			p.install.show(*in.Install)
		}
		return
	}
	if p.install != nil {
		p.install.end()
	}
	if p.json {
		b, err := json.Marshal(ev)
		if err != nil {
			fmt.Fprintf(p.env.Stderr, "cdxtheme chat: encode event: %v\n", err)
			return
		}
		p.env.exact().Write(append(b, '\n'))
		return
	}
	if ev.Type() != chat.EventThought {
		p.flushThought()
	}
	errw := p.env.Stderr
	switch pl := ev.Payload.(type) {
	case chat.TextChunk:
		if pl.Text != "" {
			io.WriteString(p.env.Stdout, pl.Text)
			p.wroteText = true
			p.lastByte = pl.Text[len(pl.Text)-1]
		}
	case chat.ThoughtChunk:
		p.thought.WriteString(pl.Text)
	case chat.ToolCallStarted:
		if tc := pl.ToolCall; tc != nil {
			fmt.Fprintf(errw, "[tool] %s%s%s\n", deref(tc.Title, tc.ToolCallID), paren(tc.Kind), bracket(tc.Status))
		}
	case chat.ToolCallUpdated:
		if tc := pl.ToolCall; tc != nil && tc.Status != nil && (*tc.Status == acp.StatusCompleted || *tc.Status == acp.StatusFailed) {
			fmt.Fprintf(errw, "[tool] %s %s\n", deref(tc.Title, tc.ToolCallID), *tc.Status)
		}
	case chat.PlanUpdate:
		if pl.Plan != nil && len(pl.Plan.Entries) > 0 {
			var steps []string
			for _, e := range pl.Plan.Entries {
				steps = append(steps, fmt.Sprintf("%s (%s)", e.Content, e.Status))
			}
			fmt.Fprintf(errw, "[plan] %s\n", strings.Join(steps, "; "))
		}
	case chat.Warning:
		fmt.Fprintf(errw, "warning: %s\n", pl.Text)
	case chat.StatusNotice:
		if pl.Status != nil {
			fmt.Fprintf(errw, "agent: %s\n", pl.Status)
		}
	case chat.OptionRefused:
		if pl.Refused != nil {
			fmt.Fprintf(errw, "warning: the agent did not take %s = %v: %s\n", pl.Refused.ConfigID, pl.Refused.Value, pl.Text)
		}
	case chat.AuthRequired:
		var names []string
		for _, m := range pl.AuthMethods {
			names = append(names, fmt.Sprintf("%s (%s)", m.Name, m.ID))
		}
		fmt.Fprintf(errw, "The agent needs you to sign in first. Methods it offers: %s.\n"+
			"Sign in with Codex itself (e.g. `codex login`) or set OPENAI_API_KEY / CODEX_API_KEY, then retry.\n", strings.Join(names, ", "))
	case chat.ErrorEvent:
		p.errorSeen = true
		p.endText()
		fmt.Fprintf(errw, "error (%s): %s\n", pl.Code, pl.Text)
		if pl.Agent != "" {
			fmt.Fprintf(errw, "  agent: %s\n", pl.Agent)
		}
		if len(pl.Stderr) > 0 {
			fmt.Fprintf(errw, "  agent stderr (last %d lines):\n", len(pl.Stderr))
			for _, l := range pl.Stderr {
				fmt.Fprintf(errw, "    %s\n", l)
			}
		}
	}
}

// finish ends the text with a newline and says which session to continue.
func (p *chatPrinter) finish(res chat.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		return
	}
	p.flushThought()
	p.endText()
	if res.SessionID != "" {
		fmt.Fprintf(p.env.Stderr, "session: %s (stop: %s) — continue with --session %s\n", res.SessionID, orDash(res.StopReason), res.SessionID)
	}
}

func (p *chatPrinter) endText() {
	if p.wroteText && p.lastByte != '\n' {
		io.WriteString(p.env.Stdout, "\n")
		p.lastByte = '\n'
	}
}

func (p *chatPrinter) flushThought() {
	if p.thought.Len() == 0 {
		return
	}
	// Cleaned before it is cut and folded: a cut must not split a sequence.
	s := p.env.cell(p.thought.String())
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	fmt.Fprintf(p.env.Stderr, "[thinking] %s\n", s)
	p.thought.Reset()
}

func deref(s *string, def string) string {
	if s == nil || *s == "" {
		return def
	}
	return *s
}

func paren(s *string) string {
	if s == nil || *s == "" {
		return ""
	}
	return " (" + *s + ")"
}

func bracket(s *string) string {
	if s == nil || *s == "" {
		return ""
	}
	return " [" + *s + "]"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// decider answers permission requests for the CLI.
func decider(env *Env, policy string, p *chatPrinter) permission.Decider {
	if policy != settings.PolicyAsk {
		choose := permission.Policy(policy)
		return permission.DeciderFunc(func(ctx context.Context, sid string, perm permission.Permission) (string, error) {
			id, err := choose.Decide(ctx, sid, perm)
			p.note(fmt.Sprintf("[permission] %s: %s by --permission %s", toolTitle(perm), optionName(perm, id), policy))
			return id, err
		})
	}
	if !stdinTerminal() {
		deny := permission.Policy(settings.PolicyDeny)
		return permission.DeciderFunc(func(ctx context.Context, sid string, perm permission.Permission) (string, error) {
			id, err := deny.Decide(ctx, sid, perm)
			p.note(fmt.Sprintf("[permission] %s: %s, because stdin is not a terminal to ask on (use --permission allow or deny)", toolTitle(perm), optionName(perm, id)))
			return id, err
		})
	}
	return &askDecider{in: bufio.NewReader(chatStdin), out: env.Stderr, printer: p}
}

func (p *chatPrinter) note(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		return // the permission event already carries it
	}
	p.flushThought()
	fmt.Fprintln(p.env.Stderr, s)
}

func toolTitle(perm permission.Permission) string {
	if perm.ToolCall == nil {
		return "a tool call"
	}
	return deref(perm.ToolCall.Title, perm.ToolCall.ToolCallID)
}

func optionName(perm permission.Permission, id string) string {
	if id == "" {
		return "cancelled"
	}
	for _, o := range perm.Options {
		if o.OptionID == id {
			return fmt.Sprintf("%q (%s)", o.Name, o.Kind)
		}
	}
	return id
}

// askDecider asks on the terminal: the options are listed by name and
// picked by number; an empty answer rejects.
type askDecider struct {
	in      *bufio.Reader
	out     io.Writer
	printer *chatPrinter
}

func (a *askDecider) Decide(ctx context.Context, _ string, perm permission.Permission) (string, error) {
	a.printer.mu.Lock()
	a.printer.flushThought()
	a.printer.endText()
	fmt.Fprintf(a.out, "\nThe agent asks permission: %s\n", toolTitle(perm))
	for i, o := range perm.Options {
		fmt.Fprintf(a.out, "  %d) %s\n", i+1, o.Name)
	}
	fmt.Fprintf(a.out, "Choose 1-%d (Enter rejects): ", len(perm.Options))
	a.printer.mu.Unlock()

	type line struct {
		s   string
		err error
	}
	ch := make(chan line, 1)
	go func() {
		s, err := a.in.ReadString('\n')
		ch <- line{s, err}
	}()
	var l line
	select {
	case l = <-ch:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	reject := permission.ChooseByKind(perm.Options, acp.KindRejectOnce, acp.KindRejectAlways)
	s := strings.TrimSpace(l.s)
	if s == "" {
		if l.err != nil && l.err != io.EOF {
			return reject, l.err
		}
		return reject, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > len(perm.Options) {
		fmt.Fprintf(a.out, "%q is not one of 1-%d; rejected.\n", s, len(perm.Options))
		return reject, nil
	}
	return perm.Options[n-1].OptionID, nil
}
