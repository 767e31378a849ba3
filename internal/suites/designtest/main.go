// Command designtest drives the Design view in the PRODUCTION window with
// real input, under an X server (scripts/design-window-test.sh starts it
// under xvfb-run), the fake agent's theme scenario as the agent. After the
// agent's turn, a click on the chat's Design button opens the view; a
// click on the Zed-like preview's accent picks ui.accent; a click on the
// picker's "amber" swatch makes the accent follow that palette entry; a
// click on the strip's "amber" opens the entry, and a hex typed into the
// picker with real keys and Enter must reach theme.json's palette and move
// the accent in the preview and in the contrast table. Then the real
// window is resized to the smallest the app allows (800×600) and another
// palette edit is made there the same way. The view is photographed at
// 1440×900 and 800×600, and the picker alone.
// Prints "N passed, N failed".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin   = flag.String("app", "build/bin/cdxtheme", "the production binary")
	agentBin = flag.String("agent", "build/bin/fakeagent", "the fake agent")
	outDir   = flag.String("out", "build/window-test", "screenshots and logs")
	shotDir  = flag.String("shots", "docs/designer", "where the Design view's screenshots go (\"\" for none)")
)

const (
	newHex = "#3355ff"
	newRGB = "rgb(51, 85, 255)"
	// The edit made in the smallest window: unlike newHex and the agent's.
	smallHex = "#22aa66"
	smallRGB = "rgb(34, 170, 102)"
)

var selectors = map[string]string{
	"messages":     `[data-testid="message-list"]`,
	"running":      `[data-testid="running"]`,
	"toggle":       `[data-testid="toggle-design"]`,
	"design":       `[data-testid="design-view"]`,
	"zedAccent":    `[data-testid="design-zed"] .z-acc`,
	"role":         `[data-testid="design-role"]`,
	"amberSwatch":  `[data-testid="picker-palette"][data-name="amber"]`,
	"amberEntry":   `[data-testid="palette-entry"][data-name="amber"]`,
	"hex":          `[data-testid="picker-hex"]`,
	"picker":       `[data-testid="oklch-picker"]`,
	"accentRow":    `[data-testid="contrast-row"][data-fg-role="ui.accent"][data-bg-role="ui.background"]`,
	"accentSample": `[data-testid="contrast-row"][data-fg-role="ui.accent"][data-bg-role="ui.background"] .sample`,
	"editorError":  `[data-testid="editor-error"]`,
	"prompt":       `[data-testid="prompt"]`,
}

var tally xwin.Tally

func check(name string, ok bool, detail ...any) bool { tally.Check(name, ok, detail...); return ok }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	if err := run(); err != nil {
		check("the design flow ran to its end", false, err)
	}
	fmt.Println(tally.Summary())
	if tally.Failed > 0 {
		os.Exit(1)
	}
}

// click, wait and page are the shared driver's (xwin.App).
type app = xwin.App

// shot saves the window (or a part of its page) as name.png in the shots folder.
func shot(a *app, name string, part string) {
	if *shotDir == "" {
		return
	}
	xwin.Xdo("mousemove", "--sync", "0", "0") // no hover state in the picture
	wid, geo := xwin.Window(xwin.Title)
	args := []string{"-window", wid}
	if part != "" {
		p := a.Page()
		e := p.Els[part]
		x, y := geo["WIDTH"]-p.VW+e.X, geo["HEIGHT"]-p.VH+e.Y
		args = append(args, "-crop", fmt.Sprintf("%dx%d+%d+%d", e.W+16, e.H+16, max(0, x-8), max(0, y-8)), "+repage")
	}
	out := filepath.Join(*shotDir, name+".png")
	err := exec.Command("import", append(args, out)...).Run()
	check("screenshot "+out+" saved", err == nil, err)
}

