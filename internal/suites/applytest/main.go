// Command applytest applies a light/dark theme family to VS Code in the
// PRODUCTION window with real clicks, under an X server
// (scripts/apply-window-test.sh starts it under xvfb-run), the fake agent
// as the agent and a private HOME. Issue #37: the plan listed the variant's
// file twice, the dialog's keyed list threw, the dialog never opened and
// Export and Apply stayed greyed. Here the plan dialog must open listing
// each file once, Apply must install both variants into HOME's
// .vscode/extensions, and Export and Apply must be usable again after.
// Issue #40: the user's own settings.json already names a theme; the plan
// must say it would change it, leave it alone unless "Change it for me" is
// ticked, change only the value when ticked, and Undo must put the file
// back byte for byte.
// The page is read through the self-test hook, as internal/suites/edittest does.
// Prints "N passed, N failed".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/companion"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin   = flag.String("app", "build/bin/cdxtheme", "the production binary")
	agentBin = flag.String("agent", "build/bin/fakeagent", "the fake agent")
	outDir   = flag.String("out", "build/window-test", "screenshots and logs")
)

var selectors = map[string]string{
	"applyMenu":    `[data-testid="apply-menu"]`,
	"applyEnabled": `[data-testid="apply-menu"]:not(:disabled)`,
	"exportOn":     `[data-testid="export-menu"]:not(:disabled)`,
	"vscode":       `[data-testid="apply-target-vscode"]`,
	"dialog":       `[data-testid="confirm-dialog"]`,
	"plan":         `[data-testid="apply-plan"]`,
	"ok":           `[data-testid="confirm-ok"]`,
	"installed":    `[data-testid="installed-path"]`,
	"failure":      `[data-testid="theme-action-error"]`,
	"running":      `[data-testid="running"]`,
	"variant":      `[data-testid="variant-name"]`,
	"messages":     `[data-testid="message-list"]`,
	"planSteps":    `[data-testid="apply-plan-steps"]`,
	"stepChange":   `[data-testid="step-change"]`,
	"stepChecked":  `[data-testid="step-change"]:checked`,
	"undo":         `[data-testid="undo-apply"]`,
	"restored":     `[data-testid="restored-path"]`,
}

// userSettings is a VS Code settings.json as people keep it: comments,
// a trailing comma, another theme set.
const userSettings = "// mine\n{\n    \"editor.fontSize\": 14, // big\n    \"workbench.colorTheme\": \"Default Dark Modern\",\n    /* keep */ \"files.autoSave\": \"off\",\n}\n"

var tally xwin.Tally

func check(name string, ok bool, detail ...any) bool { tally.Check(name, ok, detail...); return ok }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	if err := run(); err != nil {
		check("the apply flow ran to its end", false, err)
	}
	fmt.Println(tally.Summary())
	if tally.Failed > 0 {
		os.Exit(1)
	}
}

