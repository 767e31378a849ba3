// Command designtest drives the Design view in the PRODUCTION window with
// real input, under an X server (scripts/design-window-test.sh starts it
// under xvfb-run), the fake agent's theme scenario as the agent. After the
// agent's turn, a click on the chat's Design button opens the view; a
// click on the Zed-like preview's accent picks ui.accent; a click on the
// picker's "amber" swatch makes the accent follow that palette entry; a
// click on the strip's "amber" opens the entry, and a hex typed into the
// picker with real keys and Enter must reach theme.json's palette and move
// the accent in the preview and in the contrast table. The view is
// photographed at 1440×900 and at the smallest window (960×640), and the
// picker alone.
// Prints "N passed, N failed".
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	title  = "CDXTheme Theme Builder"
	newHex = "#3355ff"
	newRGB = "rgb(51, 85, 255)"
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

type app struct {
	cmd    *exec.Cmd
	report string
	exited chan struct{}
	err    error
}

func (a *app) page() xwin.Elements { return xwin.ReadElements(a.report) }

// wait polls the page until ok holds; on a timeout it says what the page showed.
func (a *app) wait(what string, d time.Duration, ok func(xwin.Elements) bool) (xwin.Elements, error) {
	var p xwin.Elements
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		select {
		case <-a.exited:
			return p, fmt.Errorf("%s: the app exited (%v)", what, a.err)
		default:
		}
		if p = a.page(); ok(p) {
			return p, nil
		}
	}
	xwin.Shot(*outDir, "design-fail")
	var b strings.Builder
	for name, e := range p.Els {
		fmt.Fprintf(&b, " %s{%d,%d %dx%d hidden=%v data=%v color=%s text=%.60q}", name, e.X, e.Y, e.W, e.H, e.Hidden, e.Data, e.Color, e.Text)
	}
	return p, fmt.Errorf("%s: timed out after %s; viewport %dx%d, page:%s", what, d, p.VW, p.VH, b.String())
}

// click moves the real pointer onto the element's centre and clicks.
func (a *app) click(name string) error {
	p, err := a.wait(name+" can be clicked", 15*time.Second, func(p xwin.Elements) bool {
		e, ok := p.Els[name]
		return ok && !e.Hidden && p.VH > 0
	})
	if err != nil {
		return err
	}
	e := p.Els[name]
	wid, geo := xwin.Window(title)
	if wid == "" {
		return errors.New("the window is gone")
	}
	x, y := xwin.ScreenPoint(geo, p.VW, p.VH, e.X+e.W/2, e.Y+e.H/2)
	xwin.Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
	xwin.Xdo("click", "1")
	return nil
}

func key(k string) { xwin.Xdo("key", "--clearmodifiers", k) }

// shot saves the window (or a part of its page) as name.png in the shots folder.
func shot(a *app, name string, part string) {
	if *shotDir == "" {
		return
	}
	xwin.Xdo("mousemove", "--sync", "0", "0") // no hover state in the picture
	wid, geo := xwin.Window(title)
	args := []string{"-window", wid}
	if part != "" {
		p := a.page()
		e := p.Els[part]
		x, y := geo["WIDTH"]-p.VW+e.X, geo["HEIGHT"]-p.VH+e.Y
		args = append(args, "-crop", fmt.Sprintf("%dx%d+%d+%d", e.W+16, e.H+16, max(0, x-8), max(0, y-8)), "+repage")
	}
	out := filepath.Join(*shotDir, name+".png")
	err := exec.Command("import", append(args, out)...).Run()
	check("screenshot "+out+" saved", err == nil, err)
}

