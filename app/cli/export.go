package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"cdxtheme/core/contrast"
	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/handedit"
	"cdxtheme/core/targets"
	"cdxtheme/core/targets/tinted"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

func init() {
	register(command{
		name:    "export",
		summary: "export a workspace's theme.json to an editor or terminal format",
		run:     runExport,
	})
	register(command{
		name:    "check",
		summary: "check a workspace's theme for WCAG contrast (exit 1 when a pair fails AA)",
		run:     runCheck,
	})
}

const workspaceHelp = `WORKSPACE is a workspace id (see the app's workspace list; folders under
the data dir's theme_builder/), a folder containing theme.json, or a theme
file itself.`

func runExport(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("export", "cdxtheme export --format FORMAT [--out DIR] WORKSPACE\n       cdxtheme export --template DIR [--out DIR] WORKSPACE", env)
	format := fs.String("format", "", "one of "+strings.Join(targets.FormatIDs(), ", ")+", or all")
	tmpl := fs.String("template", "", "a tinted-theming template folder (templates/config.yaml and mustache templates) to render with the theme's base16 and base24 slots")
	out := fs.String("out", "", "output folder (default WORKSPACE/export/FORMAT, or WORKSPACE/export/template-NAME); with --format all, one subfolder per format")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\n%s\nPrints the paths written. Exit 1 when the theme is invalid (every problem is listed).\n", workspaceHelp)
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one WORKSPACE, got %d arguments", len(pos))
	}
	if *tmpl != "" {
		if *format != "" {
			return codexUsage(env, fs, "--format and --template are two ways to export: give one")
		}
		return exportTemplate(env, *tmpl, *out, pos[0])
	}
	formats := []string{*format}
	if *format == "all" {
		formats = targets.FormatIDs()
	} else if _, err := targets.FormatByID(*format); err != nil {
		if *format == "" {
			return codexUsage(env, fs, "--format is required")
		}
		return codexUsage(env, fs, "%v", err)
	}
	t, dir, code := loadTheme(env, "export", pos[0])
	if code != ExitOK {
		return code
	}
	for _, f := range formats {
		// The folder the user named (--out) is theirs and followed as
		// given; below it, and below the workspace, nothing is followed.
		base, rel := dir, "export/"+f
		switch {
		case *out != "" && *format == "all":
			base, rel = *out, f
		case *out != "":
			base, rel = *out, ""
		}
		paths, err := targets.Export(t, f, base, rel)
		for _, p := range paths {
			fmt.Fprintln(env.Stdout, p)
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "cdxtheme export: %v\n", err)
			return ExitError
		}
	}
	return ExitOK
}

func runCheck(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("check", "cdxtheme check [--json] WORKSPACE", env)
	asJSON := fs.Bool("json", false, `print {"theme", "checks": [{fg, bg, fgRole, bgRole, ratio, aa, aaa, aaLarge, apca}], "failures"}`)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\n%s\nPrints every contrast pair; pairs below AA (4.5:1) are marked FAIL.\nExit 0 when all pass AA, 1 when any fails or the theme is invalid.\n", workspaceHelp)
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one WORKSPACE, got %d arguments", len(pos))
	}
	t, _, code := loadTheme(env, "check", pos[0])
	if code != ExitOK {
		return code
	}
	checks := contrast.Checks(t)
	failures := len(contrast.Failures(checks))
	// The companion (the other appearance) is checked as well: it ships in
	// the same exports.
	var cChecks []contrast.Check
	cFailures := 0
	if c := t.Companion; c != nil {
		cChecks = contrast.Checks(c)
		cFailures = len(contrast.Failures(cChecks))
	}
	if *asJSON {
		out := map[string]any{"theme": t.Name, "checks": checks, "failures": failures}
		if t.Companion != nil {
			out["companion"] = map[string]any{"theme": t.Companion.Name, "checks": cChecks, "failures": cFailures}
		}
		if c := printCodexJSON(env, out); c != ExitOK {
			return c
		}
	} else {
		report := func(of string, checks []contrast.Check, failures int) {
			printChecks(env.Stdout, checks)
			if failures == 0 {
				fmt.Fprintf(env.Stdout, "\nAll %d pairs%s pass AA.\n", len(checks), of)
			} else {
				fmt.Fprintf(env.Stdout, "\n%d of %d pairs%s fail AA. Ask the agent to fix them with:\n\n%s\n", failures, len(checks), of, contrast.FixPrompt(checks))
			}
		}
		report("", checks, failures)
		if c := t.Companion; c != nil {
			fmt.Fprintf(env.Stdout, "\n%s, the %s variant (theme.json's companion):\n", c.Name, c.Appearance)
			// Its roles live under "companion." in theme.json: the fix
			// prompt names them so.
			named := slices.Clone(cChecks)
			for i := range named {
				named[i].FGRole, named[i].BGRole = "companion."+named[i].FGRole, "companion."+named[i].BGRole
			}
			report(" of the "+c.Appearance+" variant", named, cFailures)
		}
	}
	if failures+cFailures > 0 {
		return ExitError
	}
	return ExitOK
}

