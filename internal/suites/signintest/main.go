// Command signintest signs in as Codex users do, in the PRODUCTION window
// with real input under an X server (scripts/signin-window-test.sh starts
// it under scripts/xvfb.sh). The fake agent (internal/testrig/fakeagent, its auth
// scenario) answers the first prompt with "authentication required" and
// the methods codex-acp reports (API Key, ChatGPT): the chat must offer
// each by name. A real click on ChatGPT runs the agent's own sign-in,
// which hands the sign-in page to the OS opener (xdg-open, a recording
// stand-in on the agent's PATH), as codex-acp's login does: the page must
// reach the opener, the app's window must not navigate (the navigation
// lock is on and refused nothing), and the prompt the user sent must then
// be answered. Saves the sign-in card as docs/sign-in.png.
//
// The page is read through the app's self-test hook, as internal/suites/edittest
// does. Prints "N passed, N failed".
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

	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin   = flag.String("app", "build/bin/cdxtheme", "the production binary")
	agentBin = flag.String("agent", "build/bin/fakeagent", "the fake agent")
	outDir   = flag.String("out", "build/window-test", "screenshots and logs")
	shotPath = flag.String("shot", "docs/sign-in.png", "the screenshot of the sign-in card (\"\" for none)")
)

const (
	title  = "CDXTheme Theme Builder"
	prompt = "A calm dusk theme"
)

var selectors = map[string]string{
	"authBox":  `[data-testid="auth-box"]`,
	"chatgpt":  `[data-testid="auth-method"][data-method-id="chat-gpt"]`,
	"apikey":   `[data-testid="auth-method"][data-method-id="api-key"]`,
	"messages": `[data-testid="message-list"]`,
	"running":  `[data-testid="running"]`,
}

var tally xwin.Tally

func check(name string, ok bool, detail ...any) bool { tally.Check(name, ok, detail...); return ok }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	if err := run(); err != nil {
		check("the sign-in flow ran to its end", false, err)
	}
	fmt.Println(tally.Summary())
	if tally.Failed > 0 {
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "cdx-signintest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg, data, bin := filepath.Join(tmp, "config"), filepath.Join(tmp, "data"), filepath.Join(tmp, "bin")
	for _, d := range []string{cfg, data, bin, filepath.Join(tmp, "state"), filepath.Join(tmp, "codex-home")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(cfg, "window.json"), []byte(`{"X":0,"Y":0,"Width":1280,"Height":800}`), 0o600); err != nil {
		return err
	}
	// The OS opener the agent's sign-in calls: it notes the page and returns.
	opened := filepath.Join(tmp, "opened")
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '"+opened+"'\n"), 0o755); err != nil {
		return err
	}
	agentLog, report := filepath.Join(tmp, "agent.jsonl"), filepath.Join(tmp, "report.json")
	sel, _ := json.Marshal(selectors)
	agent, _ := filepath.Abs(*agentBin)
	appPath, _ := filepath.Abs(*appBin)
	cmd := exec.Command(appPath)
	cmd.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CDXTHEME_AGENT="+agent, "FAKE_AGENT_SCENARIO=auth", "FAKE_AGENT_OPEN_BROWSER=1",
		"FAKE_AGENT_STATE="+filepath.Join(tmp, "state"), "FAKE_AGENT_LOG="+agentLog,
		"CDXTHEME_CONFIG_DIR="+cfg, "CDXTHEME_DATA_DIR="+data, "CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_SELFTEST_OUT="+report, "CDXTHEME_SELFTEST_PROMPT="+prompt, "CDXTHEME_SELFTEST_STAY=1",
		"CDXTHEME_SELFTEST_ELEMENTS="+string(sel))
	logf, err := os.Create(filepath.Join(*outDir, "signin-app.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", appPath, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()
	wait := func(what string, ok func(xwin.Elements) bool) (xwin.Elements, error) {
		var p xwin.Elements
		for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			select {
			case <-exited:
				return p, fmt.Errorf("%s: the app exited", what)
			default:
			}
			if p = xwin.ReadElements(report); ok(p) {
				return p, nil
			}
		}
		xwin.Shot(*outDir, "signin-fail")
		return p, fmt.Errorf("%s: timed out; the page showed %+v", what, p.Els)
	}

	// 1. The prompt meets "authentication required": the agent's methods, by name.
	p, err := wait("the sign-in card with the agent's methods", func(p xwin.Elements) bool {
		_, c := p.Els["chatgpt"]
		_, k := p.Els["apikey"]
		return c && k && p.VH > 0
	})
	if err != nil {
		return err
	}
	check("the sign-in card offers the agent's ChatGPT and API Key", strings.Contains(p.Els["chatgpt"].Text, "ChatGPT") && strings.Contains(p.Els["apikey"].Text, "API Key"),
		p.Els["chatgpt"].Text, " / ", p.Els["apikey"].Text)
	wid, geo := xwin.Window(title)
	if wid == "" {
		return errors.New("no window titled " + title)
	}
	if *shotPath != "" {
		if err := exec.Command("import", "-window", wid, *shotPath).Run(); err != nil {
			check("the sign-in card is photographed", false, err)
		}
	}

	// 2. A real click on ChatGPT: the agent's sign-in, through the OS opener.
	e := p.Els["chatgpt"]
	if e.Hidden {
		return fmt.Errorf("the ChatGPT button is covered: %+v", e)
	}
	x, y := xwin.ScreenPoint(geo, p.VW, p.VH, e.X+e.W/2, e.Y+e.H/2)
	xwin.Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
	xwin.Xdo("click", "1")

	// 3. The prompt the user sent is answered once signed in.
	p, err = wait("the prompt answered after the sign-in", func(p xwin.Elements) bool {
		_, running := p.Els["running"]
		return !running && strings.Contains(p.Els["messages"].Text, "Hello from the fake agent.")
	})
	if err != nil {
		return err
	}
	check("the prompt sent before the sign-in is answered after it", strings.Contains(p.Els["messages"].Text, "You said: "+prompt), p.Els["messages"].Text)
	b, _ := os.ReadFile(opened)
	check("the agent's sign-in page went to the OS opener", strings.HasPrefix(string(b), "https://auth.openai.com/oauth/authorize?"), string(b))
	log, _ := os.ReadFile(agentLog)
	check("the agent's own sign-in ran (authenticate chat-gpt)", strings.Contains(string(log), `"method":"authenticate"`) && strings.Contains(string(log), `"methodId":"chat-gpt"`))
	applog, _ := os.ReadFile(filepath.Join(cfg, "cdxtheme.log"))
	os.WriteFile(filepath.Join(*outDir, "signin-cdxtheme.log"), applog, 0o644)
	on, refused := false, 0
	for _, l := range xwin.LockLines(string(applog)) {
		on = on || l.Message == "navigation lock on"
		if l.Refused() {
			refused++
		}
	}
	check("the window did not navigate: the navigation lock is on and refused nothing", on && refused == 0, "lock on ", on, ", refused ", refused)
	_, geo2 := xwin.Window(title)
	check("the app's window is still there", geo2 != nil)
	return nil
}
