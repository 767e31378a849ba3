// Command navtest runs the navigation vectors against the PRODUCTION window
// with real input, under an X server (scripts/nav-window-test.sh starts it
// under xvfb-run). A loopback HTTP page it serves records every request it
// gets and whether the page that loaded had Wails' message handler (then it
// tries what an attacker would: SaveSettings). The fake agent's navigation
// scenario aims its reply at that page; the app's self-test hook reports
// where each vector is drawn and, bypassing the page's guards, tries to
// leave for the page from script. xdotool clicks, middle-clicks, presses
// Enter, drags; a small GTK program drops a link and a file from outside.
// After each vector: no request reached the page, the settings file is
// unchanged, and what Go was handed is what a user would expect. Prints
// "N passed, N failed".
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin     = flag.String("app", "build/bin/cdxtheme", "the production binary")
	agentBin   = flag.String("agent", "build/bin/fakeagent", "the fake agent")
	dragSource = flag.String("dragsource", "", "the GTK drag source (scripts/dragsource.c), optional")
	outDir     = flag.String("out", "build/window-test", "screenshot and logs")
)

// recorder is the loopback page: every request, and every beacon its
// script sent back.
type recorder struct {
	mu       sync.Mutex
	requests []string
	beacons  []string
}

const page = `<!doctype html><meta charset="utf-8"><title>outside page</title><script>
var h = !!(window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.external);
fetch('/beacon?handlers=' + h + '&at=' + encodeURIComponent(location.href));
if (h) {
  // What the attacker of issue 10 did: an agent command of its choice, permission "allow".
  window.webkit.messageHandlers.external.postMessage('C' + JSON.stringify({name: 'app.Settings.SaveSettings',
    args: [{agentCommand: 'sh -c "touch /tmp/cdxtheme-pwned"', permissionPolicy: 'allow'}], callbackID: 'pwn'}));
}
</script><p>outside</p>`

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	if req.URL.Path == "/beacon" {
		r.beacons = append(r.beacons, req.URL.RawQuery)
	} else {
		r.requests = append(r.requests, req.Method+" "+req.URL.RequestURI())
	}
	r.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, page)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(append([]string(nil), r.requests...), r.beacons...)
}

type rect struct {
	X, Y, W, H int
	Hidden     bool
}

type report struct {
	Reply         string   `json:"reply"`
	Bypass        string   `json:"bypass"`
	Rects         string   `json:"rects"`
	Focused       string   `json:"focused"`
	LinkErrors    string   `json:"linkErrors"`
	Opened        []string `json:"opened"`
	OpenedFiles   []string `json:"openedFiles"`
	RevealedFiles []string `json:"revealedFiles"`
}

var tally xwin.Tally

func check(name string, ok bool, detail ...any) { tally.Check(name, ok, detail...) }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	code := run()
	fmt.Println(tally.Summary())
	if code == 0 && tally.Failed > 0 {
		code = 1
	}
	os.Exit(code)
}