func printChecks(w io.Writer, checks []contrast.Check) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\tFOREGROUND\t\tBACKGROUND\t\tRATIO\tAA\tAAA\tLARGE\tAPCA Lc")
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, c := range checks {
		mark := ""
		if !c.AA {
			mark = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f:1\t%s\t%s\t%s\t%.1f\n", mark, c.FGLabel(), c.FG, c.BGLabel(), c.BG, c.Ratio, yes(c.AA), yes(c.AAA), yes(c.AALarge), c.APCA)
	}
	tw.Flush()
}

// themePath finds the theme file an argument names: a workspace id, a
// folder holding theme.json, or the file itself. A file the user named is
// read through a link; a workspace's theme.json never is (the agent may
// have planted one).
func themePath(arg string) (string, fsread.Links, error) {
	if st, err := os.Stat(arg); err == nil {
		if st.IsDir() {
			return filepath.Join(arg, theme.FileName), fsread.NoFollow, nil
		}
		return arg, fsread.Follow, nil
	}
	if workspace.ValidID(arg) {
		m, err := workspace.Open(workspace.Root(), arg)
		if err != nil {
			return "", fsread.NoFollow, err
		}
		return filepath.Join(m.Dir, theme.FileName), fsread.NoFollow, nil
	}
	return "", fsread.NoFollow, fmt.Errorf("%q is neither a folder nor a workspace id", arg)
}

// loadTheme reads and validates the theme an argument names, printing
// every problem. It returns the theme, its folder and ExitOK, or the exit
// code to return.
func loadTheme(env *Env, cmd, arg string) (*theme.Theme, string, int) {
	path, links, err := themePath(arg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %v\n", cmd, err)
		return nil, "", ExitError
	}
	b, err := fsread.ReadFile(path, theme.MaxFileSize, links)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %s does not exist yet (the agent writes it)\n", cmd, path)
		return nil, "", ExitError
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %v\n", cmd, err)
		return nil, "", ExitError
	}
	t, err := theme.Parse(b)
	var ve *theme.ValidationError
	if errors.As(err, &ve) {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %s is not a valid theme (%d problems):\n", cmd, path, len(ve.Problems))
		for _, p := range ve.Problems {
			fmt.Fprintf(env.Stderr, "  %s\n", p)
		}
		return nil, "", ExitError
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %s: %v\n", cmd, path, err)
		return nil, "", ExitError
	}
	heldLocks(env, cmd, path, t)
	return t, filepath.Dir(path), ExitOK
}

// exportTemplate renders a tinted-theming template folder with the theme
// (and its companion), in base16 and base24, and writes the files under
// the output folder at the paths the folder's config names.
func exportTemplate(env *Env, folder, out, arg string) int {
	f, err := tinted.Load(folder)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme export: %v\n", err)
		return ExitError
	}
	t, dir, code := loadTheme(env, "export", arg)
	if code != ExitOK {
		return code
	}
	files, err := f.RenderTheme(t)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme export: %s: %v\n", folder, err)
		return ExitError
	}
	base, rel := dir, "export/template-"+theme.Slug(f.Name)
	if out != "" {
		base, rel = out, ""
	}
	paths, err := writeFiles(base, rel, files)
	for _, p := range paths {
		fmt.Fprintln(env.Stdout, p)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme export: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// writeFiles writes files below base/rel, following no link below base.
func writeFiles(base, rel string, files map[string][]byte) ([]string, error) {
	d, err := fswrite.Open(base, rel)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var paths []string
	for _, name := range tinted.Files(files) {
		p, err := d.WriteFile(name, files[name], 0o644)
		if err != nil {
			return paths, err
		}
		paths = append(paths, filepath.FromSlash(p))
	}
	return paths, nil
}

// heldLocks puts back, in t, every colour the designer locked in the
// desktop app that theme.json no longer holds (the app restores the file
// itself when its watcher sees the write; the CLI may run before it does,
// or without it), so an export, a check or an apply never carries an
// unlocked value. The file is left as it is; stderr says what was held.
func heldLocks(env *Env, cmd, path string, t *theme.Theme) {
	dir := filepath.Dir(path)
	root, err := filepath.EvalSymlinks(workspace.Root())
	if err != nil {
		return
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(dir))
	if err != nil || parent != root || !workspace.ValidID(filepath.Base(dir)) {
		return // not a workspace of the app's: no locks
	}
	l, err := handedit.Load(handedit.RecordPath(filepath.Base(dir)))
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: warning: the locked colours could not be read: %v\n", cmd, err)
	}
	if l == nil {
		return
	}
	for _, r := range l.EnforceLocks(t) {
		fmt.Fprintf(env.Stderr, "cdxtheme %s: %s is locked at %s; theme.json has %s, the locked colour is used\n", cmd, r.Path, r.Kept, r.Was)
	}
}
