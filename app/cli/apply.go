package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
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
	ids := make([]string, len(install.Targets))
	for i, t := range install.Targets {
		ids[i] = t.ID
	}
	fs := newCodexFlags("apply", "cdxtheme apply --target TARGET [--yes] [--settings] WORKSPACE\n       cdxtheme apply --undo --target TARGET", env)
	target := fs.String("target", "", "one of "+strings.Join(ids, ", "))
	yes := fs.Bool("yes", false, "install without asking (required when stdin is not a terminal)")
	settings := fs.Bool("settings", false, "also change the settings that make the program use the theme (each file is backed up for --undo)")
	undo := fs.Bool("undo", false, "undo the last apply into TARGET: put back what it replaced, remove what it created")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\n%s\nShows the files it will write and asks before installing. A file it replaces\nis kept in the app's data folder (%s) for --undo; a file that\nalready holds the theme is left alone. The settings that make the program use\nthe theme are listed; --settings changes them too (same backup and --undo). Windows Terminal off Windows: prints\nthe scheme to paste into settings.json.\n", workspaceHelp, filepath.Join(paths.DataDir(), "applied"))
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
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
	if *undo {
		if len(pos) != 0 {
			return codexUsage(env, fs, "--undo takes no WORKSPACE, got %d arguments", len(pos))
		}
		return undoApply(env, *target)
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one WORKSPACE, got %d arguments", len(pos))
	}
	t, _, code := loadTheme(env, "apply", pos[0])
	if code != ExitOK {
		return code
	}
	paths, err := install.DefaultPaths()
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	plan, err := apply.Plan(t, *target, paths)
	if errors.Is(err, install.ErrUnsupported) && *target == "windows-terminal" {
		files, rerr := targets.Render(t, "windows-terminal")
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
	for _, tg := range install.Targets {
		if tg.ID == plan.Target {
			name = tg.Name
		}
	}
	fmt.Fprintf(env.Stdout, "Install %q into %s:\n", plan.Theme, name)
	for _, f := range plan.Files {
		state := "new"
		switch {
		case f.Same:
			state = "holds this theme already; left alone"
		case f.Exists:
			state = "replaces the existing file, which is backed up first"
		}
		fmt.Fprintf(env.Stdout, "  %s (%s)\n", f.Path, state)
	}
	printSettings(env.Stdout, plan.Steps, *settings)
	for i, st := range plan.Steps {
		if st.Edit && *settings {
			plan.Change = append(plan.Change, i)
		}
	}
	fmt.Fprintf(env.Stdout, "Backups and the record for --undo go to %s.\n", plan.Backups)
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
	res, err := apply.Apply(plan)
	printEach(env.Stdout, "installed", res.Installed)
	printEach(env.Stdout, "unchanged", res.Unchanged)
	printEach(env.Stdout, "backup   ", res.Backups)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	if res.Note != "" {
		fmt.Fprintf(env.Stdout, "\n%s\n", res.Note)
	}
	for _, st := range res.Steps {
		switch {
		case st.Kind == "command":
			fmt.Fprintf(env.Stdout, "  run:          %s\n", st.Text)
		case st.State == "set" || st.State == "changed":
			// Done: the list above (or the plan) says so.
		case st.State == "change":
			fmt.Fprintf(env.Stdout, "  change in %s:\n                %s\n    to          %s\n", st.File, st.Old, st.New)
		default:
			fmt.Fprintf(env.Stdout, "  add to %s:\n                %s\n", st.File, strings.ReplaceAll(st.Text, "\n", "\n                "))
		}
	}
	if res.Undo {
		fmt.Fprintf(env.Stdout, "\nTo undo: cdxtheme apply --undo --target %s\n", plan.Target)
	}
	return ExitOK
}

func undoApply(env *Env, target string) int {
	p, err := install.DefaultPaths()
	if err == nil {
		var res apply.Undone
		res, err = apply.UndoApply(p, target)
		printEach(env.Stdout, "restored", res.Restored)
		printEach(env.Stdout, "removed ", res.Removed)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme apply: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// printEach prints one line a path, after its label.
func printEach(w io.Writer, label string, paths []string) {
	for _, p := range paths {
		fmt.Fprintln(w, label, p)
	}
}

// printSettings lists what each setting step found in its file and what
// --settings does with it.
func printSettings(w io.Writer, steps []install.Step, change bool) {
	listed := false
	for _, st := range steps {
		if st.Kind != "line" {
			continue
		}
		if !listed {
			fmt.Fprintln(w, "Settings:")
		}
		listed = true
		// Each line starts with what it does, never with a path: the
		// plan's file lines are "  /path (what)", one a file.
		var what string
		switch st.State {
		case "set":
			old := st.Old
			if old == "" {
				old = oneLineText(st.Text)
			}
			what = "already set in " + st.File + ": " + old
		case "change":
			what = "change in " + st.File + ": " + st.Old + " -> " + st.New
		case "add":
			what = "add to " + st.File + ": " + st.New
		case "create":
			what = "create " + st.File + " with: " + st.New
		default:
			what = "left to you in " + st.File + ": " + st.Reason
		}
		if st.Edit {
			if change {
				what += " (--settings: done by this apply, backed up for --undo)"
			} else {
				what += " (pass --settings to do it)"
			}
		}
		fmt.Fprintf(w, "  %s\n", what)
	}
}

// oneLineText shows a step's lines on one line.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