func run() error {
	tmp, err := os.MkdirTemp("", "cdx-designtest-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	cfg, data := filepath.Join(tmp, "config"), filepath.Join(tmp, "data")
	for _, d := range []string{cfg, data, filepath.Join(tmp, "codex-home"), filepath.Join(tmp, "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("make %s: %w", d, err)
		}
	}
	if err := os.WriteFile(filepath.Join(cfg, "window.json"), []byte(`{"X":0,"Y":0,"Width":1440,"Height":900}`), 0o600); err != nil {
		return fmt.Errorf("window size: %w", err)
	}
	sel, _ := json.Marshal(selectors)
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	a := &app{report: filepath.Join(tmp, "report.json"), exited: make(chan struct{})}
	a.cmd = exec.Command(abs(*appBin))
	a.cmd.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_AGENT="+abs(*agentBin), "FAKE_AGENT_SCENARIO=theme",
		"FAKE_AGENT_STATE="+filepath.Join(tmp, "state"), "FAKE_AGENT_LOG="+filepath.Join(tmp, "agent.jsonl"),
		"CDXTHEME_CONFIG_DIR="+cfg, "CDXTHEME_DATA_DIR="+data, "CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_SELFTEST_STAY=1", "CDXTHEME_SELFTEST_ELEMENTS="+string(sel), "CDXTHEME_SELFTEST_OUT="+a.report,
		"CDXTHEME_SELFTEST_PROMPT=A dusk theme #theme")
	logf, err := os.Create(filepath.Join(*outDir, "design-app.log"))
	if err != nil {
		return fmt.Errorf("app log: %w", err)
	}
	a.cmd.Stdout, a.cmd.Stderr = logf, logf
	if err := a.cmd.Start(); err != nil {
		return fmt.Errorf("start the app: %w", err)
	}
	go func() { a.err = a.cmd.Wait(); logf.Close(); close(a.exited) }()
	defer func() {
		a.cmd.Process.Signal(os.Interrupt)
		select {
		case <-a.exited:
		case <-time.After(5 * time.Second):
			a.cmd.Process.Kill()
			<-a.exited
		}
	}()

	// 1. The agent's turn writes a theme; the chat offers the Design view.
	if _, err := a.wait("the turn wrote a theme", 90*time.Second, func(p xwin.Elements) bool {
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
	if err := a.click("toggle"); err != nil {
		return err
	}
	p, err := a.wait("the Design view is open", 10*time.Second, func(p xwin.Elements) bool { _, ok := p.Els["design"]; _, z := p.Els["zedAccent"]; return ok && z })
	if err != nil {
		return err
	}
	check("the chat's prompt stays beside the Design view at 1440×900", !p.Els["prompt"].Hidden && p.Els["prompt"].W > 0, p.Els["prompt"])

	// 3. A click on the preview's accent picks ui.accent.
	if err := a.click("zedAccent"); err != nil {
		return err
	}
	if _, err := a.wait("the picked role is ui.accent", 10*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["role"] == "ui.accent" }); err != nil {
		return err
	}
	check("a click on the preview picked ui.accent", true)

	// 4. The picker's amber swatch makes the accent follow that entry.
	if err := a.click("amberSwatch"); err != nil {
		return err
	}
	if _, err := a.wait("ui.accent follows amber", 10*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["follows"] == "amber" }); err != nil {
		return err
	}
	check("the view shows ui.accent following the palette entry amber", true)

	// 5. The strip's amber, a hex typed with real keys, Enter.
	if err := a.click("amberEntry"); err != nil {
		return err
	}
	if _, err := a.wait("the palette entry amber is open", 10*time.Second, func(p xwin.Elements) bool { return p.Els["role"].Data["role"] == "palette.amber" }); err != nil {
		return err
	}
	shot(a, "picker", "picker")
	if err := a.click("hex"); err != nil {
		return err
	}
	if _, err := a.wait("the hex field has the focus", 5*time.Second, func(p xwin.Elements) bool { return p.Active == "picker-hex" }); err != nil {
		return err
	}
	key("ctrl+a")
	xwin.Xdo("type", "--delay", "15", newHex)
	key("Return")
	doc, err := waitDoc(themePath, 10*time.Second, func(d map[string]any) bool { return str(d, "palette", "amber") == newHex })
	check("theme.json's palette entry amber holds the typed colour", err == nil, err)
	accent := str(doc, "ui", "accent")
	check("theme.json's accent follows amber (names it or holds its colour)", accent == "amber" || accent == newHex, accent)
	p, err = a.wait("the preview and the contrast table show the new amber", 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["zedAccent"].Color == newRGB && p.Els["accentSample"].Color == newRGB
	})
	check("the palette edit moved the preview's accent to "+newHex, err == nil && p.Els["zedAccent"].Color == newRGB, err)
	check("and the contrast table's accent row", p.Els["accentSample"].Color == newRGB, p.Els["accentSample"].Color, " ", p.Els["accentRow"].Text)
	check("no editor error", p.Els["editorError"].Text == "", p.Els["editorError"].Text)
	shot(a, "design-1440x900", "")

	// 6. The smallest window the app allows (app.MinWidth × MinHeight; the
	// e2e test covers 800×600 in a browser): the chat steps aside for the view.
	wid, _ := xwin.Window(title)
	xwin.Xdo("windowsize", "--sync", wid, "960", "640")
	p, err = a.wait("the page is at most 960 wide and the chat hidden", 10*time.Second, func(p xwin.Elements) bool {
		return p.VW > 0 && p.VW <= 960 && p.Els["prompt"].W == 0
	})
	check("at 960×640 the chat steps aside for the Design view", err == nil, err)
	if err == nil {
		d := p.Els["design"]
		check("the Design view fits the smallest window", d.X >= 0 && d.X+d.W <= p.VW, d)
		shot(a, "design-960x640", "")
	}
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
