// Command droptest drops a theme file from another program onto the
// PRODUCTION window, under an X server (scripts/drop-window-test.sh starts
// it under xvfb-run), once on Home and once on New build: a small GTK
// program (scripts/dragsource.c) offers the file's URI as a file manager
// does, xdotool drags it into the window. Each drop must become a build
// holding the imported theme, open its chat, and never be a navigation.
// Prints "N passed, N failed".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin     = flag.String("app", "build/bin/cdxtheme", "the production binary")
	dragSource = flag.String("dragsource", "build/bin/dragsource", "the GTK drag source (scripts/dragsource.c)")
	file       = flag.String("file", "core/theme/testdata/import/nightfall-color-theme.json", "the theme file to drop")
	outDir     = flag.String("out", "build/window-test", "screenshots and logs")
)

var tally xwin.Tally

func check(name string, ok bool, detail ...any) { tally.Check(name, ok, detail...) }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	tmp, err := os.MkdirTemp("", "cdx-droptest-")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	src, _ := filepath.Abs(*file)
	for _, view := range []string{"home", "new"} {
		dropOnto(tmp, view, src)
	}
	fmt.Println(tally.Summary())
	if tally.Failed > 0 {
		os.Exit(1)
	}
}

// dropOnto starts the app on view and drops src onto it.
func dropOnto(tmp, view, src string) {
	// New build is reached as a user does from Home: File → New build, by
	// its accelerator Ctrl+N pressed on the real window.
	start := view
	if view == "new" {
		start = "home"
	}
	cfg, data := filepath.Join(tmp, "config"), filepath.Join(tmp, "data")
	for _, d := range []string{cfg, data, filepath.Join(tmp, "codex-home")} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(cfg, "window.json"), []byte(`{"X":0,"Y":0,"Width":1280,"Height":800}`), 0o600)
	report := filepath.Join(tmp, "report-"+view+".json")
	abs, _ := filepath.Abs(*appBin)
	cmd := exec.Command(abs)
	cmd.Env = append(os.Environ(), "NO_AT_BRIDGE=1", "CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_CONFIG_DIR="+cfg, "CDXTHEME_DATA_DIR="+data, "CODEX_HOME="+filepath.Join(tmp, "codex-home"),
		"CDXTHEME_AGENT=/nonexistent-agent", // no turn is started: the drop alone is tested
		"CDXTHEME_SELFTEST_OUT="+report, "CDXTHEME_SELFTEST_STAY=1", "CDXTHEME_SELFTEST_VIEW="+start)
	logf, _ := os.Create(filepath.Join(*outDir, "drop-app-"+view+".log"))
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		check("start the app", false, err)
		return
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
	type rep struct{ Route, Mounted string }
	var r rep
	var route struct{ View, WorkspaceID string }
	var waitFor func(d time.Duration, ok func() bool) bool
	wait := func(what string, ok func() bool) bool {
		if waitFor(60*time.Second, ok) {
			return true
		}
		check(what, false, "(timed out; report ", fmt.Sprintf("%+v", r), ")")
		return false
	}
	waitFor = func(d time.Duration, ok func() bool) bool {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			r = rep{}
			if b, err := os.ReadFile(report); err == nil {
				json.Unmarshal(b, &r)
				route.View, route.WorkspaceID = "", ""
				json.Unmarshal([]byte(r.Route), &route)
			}
			if ok() {
				return true
			}
		}
		return false
	}
	if !wait(start+": the view is shown and its drop is listening", func() bool { return route.View == start && r.Mounted == "import-drop" }) {
		return
	}
	before := builds(data)
	wid, geo := xwin.Window("CDXTheme Theme Builder")
	if wid == "" {
		check(view+": the window is up", false)
		return
	}
	if view != start {
		xwin.Xdo("windowactivate", "--sync", wid)
		xwin.Xdo("key", "--clearmodifiers", "ctrl+n")
		if !wait("Ctrl+N (File → New build) opened New build", func() bool { return route.View == view }) {
			xwin.Shot(*outDir, "drop-fail-ctrl-n")
			return
		}
	}
	// A synthesised X drag now and then does not start (the source's
	// window not yet taking input): drag again, up to three times, until
	// the chat opens.
	opened := func() bool { return route.View == "chat" && route.WorkspaceID != "" }
	for try := 0; try < 3; try++ {
		if err := xwin.Drag(*dragSource, "file://"+src, geo["X"]+geo["WIDTH"]/2, geo["Y"]+geo["HEIGHT"]/4); err != nil {
			fmt.Printf("     (try %d: %v)\n", try+1, err)
			continue
		}
		if waitFor(10*time.Second, opened) {
			break
		}
	}
	if !wait(view+": the dropped file opened a new build's chat", opened) {
		xwin.Shot(*outDir, "drop-fail-"+view)
		return
	}
	// (New build may keep a draft build of its own; the import is another.)
	check(view+": the drop made a new build", !slices.Contains(before, route.WorkspaceID) && slices.Contains(builds(data), route.WorkspaceID), before, route.WorkspaceID)
	b, err := os.ReadFile(filepath.Join(data, "theme_builder", route.WorkspaceID, "theme.json"))
	check(view+": the build holds the dropped theme", err == nil && strings.Contains(string(b), `"Nightfall`), err)
	logText, _ := os.ReadFile(filepath.Join(cfg, "cdxtheme.log"))
	// WebKitGTK still asks to open the dropped file's URI once the page has
	// it imported (its drop default): the lock refuses that, and the page
	// stays the app's.
	check(view+": the lock refused every navigation, the file's included", refusedOnly(string(logText), "file://"+src))
	check(view+": the navigation lock is on", strings.Contains(string(logText), "navigation lock on"))
	xwin.Shot(*outDir, "drop-"+view)
}

// refusedOnly reports whether every navigation the log shows is the lock's
// refusal of uri (WebKit asks to load nothing else).
func refusedOnly(logText, uri string) bool {
	for _, l := range xwin.LockLines(logText) {
		if l.Message != "navigation lock on" && (!l.Refused() || l.URI != uri) {
			return false
		}
	}
	return true
}

func builds(data string) []string {
	entries, _ := os.ReadDir(filepath.Join(data, "theme_builder"))
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