func run() error {
	r, err := xwin.NewRig("design", *appBin, *agentBin, *outDir, 1440, 900, selectors)
	if err != nil {
		return err
	}
	defer r.Close()
	data := r.Data
	a, err := r.Start("1", "CDXTHEME_SELFTEST_PROMPT=A dusk theme #theme")
	if err != nil {
		return err
	}
	defer a.Stop()

	// 1. The agent's turn writes a theme; the chat offers the Design view.
	if _, err := a.Wait("the turn wrote a theme", 90*time.Second, func(p xwin.Elements) bool {
		_, running := p.Els["running"]
		_, toggle := p.Els["toggle"]
		return !running && toggle && strings.Contains(p.Els["messages"].Text, "Theme ready.")
	}); err != nil {
		return err
	}
	ws, err := onlyBuild(data)
	if err != nil {
		return err
	}
	themePath := filepath.Join(data, "theme_builder", ws, theme.FileName)

	// 2. The Design view, by a real click; the chat stays beside it.
	if err := a.Click("toggle"); err != nil {
		return err
	}
	p, err := a.Wait("the Design view is open", 30*time.Second, func(p xwin.Elements) bool { _, ok := p.Els["design"]; _, z := p.Els["zedAccent"]; return ok && z })
	if err != nil {
		return err
	}
	check("the chat's prompt stays beside the Design view at 1440×900", !p.Els["prompt"].Hidden && p.Els["prompt"].W > 0, p.Els["prompt"])

	// 3. A click on the preview's accent picks ui.accent.
	if err := a.Click("zedAccent"); err != nil {
		return err
	}
	if _, err := a.Wait("the picked role is ui.accent", 30*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["role"] == "ui.accent" }); err != nil {
		return err
	}
	check("a click on the preview picked ui.accent", true)

	// 4. The picker's amber swatch makes the accent follow that entry.
	if err := a.Click("amberSwatch"); err != nil {
		return err
	}
	if _, err := a.Wait("ui.accent follows amber", 30*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["follows"] == "amber" }); err != nil {
		return err
	}
	check("the view shows ui.accent following the palette entry amber", true)

	// 5. The strip's amber, a hex typed with real keys, Enter.
	if err := a.Click("amberEntry"); err != nil {
		return err
	}
	if _, err := a.Wait("the palette entry amber is open", 30*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["role"] == "palette.amber" }); err != nil {
		return err
	}
	shot(a, "picker", "picker")
	if err := a.Click("hex"); err != nil {
		return err
	}
	if _, err := a.Wait("the hex field has the focus", 15*time.Second, func(p xwin.Elements) bool { return p.Active == "picker-hex" }); err != nil {
		return err
	}
	xwin.Key("ctrl+a")
	xwin.Type(newHex)
	xwin.Key("Return")
	doc, err := waitDoc(themePath, 30*time.Second, func(d map[string]any) bool { return str(d, "palette", "amber") == newHex })
	check("theme.json's palette entry amber holds the typed colour", err == nil, err)
	accent := str(doc, "ui", "accent")
	check("theme.json's accent follows amber (names it or holds its colour)", accent == "amber" || accent == newHex, accent)
	p, err = a.Wait("the preview and the contrast table show the new amber", 30*time.Second, func(p xwin.Elements) bool {
		return p.Els["zedAccent"].Color == newRGB && p.Els["accentSample"].Color == newRGB
	})
	check("the palette edit moved the preview's accent to "+newHex, err == nil && p.Els["zedAccent"].Color == newRGB, err)
	check("and the contrast table's accent row", p.Els["accentSample"].Color == newRGB, p.Els["accentSample"].Color, " ", p.Els["accentRow"].Text)
	check("no editor error", p.Els["editorError"].Text == "", p.Els["editorError"].Text)
	shot(a, "design-1440x900", "")

	// 6. The smallest window the app allows (winstate.MinWidth × MinHeight):
	// the real window resized to 800×600, the chat steps aside for the
	// view, and a palette edit is still made there with real clicks and keys.
	wid, _ := xwin.Window(xwin.Title)
	xwin.Xdo("windowsize", "--sync", wid, "800", "600")
	p, err = a.Wait("the window is 800×600 and the chat hidden", 30*time.Second, func(p xwin.Elements) bool {
		return p.VW > 0 && p.VW <= 800 && p.VH <= 600 && p.Els["prompt"].W == 0
	})
	_, geo := xwin.Window(xwin.Title)
	check("the real window is 800×600", geo["WIDTH"] == 800 && geo["HEIGHT"] == 600, geo)
	check("at 800×600 the chat steps aside for the Design view", err == nil, err)
	if err != nil {
		return nil
	}
	d := p.Els["design"]
	check("the Design view fits the 800×600 window", d.X >= 0 && d.X+d.W <= p.VW && d.W > 0, d, " viewport ", p.VW, "x", p.VH)
	check("the palette strip is in view at 800×600", !p.Els["amberEntry"].Hidden && p.Els["amberEntry"].X+p.Els["amberEntry"].W <= p.VW, p.Els["amberEntry"])
	if err := a.Click("amberEntry"); err != nil {
		return err
	}
	if _, err := a.Wait("amber is open at 800×600", 30*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["role"] == "palette.amber" }); err != nil {
		return err
	}
	if err := a.Click("hex"); err != nil {
		return err
	}
	if _, err := a.Wait("the hex field has the focus at 800×600", 15*time.Second, func(p xwin.Elements) bool { return p.Active == "picker-hex" }); err != nil {
		return err
	}
	xwin.Key("ctrl+a")
	xwin.Type(smallHex)
	xwin.Key("Return")
	_, err = waitDoc(themePath, 30*time.Second, func(d map[string]any) bool { return str(d, "palette", "amber") == smallHex })
	check("at 800×600 a palette edit typed into the picker reaches theme.json", err == nil, err)
	p, err = a.Wait("the preview shows the new amber at 800×600", 30*time.Second, func(p xwin.Elements) bool { return p.Els["zedAccent"].Color == smallRGB })
	check("at 800×600 the edit moved the preview's accent to "+smallHex, err == nil, err)
	shot(a, "design-800x600", "")
	return nil
}

func onlyBuild(data string) (string, error) {
	entries, err := os.ReadDir(filepath.Join(data, "theme_builder"))
	if err != nil {
		return "", fmt.Errorf("list builds: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(data, "theme_builder", e.Name(), theme.FileName)); e.IsDir() && err == nil {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) != 1 {
		return "", fmt.Errorf("want one build with a theme, have %v", ids)
	}
	return ids[0], nil
}

func str(d map[string]any, group, key string) string {
	g, _ := d[group].(map[string]any)
	s, _ := g[key].(string)
	return strings.ToLower(s)
}

func waitDoc(path string, d time.Duration, ok func(map[string]any) bool) (map[string]any, error) {
	var doc map[string]any
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(b, &doc) == nil && ok(doc) {
			return doc, nil
		}
	}
	return doc, fmt.Errorf("theme.json not as awaited after %s (palette %v)", d, doc["palette"])
}
