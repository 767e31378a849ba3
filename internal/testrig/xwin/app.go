package xwin

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Rig is one window test's folders (a temp folder with the app's config,
// data, Codex home and the fake agent's state) and the environment every
// start of the app shares: the fake agent's theme scenario as the agent,
// the self-test reporting the selectors' elements and staying open.
type Rig struct {
	Tmp, Cfg, Data, AgentLog string
	Env                      []string
	// Name prefixes the logs and the failure screenshot in Out ("edit" →
	// edit-app-1.log, edit-fail.png).
	Name, App, Out string
	// WheelAtRightEdge scrolls a column by the wheel at the window's right
	// edge rather than over the element (whose code previews would take it).
	WheelAtRightEdge bool
}

// Title is the production window's title.
const Title = "CDXTheme Theme Builder"

// NewRig makes the folders and writes the window's size and place into
// the config (the app opens at x=0, y=0, width × height).
func NewRig(name, app, agent, out string, width, height int, selectors map[string]string) (*Rig, error) {
	tmp, err := os.MkdirTemp("", "cdx-"+name+"test-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	r := &Rig{Tmp: tmp, Cfg: filepath.Join(tmp, "config"), Data: filepath.Join(tmp, "data"), AgentLog: filepath.Join(tmp, "agent.jsonl"), Name: name, App: app, Out: out}
	for _, d := range []string{out, r.Cfg, r.Data, filepath.Join(tmp, "codex-home"), filepath.Join(tmp, "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("make %s: %w", d, err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.Cfg, "window.json"), fmt.Appendf(nil, `{"X":0,"Y":0,"Width":%d,"Height":%d}`, width, height), 0o600); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("window size: %w", err)
	}
	sel, err := json.Marshal(selectors)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	r.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_AGENT="+abs(agent), "FAKE_AGENT_SCENARIO=theme",
		"FAKE_AGENT_STATE="+filepath.Join(tmp, "state"), "FAKE_AGENT_LOG="+r.AgentLog,
		"CDXTHEME_CONFIG_DIR="+r.Cfg, "CDXTHEME_DATA_DIR="+r.Data, "CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_SELFTEST_STAY=1", "CDXTHEME_SELFTEST_ELEMENTS="+string(sel))
	return r, nil
}

// Close removes the rig's folders.
func (r *Rig) Close() { os.RemoveAll(r.Tmp) }

func abs(p string) string { a, _ := filepath.Abs(p); return a }

// App is one run of the production binary.
type App struct {
	rig    *Rig
	cmd    *exec.Cmd
	report string
	exited chan struct{}
	err    error // the exit's, once exited is closed
}

// Start runs the app with its own report file and log (Out/<Name>-app-<name>.log);
// extra adds to the rig's environment.
func (r *Rig) Start(name string, extra ...string) (*App, error) {
	a := &App{rig: r, report: filepath.Join(r.Tmp, "report-"+name+".json"), exited: make(chan struct{})}
	a.cmd = exec.Command(abs(r.App))
	a.cmd.Env = append(append(append([]string(nil), r.Env...), "CDXTHEME_SELFTEST_OUT="+a.report), extra...)
	logf, err := os.Create(filepath.Join(r.Out, r.Name+"-app-"+name+".log"))
	if err != nil {
		return nil, fmt.Errorf("app log: %w", err)
	}
	a.cmd.Stdout, a.cmd.Stderr = logf, logf
	if err := a.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", r.App, err)
	}
	go func() { a.err = a.cmd.Wait(); logf.Close(); close(a.exited) }()
	return a, nil
}

// Stop ends the app if it still runs (an interrupt, then a kill).
func (a *App) Stop() {
	select {
	case <-a.exited:
		return
	default:
	}
	a.cmd.Process.Signal(os.Interrupt)
	select {
	case <-a.exited:
	case <-time.After(5 * time.Second):
		a.cmd.Process.Kill()
		<-a.exited
	}
}

// Exited is closed once the app has exited; Err is then the exit's error.
func (a *App) Exited() <-chan struct{} { return a.exited }