func run() error {
	r, err := xwin.NewRig("apply", *appBin, *agentBin, *outDir, 1880, 1180, selectors)
	if err != nil {
		return err
	}
	defer r.Close()
	// Apply menus sit in the preview column, whose code previews take the
	// wheel: it is turned at the window's edge.
	r.WheelAtRightEdge = true
	data, home := r.Data, filepath.Join(r.Tmp, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	// The install goes into this HOME, never the user's.
	r.Env = append(r.Env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	settings := filepath.Join(home, ".config", "Code", "User", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(settings, []byte(userSettings), 0o600); err != nil {
		return err
	}
	a, err := r.Start("1", "CDXTHEME_SELFTEST_PROMPT=A dusk theme #theme")
	if err != nil {
		return err
	}
	defer a.Stop()

	// 1. The fake agent's turn writes a theme; then it gets a light variant.
	if _, err := a.Wait("the first turn wrote a theme", 90*time.Second, func(p xwin.Elements) bool {
		_, running := p.Els["running"]
		return !running && strings.Contains(p.Els["messages"].Text, "Theme ready.")
	}); err != nil {
		return err
	}
	builds, _ := filepath.Glob(filepath.Join(data, "theme_builder", "*", theme.FileName))
	if len(builds) != 1 {
		return fmt.Errorf("want one build with a theme, have %v", builds)
	}
	fam := theme.Example()
	fam.Companion = companion.Counterpart(fam)
	b, err := json.Marshal(fam)
	if err != nil {
		return err
	}
	if err := os.WriteFile(builds[0]+".tmp", b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(builds[0]+".tmp", builds[0]); err != nil {
		return err
	}

	// 2. Apply → VS Code opens the plan, each file once. (The variant's
	// preview is shown first, so the page reports the layout with it.)
	if _, err := a.Wait("the preview shows the light variant and Apply is usable", 20*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["applyEnabled"]
		return ok && p.Els["variant"].Text == fam.Companion.Name
	}); err != nil {
		return err
	}
	// The column may still be settling after its scroll when the report
	// says the button is in view: the menu is clicked again until it opens.
	for try := 0; ; try++ {
		if err := a.Click("applyMenu"); err != nil {
			return err
		}
		if _, err := a.Wait("the Apply menu opened", 3*time.Second, func(p xwin.Elements) bool { _, ok := p.Els["vscode"]; return ok }); err == nil {
			break
		} else if try == 3 {
			return err
		}
	}
	if err := a.Click("vscode"); err != nil {
		return err
	}
	light := theme.Slug(fam.Companion.Name) + "-color-theme.json"
	p, err := a.Wait("the plan dialog opened", 20*time.Second, func(p xwin.Elements) bool {
		_, d := p.Els["dialog"]
		return d && strings.Contains(p.Els["plan"].Text, light)
	})
	check("Apply → VS Code opens the plan dialog with the light variant's file", err == nil, err)
	if err != nil {
		return err
	}
	xwin.Shot(*outDir, "apply-plan")
	check("the plan lists the light variant's file once", strings.Count(p.Els["plan"].Text, light) == 1, p.Els["plan"].Text)
	steps := p.Els["planSteps"].Text
	check("the plan says it would change the user's colorTheme, old to new",
		strings.Contains(steps, "Change in "+settings) && strings.Contains(steps, `"workbench.colorTheme": "Default Dark Modern"`) &&
			strings.Contains(steps, `"workbench.colorTheme": "`+fam.Name+`"`), steps)
	_, ticked := p.Els["stepChecked"]
	check("Change it for me is off for the user's own settings.json", !ticked)
	if err := a.Click("stepChange"); err != nil {
		return err
	}
	if _, err := a.Wait("Change it for me is ticked", 5*time.Second, func(p xwin.Elements) bool { _, ok := p.Els["stepChecked"]; return ok }); err != nil {
		check("a real click ticks Change it for me", false, err)
		return err
	}
	xwin.Shot(*outDir, "apply-plan-settings")

	// 3. Confirmed, both variants are installed and the buttons come back.
	if err := a.Click("ok"); err != nil {
		return err
	}
	p, err = a.Wait("the install is reported", 20*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["installed"]
		_, failed := p.Els["failure"]
		return ok || failed
	})
	check("the apply reports what it installed", err == nil && p.Els["failure"].Text == "", err, p.Els["failure"].Text)
	ext, _ := filepath.Glob(filepath.Join(home, ".vscode", "extensions", "*", "themes", "*.json"))
	check("both variants are in HOME's VS Code extension", len(ext) == 2, ext)
	p, err = a.Wait("Export and Apply are usable again", 10*time.Second, func(p xwin.Elements) bool {
		_, ap := p.Els["applyEnabled"]
		_, ex := p.Els["exportOn"]
		return ap && ex
	})
	check("Export and Apply are usable after the apply", err == nil, err)
	got, _ := os.ReadFile(settings)
	want := strings.Replace(userSettings, `"Default Dark Modern"`, `"`+fam.Name+`"`, 1)
	check("settings.json now names the theme, every other byte as it was", string(got) == want, string(got))

	// 4. Undo apply puts settings.json back byte for byte.
	if err := a.Click("undo"); err != nil {
		return err
	}
	if _, err = a.Wait("the undo is reported", 20*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["restored"]
		_, failed := p.Els["failure"]
		return ok || failed
	}); err != nil {
		check("Undo apply reports what it restored", false, err)
		return err
	}
	got, _ = os.ReadFile(settings)
	check("Undo apply restored settings.json byte for byte", string(got) == userSettings, string(got))
	ext, _ = filepath.Glob(filepath.Join(home, ".vscode", "extensions", "*", "themes", "*.json"))
	check("Undo apply removed the installed variants", len(ext) == 0, ext)
	return nil
}
