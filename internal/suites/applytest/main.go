// Command applytest applies a light/dark theme family to VS Code in the
// PRODUCTION window with real clicks, under an X server
// (scripts/apply-window-test.sh starts it under xvfb-run), the fake agent
// as the agent and a private HOME. Issue #37: the plan listed the variant's
// file twice, the dialog's keyed list threw, the dialog never opened and
// Export and Apply stayed greyed. Here the plan dialog must open listing
// each file once, Apply must install both variants into HOME's
// .vscode/extensions, and Export and Apply must be usable again after.
// The page is read through the self-test hook, as internal/suites/edittest does.
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
)

const title = "CDXTheme Theme Builder"

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
}

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

type app struct {
	cmd    *exec.Cmd
	report string
	exited chan struct{}
	err    error
}

func (a *app) page() xwin.Elements { return xwin.ReadElements(a.report) }

// wait polls the page until ok holds; on a timeout a screenshot is saved.
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
	xwin.Shot(*outDir, "apply-fail")
	names := make([]string, 0, len(p.Els))
	for n := range p.Els {
		names = append(names, n)
	}
	return p, fmt.Errorf("%s: timed out after %s; the page showed %v", what, d, names)
}

// click moves the real pointer onto the element's centre and clicks,
// scrolling its column by the wheel first when it is out of view (as
// internal/suites/edittest does).
func (a *app) click(name string) error {
	for try := 0; ; try++ {
		p, err := a.wait(name+" is on the page", 15*time.Second, func(p xwin.Elements) bool { _, ok := p.Els[name]; return ok && p.VH > 0 })
		if err != nil {
			return err
		}
		e := p.Els[name]
		wid, geo := xwin.Window(title)
		if wid == "" {
			return errors.New("the window is gone")
		}
		if !e.Hidden {
			x, y := xwin.ScreenPoint(geo, p.VW, p.VH, e.X+e.W/2, e.Y+e.H/2)
			xwin.Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
			xwin.Xdo("click", "1")
			return nil
		}
		if try == 20 || (e.Y >= 0 && e.Y+e.H <= p.VH) {
			xwin.Shot(*outDir, "apply-fail")
			return fmt.Errorf("%s cannot be clicked: %+v", name, e)
		}
		button, wy := "5", p.VH-40
		if e.Y < 0 {
			button, wy = "4", 40
		}
		// At the column's right edge: its code previews scroll on their own.
		x, y := xwin.ScreenPoint(geo, p.VW, p.VH, p.VW-6, wy)
		xwin.Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
		xwin.Xdo("click", button)
		a.wait(name+" moved", 2*time.Second, func(q xwin.Elements) bool { return q.Els[name].Y != e.Y })
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "cdx-applytest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg, data, home := filepath.Join(tmp, "config"), filepath.Join(tmp, "data"), filepath.Join(tmp, "home")
	for _, d := range []string{cfg, data, home, filepath.Join(tmp, "codex-home"), filepath.Join(tmp, "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	os.WriteFile(filepath.Join(cfg, "window.json"), []byte(`{"X":0,"Y":0,"Width":1880,"Height":1180}`), 0o600)
	sel, _ := json.Marshal(selectors)
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	a := &app{report: filepath.Join(tmp, "report.json"), exited: make(chan struct{})}
	a.cmd = exec.Command(abs(*appBin))
	a.cmd.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		// The install goes into this HOME, never the user's.
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"CDXTHEME_AGENT="+abs(*agentBin), "FAKE_AGENT_SCENARIO=theme",
		"FAKE_AGENT_STATE="+filepath.Join(tmp, "state"), "FAKE_AGENT_LOG="+filepath.Join(tmp, "agent.jsonl"),
		"CDXTHEME_CONFIG_DIR="+cfg, "CDXTHEME_DATA_DIR="+data, "CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_SELFTEST_STAY=1", "CDXTHEME_SELFTEST_ELEMENTS="+string(sel), "CDXTHEME_SELFTEST_OUT="+a.report,
		"CDXTHEME_SELFTEST_PROMPT=A dusk theme #theme")
	logf, err := os.Create(filepath.Join(*outDir, "apply-app.log"))
	if err != nil {
		return err
	}
	a.cmd.Stdout, a.cmd.Stderr = logf, logf
	if err := a.cmd.Start(); err != nil {
		return err
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

	// 1. The fake agent's turn writes a theme; then it gets a light variant.
	if _, err := a.wait("the first turn wrote a theme", 90*time.Second, func(p xwin.Elements) bool {
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
	fam.Companion = theme.Counterpart(fam)
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
	if _, err := a.wait("the preview shows the light variant and Apply is usable", 20*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["applyEnabled"]
		return ok && p.Els["variant"].Text == fam.Companion.Name
	}); err != nil {
		return err
	}
	// The column may still be settling after its scroll when the report
	// says the button is in view: the menu is clicked again until it opens.
	for try := 0; ; try++ {
		if err := a.click("applyMenu"); err != nil {
			return err
		}
		if _, err := a.wait("the Apply menu opened", 3*time.Second, func(p xwin.Elements) bool { _, ok := p.Els["vscode"]; return ok }); err == nil {
			break
		} else if try == 3 {
			return err
		}
	}
	if err := a.click("vscode"); err != nil {
		return err
	}
	light := theme.Slug(fam.Companion.Name) + "-color-theme.json"
	p, err := a.wait("the plan dialog opened", 20*time.Second, func(p xwin.Elements) bool {
		_, d := p.Els["dialog"]
		return d && strings.Contains(p.Els["plan"].Text, light)
	})
	check("Apply → VS Code opens the plan dialog with the light variant's file", err == nil, err)
	if err != nil {
		return err
	}
	xwin.Shot(*outDir, "apply-plan")
	check("the plan lists the light variant's file once", strings.Count(p.Els["plan"].Text, light) == 1, p.Els["plan"].Text)

	// 3. Confirmed, both variants are installed and the buttons come back.
	if err := a.click("ok"); err != nil {
		return err
	}
	p, err = a.wait("the install is reported", 20*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["installed"]
		_, failed := p.Els["failure"]
		return ok || failed
	})
	check("the apply reports what it installed", err == nil && p.Els["failure"].Text == "", err, p.Els["failure"].Text)
	ext, _ := filepath.Glob(filepath.Join(home, ".vscode", "extensions", "*", "themes", "*.json"))
	check("both variants are in HOME's VS Code extension", len(ext) == 2, ext)
	p, err = a.wait("Export and Apply are usable again", 10*time.Second, func(p xwin.Elements) bool {
		_, ap := p.Els["applyEnabled"]
		_, ex := p.Els["exportOn"]
		return ap && ex
	})
	check("Export and Apply are usable after the apply", err == nil, err)
	return nil
}
