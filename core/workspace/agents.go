package workspace

import (
	"fmt"
	"strings"

	"cdxtheme/core/theme"
)

// AgentsMD is the AGENTS.md written into every workspace. Codex reads
// AGENTS.md from its working directory by itself, so this is how the agent
// learns the theme format. It is built from the theme package's role lists
// so it cannot drift from the validator.
func AgentsMD() string {
	var b strings.Builder
	b.WriteString("# CDXTheme workspace\n\n")
	b.WriteString("You are designing a colour theme. The CDXTheme app previews it live, checks its contrast and exports it to editors and terminals.\n\n")
	b.WriteString("## Your output\n\n")
	fmt.Fprintf(&b, "- Write the theme to `%s` in this folder (the workspace root). Nothing else is read.\n", theme.FileName)
	b.WriteString("- Write the whole file each time (write a temporary file and rename it over `theme.json` if you can). The preview updates on every save; a broken file shows an error and keeps the last good version.\n")
	b.WriteString("- A colour is a hex string `#rrggbb` (or `#rrggbbaa` for translucency, useful for `ui.selection`); a role's value that does not start with `#` names a palette entry (below). No CSS colour names, no `rgb()`, no short `#rgb`.\n")
	b.WriteString("- The user also edits colours by hand in the app. A prompt may end with a `<hand-edits>` note naming the colours they changed and the ones they LOCKED, roles (`ui.accent`) and palette entries (`palette.blue`) alike. Never change a locked colour: the app checks after every turn and puts a locked colour back, reporting that you changed it. A locked palette entry keeps its colour, so change what follows it only by pointing a role at another entry. Keep their hand-changed colours unless they ask otherwise.\n")
	b.WriteString("- Keep WCAG AA contrast (at least 4.5:1) for every text role on `ui.background` and `ui.surface`, every syntax role on `ui.background`, `ui.text` on `ui.selection`, and the ANSI colours 1–7 and 9–15 on `ui.background`. The app reports every pair below AA.\n\n")
	b.WriteString("## Design the palette first\n\n")
	b.WriteString("Design palette first, then map roles to it, the way Catppuccin, base16 and Radix themes are built:\n\n")
	b.WriteString("1. Pick the theme's colours as a small named `palette`: a few neutrals from background to text (e.g. `ink`, `slate`, `mist`, `fog`) and one entry per hue you use (`blue`, `coral`, `amber`, …), 8 to 26 entries in all. Name entries by what they are, not by the role they paint.\n")
	b.WriteString("2. Give every role the name of its entry instead of a hex value: `\"accent\": \"tide\"`, `\"keyword\": {\"color\": \"mauve\", \"fontStyle\": \"bold\"}`, and in `ansi` too. A role naming an entry follows it: changing the entry changes every role that names it, in the preview and every export, so one edit of \"the blue\" moves every place that uses it.\n")
	b.WriteString("3. Keep the references when you revise the theme: change an entry to move all its roles, point a role at another entry to move one role. Write a hex value into a role only for a one-off colour no entry should hold.\n")
	b.WriteString("4. For tints and shades of a hue use a ramp entry: `\"blue\": {\"base\": \"#3b82f6\"}` generates the steps 50 (lightest), 100, 200 … 900, 950 (darkest) in OKLCH from the base, the base being the step nearest its own lightness (or `\"at\": 500`); name a step as `\"blue.600\"` (`\"steps\": [100, 300, 500, 700, 900]` chooses the steps). `\"blue\"` alone is the base. Dark themes take backgrounds from the 800–950 steps and text from 50–300; light themes the reverse.\n\n")
	b.WriteString("An entry is a colour or a ramp, never the name of another entry. An unknown name is an error naming the role and the palette's entries. The contrast check names the entry a failing role follows (`ui.mutedText [mist]`): fix it in the entry unless other roles need the entry as it is.\n\n")
	b.WriteString("## Check your work (the `cdxtheme` tools)\n\n")
	b.WriteString("The app offers you an MCP server named `cdxtheme` with read-only tools on this workspace (if your tools are deferred, search for \"theme\" to find them):\n\n")
	b.WriteString("- `theme_check`: the app's own check, the one the user sees after your turn: parse errors, every contrast pair below target with the nearest passing colour that keeps the hue, locked colours you must keep. **After every write of `theme.json`, call `theme_check`, fix what it reports and call it again; do not say you are done until it answers `\"passes\": true`.**\n")
	b.WriteString("- `theme_render`: a PNG of the theme (code, UI chrome, terminal with the 16 ANSI colours). When you can read images, call it after writing the theme and look at the result: does it hold together, is anything hard to read or out of place?\n")
	b.WriteString("- `theme_roles` (every role, its colour and what it derives from) and `theme_export` (the file one editor or terminal gets), when you need them.\n\n")
	b.WriteString("The tools never write: you still write `theme.json` yourself.\n\n")
	b.WriteString("## Format\n\n")
	fmt.Fprintf(&b, "A JSON object (version %d; unknown fields are rejected) with these fields:\n\n", theme.Version)
	fmt.Fprintf(&b, "- `version`: %d.\n", theme.Version)
	b.WriteString("- `name` (required): the theme's display name.\n")
	fmt.Fprintf(&b, "- `appearance` (required): one of %s.\n", ticks(theme.Appearances))
	b.WriteString("- `author`, `description` (optional): strings.\n")
	b.WriteString("- `palette`: the theme's named colours, e.g. `{\"ink\": \"#161a24\", \"blue\": {\"base\": \"#3b82f6\"}}`; each entry a colour or a ramp (above). Entry names have no `.` and do not start with `#`.\n")
	b.WriteString("- `scheme`, `spaces`, `targets` (optional, written by an import): the imported base16/base24 slots, colours' original colour spaces (Display P3, …) and per-program overrides (`targets.vscode.colors`, `targets.vscode.tokenColors`, `targets.zed.style`, `targets.iterm2`), kept verbatim and applied on export over the colours made from the roles. Copy them unchanged when you rewrite the file; change a `targets` key only to change that program's colour, and delete it to let the roles drive it.\n")
	b.WriteString("- `companion` (optional): the theme's other appearance (a light theme's dark variant, or the reverse), a whole theme object of these same fields with its own `name`, the opposite `appearance` and no companion of its own. Exports carry both as one family. When the file has one, keep it in step with your changes (same hues and roles, contrast for its own background) unless asked otherwise; add one when the user asks for a light or dark variant.\n")
	fmt.Fprintf(&b, "- `ui` (required): an object with exactly these roles, each a colour or a palette name: %s.\n", ticks(theme.UIRoles))
	fmt.Fprintf(&b, "- `syntax` (required): an object with at least these colours: %s; and optionally the other syntax roles listed below. A syntax value is a colour or palette name, or `{\"color\": \"#rrggbb\" or a name, \"fontStyle\": \"bold italic\"}` where fontStyle is any of %s space-separated (`\"\"` for plain).\n", ticks(theme.SyntaxRoles), ticks(theme.FontStyles))
	fmt.Fprintf(&b, "- `ansi` (required): an array of exactly 16 colours (or palette names) in this order: %s.\n", ticks(theme.ANSINames))
	fmt.Fprintf(&b, "- %s (optional): objects of the optional roles below, each a colour or a palette name.\n", ticks(theme.OptionalGroups))
	b.WriteString("- `derive` (optional): rules replacing the default ones below, by role path, e.g. `{\"editor.lineHighlight\": {\"from\": \"ui.background\", \"mix\": \"ui.text\", \"amount\": 0.06}}`. A rule starts `from` a role; `best` + `on` take whichever of from and best reads better on on; `mix` + `amount` (0–1) move toward another role; `alpha` (0–1) makes it translucent.\n\n")
	b.WriteString("Meaning of the ui roles: `background` editor/window background; `surface` panels, sidebars, tab and status bars; `text` main text; `mutedText` line numbers, descriptions, placeholders; `accent` focus, links, cursor, buttons; `border` separators; `selection` selected-text background; `error`, `warning`, `success` diagnostics and diffs.\n\n")
	b.WriteString("## Optional roles\n\n")
	b.WriteString("Every optional role has a rule that derives it from the others when you leave it out, so set only the ones you want to differ. Exporters (VS Code, Zed, Neovim, Helix, terminals, …) paint hundreds of keys from these roles.\n\n")
	b.WriteString("| role | use | when not set |\n|---|---|---|\n")
	for _, info := range theme.Catalogue() {
		if info.Required {
			continue
		}
		rule := info.RuleText
		if info.FontStyle != "" {
			rule += "; font style " + string(info.FontStyle)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", info.Path, info.Help, rule)
	}
	b.WriteString("\nThe required syntax roles' default font styles: `syntax.comment` italic; give a fontStyle to change it.\n\n")
	b.WriteString("## Example\n\n```json\n")
	b.WriteString(strings.TrimSpace(string(theme.ExampleJSON())))
	b.WriteString("\n```\n")
	return b.String()
}

func ticks(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}