// Err is the app's exit error, once Exited is closed.
func (a *App) Err() error { return a.err }

// Page is the self-test's latest element report.
func (a *App) Page() Elements { return ReadElements(a.report) }

// Wait polls the page until ok holds; the error says what was awaited and
// what the page showed last, and a screenshot is saved.
func (a *App) Wait(what string, d time.Duration, ok func(Elements) bool) (Elements, error) {
	var p Elements
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		select {
		case <-a.exited:
			return p, fmt.Errorf("%s: the app exited (%v)", what, a.err)
		default:
		}
		if p = a.Page(); ok(p) {
			return p, nil
		}
	}
	Shot(a.rig.Out, a.rig.Name+"-fail")
	return p, fmt.Errorf("%s: timed out after %s; the page showed %s", what, d, Brief(p))
}

// Brief is the page report without the long texts, for a failure's detail.
func Brief(p Elements) string {
	var b strings.Builder
	fmt.Fprintf(&b, "viewport %dx%d, focus %q;", p.VW, p.VH, p.Active)
	for name, e := range p.Els {
		t := e.Text
		if len(t) > 80 {
			t = "…" + t[len(t)-80:]
		}
		fmt.Fprintf(&b, " %s{%d,%d %dx%d hidden=%v data=%v value=%q checked=%v color=%s bg=%s text=%q}", name, e.X, e.Y, e.W, e.H, e.Hidden, e.Data, e.Value, e.Checked, e.Color, e.Bg, t)
	}
	return b.String()
}

// Settle waits until the page reports the element at the same place in
// several reports in a row: a picker that just changed its content moves
// what lies below it, and a click aimed at the old place hits another
// element.
func (a *App) Settle(name string) {
	var last Elements
	same := 0
	a.Wait(name+" stays put", 5*time.Second, func(p Elements) bool {
		e, ok := p.Els[name]
		if l, had := last.Els[name]; ok && had && l.X == e.X && l.Y == e.Y && l.W == e.W && l.H == e.H {
			same++
		} else {
			same = 0
		}
		last = p
		return same >= 5
	})
}

// Click moves the real pointer onto the element's centre and clicks,
// scrolling its column by the wheel first when it is out of view.
func (a *App) Click(name string) error {
	for try := 0; ; try++ {
		if _, err := a.Wait(name+" is on the page", 15*time.Second, func(p Elements) bool { _, ok := p.Els[name]; return ok && p.VH > 0 }); err != nil {
			return err
		}
		a.Settle(name)
		p := a.Page()
		e := p.Els[name]
		wid, geo := Window(Title)
		if wid == "" {
			return errors.New("the window is gone")
		}
		if !e.Hidden {
			x, y := ScreenPoint(geo, p.VW, p.VH, e.X+e.W/2, e.Y+e.H/2)
			Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
			Xdo("click", "1")
			return nil
		}
		if try == 20 || (e.Y >= 0 && e.Y+e.H <= p.VH) {
			// In view but covered, or never scrolled into view.
			Shot(a.rig.Out, a.rig.Name+"-fail")
			return fmt.Errorf("%s cannot be clicked: %s", name, Brief(p))
		}
		// The wheel over the element's own column, at the window's edge it is beyond.
		button, wy := "5", p.VH-40
		if e.Y < 0 {
			button, wy = "4", 40
		}
		wx := e.X + e.W/2
		if a.rig.WheelAtRightEdge {
			wx = p.VW - 6
		}
		x, y := ScreenPoint(geo, p.VW, p.VH, wx, wy)
		Xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
		Xdo("click", button)
		a.Wait(name+" moved", 2*time.Second, func(q Elements) bool { return q.Els[name].Y != e.Y })
		a.Settle(name) // the wheel scrolls smoothly: aim once the column stopped
	}
}

// Type types text with real key events into what has the focus.
func Type(text string) { Xdo("type", "--delay", "15", text) }

// Key presses a key (xdotool's names: Return, ctrl+a).
func Key(k string) { Xdo("key", "--clearmodifiers", k) }
