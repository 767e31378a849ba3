package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"cdxtheme/core/theme"

	"github.com/mattn/go-isatty"
)

func init() {
	register(command{
		name:    "apply",
		summary: "install a workspace's theme into VS Code, Zed, a terminal, ...",
		run:     runApply,
	})
}

// Where apply reads its confirmation; tests replace these.
var (
	confirmIn       io.Reader = os.Stdin
	stdinIsTerminal           = func() bool {
		return isatty.IsTerminal(os.Stdin.Fd()) || isatty.IsCygwinTerminal(os.Stdin.Fd())
	}
)

func runApply(ctx context.Context, env *Env, args []string) int {
	ids := make([]string, len(theme.Targets))
	for i, t := range theme.Targets {
		ids[i] = t.ID
	}
	fs := newCodexFlags("apply", "cdxtheme apply --target TARGET [--yes] WORKSPACE", env)
	target := fs.String("target", "", "one of "+strings.Join(ids, ", "))
	yes := fs.Bool("yes", false, "install without asking (required when stdin is not a terminal)")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\n%s\nShows the files it will write and asks before installing. A file it replaces\nis kept as FILE.bak-TIMESTAMP. Windows Terminal off Windows: prints the\nscheme to paste into settings.json.\n", workspaceHelp)
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one WORKSPACE, got %d arguments", len(pos))
	}
	if *target == "" {
		return codexUsage(env, fs, "--target is required")
	}
	known := false
	for _, id := range ids {
		known = known || id == *target
	}
	if !known {
		return codexUsage(env, fs, "unknown target %q (want one of %s)", *target, strings.Join(ids, ", "))
	}
	t, _, code := loadTheme(env, "apply", pos[0])
	if code != ExitOK {
		return code
	}
	paths, err := theme.DefaultPaths()
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	plan, err := theme.Plan(t, *target, paths)
	if errors.Is(err, theme.ErrUnsupported) && *target == "windows-terminal" {
		files, rerr := theme.Render(t, "windows-terminal")
		if rerr != nil {
			fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", rerr)
			return ExitError
		}
		fmt.Fprintln(env.Stderr, "Windows Terminal is not on this system; add this scheme to the \"schemes\" list of its settings.json:")
		env.Stdout.Write(files[theme.Slug(t.Name)+".json"])
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	name := plan.Target
	for _, tg := range theme.Targets {
		if tg.ID == plan.Target {
			name = tg.Name
		}
	}
	fmt.Fprintf(env.Stdout, "Install %q into %s:\n", plan.Theme, name)
	for _, f := range plan.Files {
		state := "new"
		if f.Exists {
			state = "replaces the existing file, which is backed up first"
		}
		fmt.Fprintf(env.Stdout, "  %s (%s)\n", f.Path, state)
	}
	if !*yes {
		if !stdinIsTerminal() {
			fmt.Fprintln(env.Stderr, "cdxtheme apply: not installing: stdin is not a terminal, so there is no one to confirm; pass --yes")
			return ExitUsage
		}
		fmt.Fprint(env.Stderr, "Install? [y/N] ")
		line, _ := bufio.NewReader(confirmIn).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stderr, "Cancelled; nothing was written.")
			return ExitCancelled
		}
	}
	res, err := theme.Apply(plan)
	for _, p := range res.Installed {
		fmt.Fprintf(env.Stdout, "installed %s\n", p)
	}
	for _, p := range res.Backups {
		fmt.Fprintf(env.Stdout, "backup    %s\n", p)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	if res.Note != "" {
		fmt.Fprintf(env.Stdout, "\n%s\n", res.Note)
	}
	return ExitOK
}
