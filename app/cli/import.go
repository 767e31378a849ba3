package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"cdxtheme/core/theme"
	"cdxtheme/core/themeimport"
	"cdxtheme/core/workspace"
)

func init() {
	register(command{
		name:    "import",
		summary: "create a build from a VS Code, base16/base24, iTerm2, Alacritty, Windows Terminal, kitty or Ghostty theme",
		run:     runImport,
	})
}

// importResult is `import --json`: the new workspace and where each role
// of its theme.json came from.
type importResult struct {
	ID       string                   `json:"id"`
	Path     string                   `json:"path"`
	Format   string                   `json:"format"`
	Name     string                   `json:"name"`
	Mapped   []themeimport.Mapping    `json:"mapped"`
	Derived  []themeimport.Derivation `json:"derived"`
	Warnings []string                 `json:"warnings,omitempty"`
	// Kept are the parts carried verbatim beside the roles (scheme slots,
	// original colour spaces, per-target overrides).
	Kept []string `json:"kept,omitempty"`
	// Palette is the palette derived from the file's colours, which the
	// roles follow (absent when the file had its own).
	Palette []themeimport.DerivedEntry `json:"palette,omitempty"`
}

func runImport(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("import", "cdxtheme import FILE [--name NAME] [--no-overrides] [--json]", env)
	name := fs.String("name", "", "the theme's name (default: the name in the file, else the file's name)")
	noOverrides := fs.Bool("no-overrides", false, "keep only the roles: drop the source's own keys (targets.*), each named in a warning")
	asJSON := fs.Bool("json", false, `print {"id", "path", "format", "name", "mapped": [{role, from}], "derived": [{role, from, rule}], "warnings", "kept", "palette": [{name, color, users}]}`)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\nFILE is a VS Code colour theme (.json), a base16 or base24 scheme (.yaml), an iTerm2 .itermcolors,\n"+
			"a TextMate .tmTheme, an Alacritty or WezTerm .toml, a Windows Terminal scheme or settings.json, a kitty .conf,\n"+
			"a Ghostty theme or a foot .ini (at most %d MB). Prints the new workspace's id; every role of its theme.json\n"+
			"is either mapped from a key of FILE or derived, and --json says which.\n", themeimport.MaxImportSize>>20)
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one FILE, got %d arguments", len(pos))
	}
	data, err := themeimport.ReadImportFile(pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme %v\n", err)
		return ExitError
	}
	imp, err := themeimport.Import(pos[0], data)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme import: %v\n", err)
		return ExitError
	}
	imp.Rename(*name)
	if *noOverrides {
		imp.DropTargets()
	}
	doc, err := imp.Document()
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme import: %v\n", err)
		return ExitError
	}
	ws, err := workspace.CreateWithTheme(workspace.Root(), imp.Theme.Name, doc)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme import: %v\n", err)
		return ExitError
	}
	for _, w := range imp.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", w)
	}
	if *asJSON {
		return printCodexJSON(env, importResult{
			ID: ws.ID, Path: ws.Dir, Format: imp.Format, Name: imp.Theme.Name,
			Mapped: imp.Mapped, Derived: imp.Derived, Warnings: imp.Warnings, Kept: imp.Kept, Palette: imp.Palette,
		})
	}
	fmt.Fprintln(env.Stdout, ws.ID)
	var derived []string
	for _, d := range imp.Derived {
		derived = append(derived, d.Role)
	}
	fmt.Fprintf(env.Stderr, "imported %q from %s (%s): %d roles mapped, %d derived%s\n",
		imp.Theme.Name, filepath.Base(pos[0]), imp.Format, len(imp.Mapped), len(imp.Derived), list(derived))
	if len(imp.Palette) > 0 {
		fmt.Fprintf(env.Stderr, "  a palette of %d colours, which the roles follow\n", len(imp.Palette))
	}
	fmt.Fprintf(env.Stderr, "  %s\n", filepath.Join(ws.Dir, theme.FileName))
	return ExitOK
}

func list(roles []string) string {
	if len(roles) == 0 {
		return ""
	}
	return " (" + strings.Join(roles, ", ") + ")"
}
