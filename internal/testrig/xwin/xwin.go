// Package xwin holds what the window tests (internal/suites/navtest,
// droptest, edittest, designtest, applytest) share to drive the PRODUCTION
// window under an X server: a pass/fail tally printed as the scripts
// expect, the app started with its folders and the fake agent (Rig, App:
// wait for the page, click with the real pointer), xdotool and screenshots, the window's geometry and where a point of the page is on
// screen, the self-test's element report, a drag from the GTK drag source
// (scripts/dragsource.c) and the navigation lock's lines in the app's log.
package xwin

import (
	"bufio"
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

// Tally counts the checks and prints each as "ok   - name" or "FAIL - name detail".
type Tally struct{ Passed, Failed int }

func (t *Tally) Check(name string, ok bool, detail ...any) {
	if ok {
		fmt.Println("ok   - " + name)
		t.Passed++
		return
	}
	fmt.Println("FAIL - " + name + " " + fmt.Sprint(detail...))
	t.Failed++
}

// Summary is the last line the window-test scripts look for.
func (t *Tally) Summary() string { return fmt.Sprintf("%d passed, %d failed", t.Passed, t.Failed) }

// Xdo runs xdotool and returns its output ("" on failure: callers check what they need).
func Xdo(args ...string) string {
	out, _ := exec.Command("xdotool", args...).Output()
	return string(out)
}

// Shot saves a screenshot of the whole screen as dir/name.png.
func Shot(dir, name string) {
	exec.Command("import", "-window", "root", filepath.Join(dir, name+".png")).Run()
}

// Window finds the first window titled name and its geometry (X, Y, WIDTH, HEIGHT).
func Window(name string) (id string, geo map[string]int) {
	ids := strings.Fields(Xdo("search", "--name", name))
	if len(ids) == 0 {
		return "", nil
	}
	geo = map[string]int{}
	for _, l := range strings.Split(Xdo("getwindowgeometry", "--shell", ids[0]), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			geo[k], _ = strconv.Atoi(v)
		}
	}
	return ids[0], geo
}

// ScreenPoint is where the page's viewport point (x, y) is on screen, for a
// window of geometry geo (Window) whose page is vw×vh: the webview fills
// the window's bottom right, under the menu bar.
func ScreenPoint(geo map[string]int, vw, vh, x, y int) (int, int) {
	return geo["X"] + geo["WIDTH"] - vw + x, geo["Y"] + geo["HEIGHT"] - vh + y
}

// Element is one element of the self-test's "elements" report
// (frontend/src/lib/selftest.ts elementStates): its rectangle in viewport
// pixels, hidden when a click at its centre would miss it, its data
// attributes, text, form value and computed colours.
type Element struct {
	X, Y, W, H int
	Hidden     bool
	Data       map[string]string
	Text       string
	Value      string
	Checked    bool
	Color, Bg  string
}

// Elements is the whole report: the viewport, the focused element's
// data-testid, and each named element the page found.
type Elements struct {
	VW, VH int
	Active string
	Els    map[string]Element
}

// ReadElements reads the "elements" report from the self-test's report
// file (a JSON string inside it); a missing or partial one is empty.
func ReadElements(report string) Elements {
	var r struct{ Elements string }
	var e Elements
	if b, err := os.ReadFile(report); err == nil && json.Unmarshal(b, &r) == nil {
		json.Unmarshal([]byte(r.Elements), &e)
	}
	return e
}

// Drag starts the drag source (scripts/dragsource.c) offering uri in the
// screen's bottom right corner and drags from it to (tx, ty), as a file
// manager's drag does. xdotool cannot wait for a window to be drawn or for
// GTK to take a motion, hence the pauses.
func Drag(source, uri string, tx, ty int) error {
	src := exec.Command(source, uri, "1700", "1100")
	out, err := src.StdoutPipe()
	if err != nil {
		return fmt.Errorf("start the drag source: %w", err)
	}
	if err := src.Start(); err != nil {
		return fmt.Errorf("start the drag source: %w", err)
	}
	defer func() { src.Process.Kill(); src.Wait() }()
	said := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			said <- sc.Text()
		}
		close(said)
	}()
	for i := 0; i < 50 && strings.TrimSpace(Xdo("search", "--name", "cdxtheme drag source")) == ""; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // mapped is not yet drawn
	Xdo("mousemove", "--sync", "1750", "1130")
	time.Sleep(100 * time.Millisecond)
	Xdo("mousedown", "1")
	// Past GTK's drag threshold inside the source first, then across.
	for i := 1; i <= 4; i++ {
		Xdo("mousemove", "--sync", strconv.Itoa(1750-i*4), strconv.Itoa(1130-i*2))
		time.Sleep(50 * time.Millisecond)
	}
	for i := 1; i <= 20; i++ {
		Xdo("mousemove", "--sync", strconv.Itoa(1750+(tx-1750)*i/20), strconv.Itoa(1130+(ty-1130)*i/20))
		time.Sleep(40 * time.Millisecond)
	}
	// Hover over the target a little: each motion is an XdndPosition the
	// webview answers (through its web process) with XdndStatus, and GTK
	// drops only on a target that has said it accepts; released at once,
	// a slow answer turns the drop into a leave.
	for i := 0; i < 6; i++ {
		Xdo("mousemove", "--sync", strconv.Itoa(tx+i%2*3), strconv.Itoa(ty+i%2*3))
		time.Sleep(120 * time.Millisecond)
	}
	Xdo("mouseup", "1")
	// The source says when the drop is over (scripts/dragsource.c); a
	// refused drop ends too ("drag-failed" first). No end means the
	// synthesised drag never started.
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-said:
			if !ok {
				return errors.New("the drag source exited without ending a drag")
			}
			if l == "drag-end" {
				return nil
			}
		case <-timeout:
			return errors.New("no drag ended within 10 s (the drag did not start)")
		}
	}
}

// LockLine is one line of the navigation lock in the app's JSON log.
type LockLine struct {
	Message, Kind, URI string
	Button             int
}

// Refused reports whether l is the lock's refusal.
func (l LockLine) Refused() bool { return l.Message == "navigation lock: refused" }

// LockLines are the navigation lock's lines of the app's log, in order
// ("navigation lock on" included).
func LockLines(logText string) []LockLine {
	var out []LockLine
	for _, s := range strings.Split(logText, "\n") {
		var l LockLine
		if json.Unmarshal([]byte(s), &l) == nil && strings.HasPrefix(l.Message, "navigation lock") {
			out = append(out, l)
		}
	}
	return out
}