func run() int {
	rec := &recorder{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	go http.Serve(ln, rec)
	url := "http://" + ln.Addr().String()

	tmp, err := os.MkdirTemp("", "cdx-navtest-")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(tmp)
	for _, d := range []string{"config", "data", "codex-home", "state"} {
		os.MkdirAll(filepath.Join(tmp, d), 0o700)
	}
	// A real settings file, the one the attacker wants to rewrite.
	os.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(tmp, "config"))
	if err := settings.Save(settings.Settings{PermissionPolicy: "ask", Model: "gpt-5.5"}); err != nil {
		fmt.Println("settings:", err)
		return 1
	}
	settingsHash := hashFile(settings.Path())
	// A tall window: every vector in view at once, no scrolling between clicks.
	os.WriteFile(filepath.Join(tmp, "config", "window.json"), []byte(`{"X":0,"Y":0,"Width":1880,"Height":1180}`), 0o600)
	reportPath := filepath.Join(tmp, "report.json")
	logPath := filepath.Join(tmp, "config", "cdxtheme.log")

	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	cmd := exec.Command(abs(*appBin))
	cmd.Env = append(os.Environ(),
		"NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_AGENT="+abs(*agentBin), "FAKE_AGENT_SCENARIO=normal", "FAKE_AGENT_STATE="+filepath.Join(tmp, "state"),
		"CDXTHEME_CONFIG_DIR="+filepath.Join(tmp, "config"), "CDXTHEME_DATA_DIR="+filepath.Join(tmp, "data"),
		"CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_SELFTEST_OUT="+reportPath, "CDXTHEME_SELFTEST_STAY=1",
		"CDXTHEME_SELFTEST_PROMPT=#navigation vectors aimed at "+url,
		"CDXTHEME_SELFTEST_NAV="+url,
	)
	appLog, _ := os.Create(filepath.Join(*outDir, "nav-app.log"))
	defer appLog.Close()
	cmd.Stdout, cmd.Stderr = appLog, appLog
	if err := cmd.Start(); err != nil {
		fmt.Println("start app:", err)
		return 1
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()

	var rep report
	read := func() report {
		var r report
		if b, err := os.ReadFile(reportPath); err == nil {
			json.Unmarshal(b, &r)
		}
		return r
	}
	wait := func(what string, d time.Duration, ok func(report) bool) bool {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if rep = read(); ok(rep) {
				return true
			}
		}
		check(what, false, "(timed out; report: ", fmt.Sprintf("%+v", rep), ")")
		return false
	}
	if !wait("the reply with the vectors is rendered", 60*time.Second, func(r report) bool { return r.Focused != "" }) {
		check("the loopback page was never reached", len(rec.seen()) == 0, rec.seen())
		return 1
	}
	check("the reply with the vectors is rendered", strings.Contains(rep.Reply, "⟦area⟧"), rep.Reply)

	// 1. The page bypassed: script in the app's own page tries to leave.
	var bypass struct {
		Tried  []string
		Stayed bool
		At     string
	}
	json.Unmarshal([]byte(rep.Bypass), &bypass)
	check("script in the page could not leave it (location, window.open, detached links, meta refresh, form, file:, data:)",
		bypass.Stayed && len(bypass.Tried) >= 12 && len(rec.seen()) == 0, fmt.Sprintf("%+v; the loopback page saw %v", bypass, rec.seen()))
	// window.open and target=_blank without a user gesture, file: and data:
	// never reach the policy hook (WebKit blocks them first); these do.
	logText := readString(logPath)
	for _, path := range []string{"href", "assign", "replace", "top", "detached-a", "meta-refresh"} {
		check("Go refused the script's /b/"+path+" (logged)", refused(logText, "navigation", url+"/b/"+path), "")
	}
	check("settings unchanged after the script attempts", hashFile(settings.Path()) == settingsHash)

	// 2. Real input on each vector.
	wid, geo := xwin.Window("CDXTheme Theme Builder")
	type layout struct {
		VW, VH  int
		Vectors map[string]rect
	}
	at := func(name string) (int, int, bool) {
		var l layout
		json.Unmarshal([]byte(read().Rects), &l)
		r, ok := l.Vectors[name]
		if !ok || r.Hidden || l.VH == 0 || r.Y < 0 || r.Y+r.H/2 > l.VH {
			check("vector "+name+" is on screen", false, fmt.Sprintf("%+v", l))
			return 0, 0, false
		}
		x, y := xwin.ScreenPoint(geo, l.VW, l.VH, r.X+min(r.W/2, 40), r.Y+r.H/2)
		return x, y, true
	}
	xdo("windowfocus", "--sync", wid)
	step := func(name string, act func() bool, wantOpened string) {
		before := len(read().Opened)
		if !act() {
			return
		}
		time.Sleep(600 * time.Millisecond)
		r := read()
		opened := r.Opened[min(before, len(r.Opened)):]
		seen := rec.seen()
		want := []string{}
		if wantOpened != "" {
			want = []string{wantOpened}
		}
		check(name+": the window stayed, nothing reached the loopback page, settings unchanged",
			len(seen) == 0 && hashFile(settings.Path()) == settingsHash, "seen ", seen)
		ok := slices.Equal(opened, want)
		check(name+": handed to the OS after Go's check: "+fmt.Sprint(want), ok, "got ", opened)
		if !ok || len(seen) > 0 {
			shot("nav-fail-" + strings.ReplaceAll(name, " ", "-"))
		}
	}
	clickOn := func(name string, button string) func() bool {
		return func() bool {
			x, y, ok := at(name)
			if ok {
				xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
				time.Sleep(100 * time.Millisecond)
				xdo("click", button)
			}
			return ok
		}
	}
	check("the Enter link has the keyboard focus", rep.Focused == "true", rep.Focused)
	step("Enter on a focused link", func() bool { xdo("key", "Return"); return true }, url+"/v/enter")
	for _, v := range []struct{ name, want string }{
		{"area", ""}, {"target", url + "/v/target"}, {"image-link", url + "/v/image-link"}, {"form", ""}, {"formaction", ""},
		{"svg", ""}, {"svg-xlink", ""}, {"math", ""}, {"javascript", ""}, {"data", ""}, {"file", ""}, {"base", ""},
		{"details", url + "/v/summary"}, {"autolink", url + "/v/autolink"},
	} {
		step("click on "+v.name, clickOn(v.name, "1"), v.want)
	}
	step("middle-click on a link", clickOn("middle", "2"), url+"/v/middle")
	// What the page's guard cannot see (links in a closed shadow root, a
	// window.open in a click's user gesture): the Go lock alone.
	step("click on a link the page's guard cannot see", clickOn("shadow-link", "1"), "")
	step("middle-click on a link the page's guard cannot see", clickOn("shadow-link", "2"), "")
	step("click on a target=_blank link the page's guard cannot see", clickOn("shadow-blank", "1"), "")
	step("window.open in a real click's user gesture", clickOn("gesture-open", "1"), "")
	logText = readString(logPath)
	check("Go refused the unseen link's navigation (logged)", refused(logText, "navigation", url+"/b/shadow-link"), "")
	check("Go refused the unseen link's middle-click (logged)", refused(logText, "navigation", url+"/b/shadow-link", 2), "")
	check("Go refused the unseen target=_blank new window (logged)", refused(logText, "new-window", url+"/b/shadow-blank"), "")
	check("Go refused the user-gesture window.open (logged)", refused(logText, "new-window", url+"/b/gesture-open"), "")

	step("drag a link and drop it onto the window", func() bool {
		x, y, ok := at("drag")
		if !ok {
			return false
		}
		xdo("mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
		xdo("mousedown", "1")
		for i := 1; i <= 10; i++ {
			xdo("mousemove", "--sync", strconv.Itoa(x+i*25), strconv.Itoa(y+i*12))
			time.Sleep(30 * time.Millisecond)
		}
		xdo("mouseup", "1")
		return true
	}, "")
	var errs []string
	json.Unmarshal([]byte(read().LinkErrors), &errs)
	check("the file: and relative links were refused by Go with a message", len(errs) == 2 &&
		strings.Contains(errs[0], "outside the workspace") && strings.Contains(errs[1], "relative-after-base.html"), errs)
	r := read()
	check("no workspace file was opened or revealed", len(r.OpenedFiles) == 0 && len(r.RevealedFiles) == 0, r.OpenedFiles, r.RevealedFiles)

	// 3. Files of the workspace, clicked: the OS opener gets only the
	// viewable types (by MIME type and content, as xdg-mime decides them);
	// desktop entries by any name and Windows' shell types are revealed.
	for _, f := range []struct {
		label, name string
		open        bool
	}{
		{"mime-kdelnk", "palette.kdelnk", false}, {"mime-entry", "palette", false}, {"mime-msc", "console.msc", false},
		{"mime-json", "theme.json", true}, {"mime-text", "notes.txt", true},
	} {
		before := read()
		nO, nR := len(before.OpenedFiles), len(before.RevealedFiles)
		if !clickOn(f.label, "1")() {
			continue
		}
		r := before
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if r = read(); len(r.OpenedFiles) > nO || len(r.RevealedFiles) > nR {
				break
			}
		}
		var opened, revealed []string
		for _, p := range r.OpenedFiles[min(nO, len(r.OpenedFiles)):] {
			opened = append(opened, filepath.Base(p))
		}
		for _, p := range r.RevealedFiles[min(nR, len(r.RevealedFiles)):] {
			revealed = append(revealed, filepath.Base(p))
		}
		want, verb := []string{f.name}, "opened"
		ok := slices.Equal(opened, want) && len(revealed) == 0
		if !f.open {
			verb, ok = "revealed in its folder, not opened", slices.Equal(revealed, want) && len(opened) == 0
		}
		check("click on "+f.name+": "+verb, ok, "opened ", opened, " revealed ", revealed)
	}

	// 4. Dropped from outside the app, as from a browser or file manager.
	if *dragSource != "" {
		for _, drop := range []struct{ name, uri string }{{"a link", url + "/v/dropped-link"}, {"a file", "file:///etc/passwd"}} {
			step(drop.name+" dropped onto the window from another program", func() bool { return dropFrom(*dragSource, drop.uri, geo) }, "")
		}
	}

	xdo("mousemove", "0", "0")
	shot("nav-window")
	check("the loopback page never loaded with (or without) Wails' message handler", len(rec.seen()) == 0, rec.seen())
	check("the settings file is unchanged at the end", hashFile(settings.Path()) == settingsHash)
	os.WriteFile(filepath.Join(*outDir, "nav-cdxtheme.log"), []byte(readString(logPath)), 0o644)
	return 0
}

// dropFrom drags uri from the GTK drag source into the app's window.
func dropFrom(bin, uri string, geo map[string]int) bool {
	if err := xwin.Drag(bin, uri, geo["X"]+geo["WIDTH"]/2, geo["Y"]+geo["HEIGHT"]/3); err != nil {
		check("start the drag source", false, err)
		return false
	}
	time.Sleep(500 * time.Millisecond)
	return true
}

func hashFile(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "missing: " + err.Error()
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

func readString(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// refused reports whether the app's log has the lock's refusal of uri.
// With a button given, only a refusal of that mouse button's click counts.
func refused(logText, kind, uri string, button ...int) bool {
	for _, l := range xwin.LockLines(logText) {
		if l.Refused() && l.Kind == kind && l.URI == uri && (len(button) == 0 || l.Button == button[0]) {
			return true
		}
	}
	return false
}

// shot saves a screenshot of the whole screen under name.png in -out.
func shot(name string) { xwin.Shot(*outDir, name) }

func xdo(args ...string) string { return xwin.Xdo(args...) }
