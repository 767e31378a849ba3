// Command edittest edits a theme by hand in the PRODUCTION window with real
// input, under an X server (scripts/edit-window-test.sh starts it under
// xvfb-run), the fake agent (internal/testrig/fakeagent, its theme scenario) as the
// agent. A click on the preview's accent opens the picker, a new hex is
// typed into its hex field with real key events and confirmed with Enter:
// theme.json must hold exactly that colour (written by a rename, nothing
// else changed) and the preview and the contrast table must show it. A
// click locks the role; the next prompt, typed and sent, must tell the
// agent the role was changed and is locked, and after the agent's turn
// (which rewrites the accent twice) theme.json must still hold the locked
// colour. The app quits by Ctrl+Q and starts again on the same data: the
// edited colour and the lock must still be shown.
//
// The page is read through the app's self-test hook: with
// CDXTHEME_SELFTEST_ELEMENTS set at start-up, the page reports where each
// named element is drawn and what it shows (app/selftest.go,
// frontend/src/lib/selftest.ts watchElements); xdotool aims at that.
// Prints "N passed, N failed".
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/xwin"
)

var (
	appBin   = flag.String("app", "build/bin/cdxtheme", "the production binary")
	agentBin = flag.String("agent", "build/bin/fakeagent", "the fake agent")
	outDir   = flag.String("out", "build/window-test", "screenshots and logs")
	shotPath = flag.String("shot", "docs/editor-window.png", "the screenshot of the open editor (\"\" for none)")
	cmpShot  = flag.String("compare-shot", "docs/designer/compare-older-turn.png", "the screenshot of Compare opened on an older turn (\"\" for none)")
)

const (
	title = "CDXTheme Theme Builder"
	role  = "ui.accent"
	// The user's colour: unlike both of the fake agent's accents (#e0a458, #ff7a59).
	newHex = "#3355ff"
	newRGB = "rgb(51, 85, 255)"
)

// The elements the test clicks or reads, by name (the page reports the first match of each).
var selectors = map[string]string{
	"accentButton":   `[data-testid="preview-accent-button"]`,
	"roleEditor":     `[data-testid="role-editor"]`,
	"hex":            `[data-testid="editor-hex"]`,
	"lock":           `[data-testid="editor-lock"]`,
	"editorError":    `[data-testid="editor-error"]`,
	"accentItem":     `[data-testid="role-item"][data-role="ui.accent"]`,
	"accentContrast": `[data-testid="contrast-row"][data-fg-role="ui.accent"][data-bg-role="ui.background"]`,
	"accentSample":   `[data-testid="contrast-row"][data-fg-role="ui.accent"][data-bg-role="ui.background"] .sample`,
	"prompt":         `[data-testid="prompt"]`,
	"send":           `[data-testid="send"]`,
	"running":        `[data-testid="running"]`,
	"messages":       `[data-testid="message-list"]`,
	"buildRow":       `[data-testid="build-row"]`,
	// Compare on an older turn: the first Compare inside a settled chat item
	// (content-visibility: auto, the case that clipped the dialog to its row).
	"oldCompare":      `.settled [data-testid="compare-checkpoint"]`,
	"compareBackdrop": `[data-testid="compare-dialog-backdrop"]`,
	"compareDialog":   `[data-testid="compare-dialog"]`,
	"compareSummary":  `[data-testid="compare-summary"]`,
	"compareAfter":    `[data-testid="compare-dialog"] [data-testid="compare-after"]`,
	// The palette step: the fake agent's "rose" entry, which ui.error and
	// ansi.red follow (its theme holds their colour; read as version 2,
	// each role follows the entry of its exact colour).
	"roseSwatch":    `[data-testid="palette-swatch"][data-role="palette.rose"]`,
	"errorContrast": `[data-testid="contrast-row"][data-fg-role="ui.error"][data-bg-role="ui.background"]`,
	"errorSample":   `[data-testid="contrast-row"][data-fg-role="ui.error"][data-bg-role="ui.background"] .sample`,
	"ansiRed":       `[data-testid="preview-ansi-1"]`,
	"undo":          `[data-testid="editor-undo"]`,
}

// The palette entry edited and the colour typed for it.
const (
	entry       = "rose"
	entryHex    = "#11aa55"
	entryRGB    = "rgb(17, 170, 85)"
	entryWasRGB = "rgb(247, 118, 142)"
)

var tally xwin.Tally

func check(name string, ok bool, detail ...any) bool { tally.Check(name, ok, detail...); return ok }

func main() {
	flag.Parse()
	os.MkdirAll(*outDir, 0o755)
	if err := run(); err != nil {
		check("the edit flow ran to its end", false, err)
	}
	fmt.Println(tally.Summary())
	if tally.Failed > 0 {
		os.Exit(1)
	}
}

// The shared driver (xwin): the rig's folders and environment, one run of the app.
type (
	rig = xwin.Rig
	app = xwin.App
)

func newRig() (*rig, error) {
	// Tall and wide: the preview is a column beside the chat, the picker and the contrast table below it.
	return xwin.NewRig("edit", *appBin, *agentBin, *outDir, 1880, 1180, selectors)
}

func run() error {
	r, err := newRig()
	if err != nil {
		return err
	}
	defer r.Close()
	defer func() {
		// The app's own log, kept beside the screenshots for a failure's reading.
		if b, err := os.ReadFile(filepath.Join(r.Cfg, "cdxtheme.log")); err == nil {
			os.WriteFile(filepath.Join(*outDir, "edit-cdxtheme.log"), b, 0o644)
		}
	}()

	// 1. A build with a theme, made through New build by the self-test's prompt.
	first, err := r.Start("1", "CDXTHEME_SELFTEST_PROMPT=A dusk theme #theme")
	if err != nil {
		return err
	}
	defer first.Stop()
	if _, err := first.Wait("the first turn wrote a theme and the preview shows it", 90*time.Second, func(p xwin.Elements) bool {
		_, running := p.Els["running"]
		return !running && strings.Contains(p.Els["messages"].Text, "Theme ready.") && p.Els["accentButton"].Bg == "rgb(255, 122, 89)"
	}); err != nil {
		return err
	}
	ws, err := onlyBuild(r.Data)
	if err != nil {
		return err
	}
	themePath := filepath.Join(r.Data, "theme_builder", ws, theme.FileName)
	before, err := readDoc(themePath)
	if err != nil {
		return err
	}
	fileBefore, err := os.Stat(themePath)
	if err != nil {
		return fmt.Errorf("stat theme: %w", err)
	}
	if _, win := xwin.Window(title); win == nil {
		return errors.New("no window titled " + title)
	}

	// Compare on the first turn, settled already (issue #37): a real click
	// must open the dialog over the whole window, not in its row's strip.
	if err := compareOlderTurn(first); err != nil {
		check("Compare opens over the whole window from an older turn", false, err)
	}

	// 2. A real click on the preview's accent opens the picker on it.
	if err := first.Click("accentButton"); err != nil {
		return fmt.Errorf("open the picker: %w", err)
	}
	if _, err := first.Wait("the picker opened on "+role, 10*time.Second, func(p xwin.Elements) bool {
		_, hex := p.Els["hex"]
		return p.Els["roleEditor"].Data["role"] == role && hex
	}); err != nil {
		return err
	}
	// The hex field by a click, its text replaced by real keys, Enter confirms.
	if err := first.Click("hex"); err != nil {
		return fmt.Errorf("focus the hex field: %w", err)
	}
	if _, err := first.Wait("the hex field has the keyboard focus", 5*time.Second, func(p xwin.Elements) bool { return p.Active == "editor-hex" }); err != nil {
		return err
	}
	xwin.Key("ctrl+a")
	xwin.Type(newHex)
	if _, err := first.Wait("the typed hex is in the field", 5*time.Second, func(p xwin.Elements) bool { return p.Els["hex"].Value == newHex }); err != nil {
		return err
	}
	xwin.Key("Return")
	after, err := waitDoc(themePath, 10*time.Second, func(d map[string]any) bool { return colourAt(d, role) == newHex })
	check("theme.json holds the typed colour", err == nil, err)
	if err != nil {
		return err
	}
	// The writer stamps the format's version on the document it rewrites
	// (version 3 names the palette entries roles follow); every colour but
	// the one typed stays.
	wantColours, gotColours := resolved(before), resolved(after)
	wantColours[role] = newHex
	check("theme.json changed in "+role+" alone", gotColours != nil && reflect.DeepEqual(gotColours, wantColours), "before ", before, " after ", after)
	// Written in place, the file would keep its inode; an atomic write renames a new file over it.
	fileAfter, err := os.Stat(themePath)
	check("theme.json was replaced whole (a new file renamed over it), no temporary file left",
		err == nil && !os.SameFile(fileBefore, fileAfter) && len(leftovers(filepath.Dir(themePath))) == 0, err, " ", leftovers(filepath.Dir(themePath)))
	ratio, err := ratioOf(themePath, role, "ui.background")
	if err != nil {
		return err
	}
	p, err := first.Wait("the preview and the contrast table show the colour", 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["accentButton"].Bg == newRGB && p.Els["accentSample"].Color == newRGB
	})
	check("the preview's accent is painted "+newHex, err == nil, err)
	check("the contrast table's accent row shows it, at its ratio "+ratio, p.Els["accentSample"].Color == newRGB && strings.Contains(p.Els["accentContrast"].Text, ratio),
		p.Els["accentSample"].Color, " ", p.Els["accentContrast"].Text)
	check("the role list marks "+role+" changed", p.Els["accentItem"].Data["changed"] == "true", p.Els["accentItem"].Data)
	check("no editor error", p.Els["editorError"].Text == "", p.Els["editorError"].Text)

	// 2b. The palette strip: a real click on the rose swatch, a hex typed:
	// every role following rose moves, in theme.json, the preview and the
	// contrast table; one click on Undo puts them all back.
	if err := paletteStep(first, themePath); err != nil {
		return err
	}
	if err := first.Click("accentButton"); err != nil {
		return fmt.Errorf("open the picker on the accent again: %w", err)
	}
	if _, err := first.Wait("the picker is on "+role+" again", 10*time.Second, func(p xwin.Elements) bool { return p.Els["roleEditor"].Data["role"] == role }); err != nil {
		return err
	}

	// 3. A real click on the lock.
	if err := first.Click("lock"); err != nil {
		return fmt.Errorf("lock the role: %w", err)
	}
	if _, err := first.Wait(role+" is locked", 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["lock"].Checked && p.Els["accentItem"].Data["locked"] == "true"
	}); err != nil {
		return err
	}
	check(role+" is shown locked", true)
	xwin.Xdo("mousemove", "--sync", "0", "0") // no hover state in the screenshot
	xwin.Shot(*outDir, "editor-window")
	if *shotPath != "" {
		if err := copyFile(filepath.Join(*outDir, "editor-window.png"), *shotPath); err != nil {
			check("screenshot of the open editor saved", false, err)
		}
	}

	// 4. A prompt typed and sent; the fake agent's turn writes its own accent twice.
	if err := first.Click("prompt"); err != nil {
		return fmt.Errorf("focus the composer: %w", err)
	}
	if _, err := first.Wait("the composer has the keyboard focus", 5*time.Second, func(p xwin.Elements) bool { return p.Active == "prompt" }); err != nil {
		return err
	}
	xwin.Type("Refine it #theme")
	if _, err := first.Wait("the prompt is typed", 30*time.Second, func(p xwin.Elements) bool { return p.Els["prompt"].Value == "Refine it #theme" }); err != nil {
		return err
	}
	sentAt := promptCount(r.AgentLog)
	watch := watchColour(themePath, role)
	if err := first.Click("send"); err != nil {
		return fmt.Errorf("send the prompt: %w", err)
	}
	_, err = first.Wait("the agent's turn ended", 60*time.Second, func(p xwin.Elements) bool {
		_, running := p.Els["running"]
		return !running && strings.Count(p.Els["messages"].Text, "Theme ready.") >= 2
	})
	seen := watch()
	if err != nil {
		return err
	}
	overwritten := false
	for _, c := range seen {
		overwritten = overwritten || c != newHex
	}
	prompt, err := lastPrompt(r.AgentLog, sentAt)
	check("the agent received the prompt", err == nil, err)
	changedPart, lockedPart, _ := strings.Cut(prompt, "LOCKED")
	line := "- " + role + " = " + newHex
	check("the prompt tells the agent "+role+" was changed by hand", strings.Contains(changedPart, "edited these colours") && strings.Contains(changedPart, line), prompt)
	check("the prompt tells the agent "+role+" is locked", strings.Contains(lockedPart, line), prompt)
	// Read at once: the app puts locked colours back before the page hears the turn is done.
	doc, err := readDoc(themePath)
	check("after the turn theme.json still holds the locked colour", err == nil && colourAt(doc, role) == newHex, err, " ", colourAt(doc, role), " (the file held ", seen, ")")
	var said string
	_, err = first.Wait("the chat says the lock was restored", 5*time.Second, func(p xwin.Elements) bool {
		said = p.Els["messages"].Text
		return strings.Contains(said, "they were restored: "+role)
	})
	check("the chat says "+role+" was restored", err == nil, err)
	// The watcher reads a renamed-in file at once, so the agent's colour may
	// be in theme.json for less than the 10 ms between samples; the closing
	// warning names what the app saw it write ("#a was written, #b kept").
	if _, after, ok := strings.Cut(said, "they were restored: "+role+" ("); ok {
		written, _, _ := strings.Cut(after, " written")
		for _, c := range hexIn.FindAllString(written, -1) {
			overwritten = overwritten || !strings.EqualFold(c, newHex)
		}
	}
	check("the agent's turn did overwrite "+role+" in theme.json", overwritten, seen, " ", said)
	var shown []string
	_, err = first.Wait("the preview shows the locked colour again", 10*time.Second, func(p xwin.Elements) bool {
		if bg := p.Els["accentButton"].Bg; len(shown) == 0 || shown[len(shown)-1] != bg {
			shown = append(shown, bg)
		}
		return p.Els["accentButton"].Bg == newRGB
	})
	check("the preview shows the locked colour after the turn", err == nil, err, " shown ", shown, " file ", seen)

	// 5. Quit by the menu's Ctrl+Q, start again on the same data.
	if wid, _ := xwin.Window(title); wid != "" {
		xwin.Xdo("windowfocus", "--sync", wid)
	}
	xwin.Key("ctrl+q")
	select {
	case <-first.Exited():
		check("Ctrl+Q quit the app cleanly", first.Err() == nil, first.Err())
	case <-time.After(20 * time.Second):
		check("Ctrl+Q quit the app", false, "still running after 20 s")
		first.Stop()
	}
	second, err := r.Start("2")
	if err != nil {
		return err
	}
	defer second.Stop()
	if err := second.Click("buildRow"); err != nil {
		return fmt.Errorf("open the build from Home: %w", err)
	}
	p, err = second.Wait("after the restart the build shows the edited colour, locked", 20*time.Second, func(p xwin.Elements) bool {
		return p.Els["accentItem"].Data["locked"] == "true" && p.Els["accentButton"].Bg == newRGB
	})
	check("after the restart the preview shows "+newHex+" and the role list the lock", err == nil, err)
	if err := second.Click("accentButton"); err != nil {
		return fmt.Errorf("open the picker after the restart: %w", err)
	}
	p, err = second.Wait("the picker shows the colour and the lock", 30*time.Second, func(p xwin.Elements) bool {
		return p.Els["roleEditor"].Data["role"] == role && p.Els["hex"].Value == newHex && p.Els["lock"].Checked
	})
	check("after the restart the picker shows "+newHex+", locked", err == nil, err)
	doc, err = readDoc(themePath)
	check("after the restart theme.json holds the colour", err == nil && colourAt(doc, role) == newHex, err)
	if wid, _ := xwin.Window(title); wid != "" {
		xwin.Xdo("windowfocus", "--sync", wid)
	}
	xwin.Key("ctrl+q")
	select {
	case <-second.Exited():
	case <-time.After(20 * time.Second):
	}
	return nil
}

// compareOlderTurn clicks Compare on a settled (older) turn and checks that
// the dialog's backdrop covers the window and its panel is drawn where a
// click would reach it; then Esc closes it.
func compareOlderTurn(a *app) error {
	if err := a.Click("oldCompare"); err != nil {
		return fmt.Errorf("click Compare on an older turn: %w", err)
	}
	p, err := a.Wait("the comparison is shown", 60*time.Second, func(p xwin.Elements) bool {
		_, ok := p.Els["compareAfter"]
		return ok
	})
	if err != nil {
		return err
	}
	b, d := p.Els["compareBackdrop"], p.Els["compareDialog"]
	check("the Compare backdrop covers the whole window", b.X == 0 && b.Y == 0 && b.W == p.VW && b.H == p.VH, xwin.Brief(p))
	// The panel holds two previews: far taller than a chat row, and drawn on top (its centre is its own).
	check("the Compare dialog is drawn full size and on top", !d.Hidden && d.H >= p.VH/2 && d.W >= p.VW/2, xwin.Brief(p))
	// It opens at its top: the summary ("N roles changed") is in view, not
	// scrolled away to the first control that takes the focus.
	sum := p.Els["compareSummary"]
	check("Compare opens at its top with its summary in view", !sum.Hidden && sum.Y >= d.Y, sum, " dialog ", d)
	xwin.Xdo("mousemove", "--sync", "0", "0")
	xwin.Shot(*outDir, "compare-older-turn")
	if *cmpShot != "" {
		os.MkdirAll(filepath.Dir(*cmpShot), 0o755)
		if err := copyFile(filepath.Join(*outDir, "compare-older-turn.png"), *cmpShot); err != nil {
			check("screenshot of Compare saved", false, err)
		}
	}
	xwin.Key("Escape")
	_, err = a.Wait("Esc closed Compare", 5*time.Second, func(p xwin.Elements) bool {
		_, open := p.Els["compareDialog"]
		return !open
	})
	check("Esc closes Compare", err == nil, err)
	return nil
}

// onlyBuild is the one build the first turn made.
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

func readDoc(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read theme: %w", err)
	}
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return d, nil
}

// waitDoc polls theme.json until ok holds.
func waitDoc(path string, d time.Duration, ok func(map[string]any) bool) (map[string]any, error) {
	var doc map[string]any
	var err error
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if doc, err = readDoc(path); err == nil && ok(doc) {
			return doc, nil
		}
	}
	return doc, fmt.Errorf("theme.json not as awaited after %s (last error %v, accent %q)", d, err, colourAt(doc, role))
}

// colourAt is the colour at a "group.role" path of a theme document ("" if none).
func colourAt(d map[string]any, path string) string {
	g, name, _ := strings.Cut(path, ".")
	group, _ := d[g].(map[string]any)
	s, _ := group[name].(string)
	return strings.ToLower(s)
}

func setColour(d map[string]any, path, hex string) {
	g, name, _ := strings.Cut(path, ".")
	if group, ok := d[g].(map[string]any); ok {
		group[name] = hex
	}
}

func clone(d map[string]any) map[string]any {
	b, _ := json.Marshal(d)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// leftovers are the atomic writer's temporary files (core/fswrite) left in dir.
func leftovers(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// ratioOf is the contrast ratio Go measures for the pair, as the table prints it.
func ratioOf(path, fg, bg string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read theme: %w", err)
	}
	t, err := theme.Parse(b)
	if err != nil {
		return "", fmt.Errorf("parse theme: %w", err)
	}
	for _, c := range contrast.Checks(t) {
		if c.FGRole == fg && c.BGRole == bg {
			return fmt.Sprintf("%.2f:1", c.Ratio), nil
		}
	}
	return "", fmt.Errorf("no %s on %s pair", fg, bg)
}

// watchColour records each distinct colour the role has in theme.json until
// the returned stop is called (which returns them, in order).
// hexIn finds the #rrggbb colours in a text.
var hexIn = regexp.MustCompile(`#[0-9a-fA-F]{6}\b`)

func watchColour(path, role string) func() []string {
	var mu sync.Mutex
	var seen []string
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if d, err := readDoc(path); err == nil {
				c := colourAt(d, role)
				mu.Lock()
				if len(seen) == 0 || seen[len(seen)-1] != c {
					seen = append(seen, c)
				}
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() []string {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// agentPrompts are the texts of the session/prompt requests in the fake agent's log (FAKE_AGENT_LOG).
func agentPrompts(logPath string) ([]string, error) {
	f, err := os.Open(logPath)
	if err != nil {
		return nil, fmt.Errorf("open the agent's log: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			Method string
			Params struct {
				Prompt []struct{ Type, Text string }
			}
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.Method != "session/prompt" {
			continue
		}
		var b strings.Builder
		for _, blk := range m.Params.Prompt {
			b.WriteString(blk.Text)
			b.WriteString("\n")
		}
		out = append(out, b.String())
	}
	return out, sc.Err()
}

func promptCount(logPath string) int {
	p, _ := agentPrompts(logPath)
	return len(p)
}

// lastPrompt is the text of the prompt after the first n ones.
func lastPrompt(logPath string, n int) (string, error) {
	p, err := agentPrompts(logPath)
	if err != nil {
		return "", err
	}
	if len(p) != n+1 {
		return "", fmt.Errorf("the agent got %d prompts, want %d", len(p), n+1)
	}
	return p[n], nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("read screenshot: %w", err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", to, err)
	}
	return nil
}

// paletteStep edits the palette entry rose through the colour editor's
// palette strip with real input, checks that every role following it moved
// in theme.json, the preview and the contrast table, and undoes it with one
// click.
func paletteStep(a *app, themePath string) error {
	th, err := parseTheme(themePath)
	if err != nil {
		return err
	}
	followers := th.EntryUsers(entry)
	check("ui.error and ansi.red follow the palette entry "+entry, contains(followers, "ui.error") && contains(followers, "ansi.red"), followers)
	if err := a.Click("roseSwatch"); err != nil {
		return fmt.Errorf("open the palette entry: %w", err)
	}
	if _, err := a.Wait("the picker opened on palette."+entry, 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["roleEditor"].Data["role"] == "palette."+entry
	}); err != nil {
		return err
	}
	if err := a.Click("hex"); err != nil {
		return fmt.Errorf("focus the hex field: %w", err)
	}
	if _, err := a.Wait("the hex field has the keyboard focus", 5*time.Second, func(p xwin.Elements) bool { return p.Active == "editor-hex" }); err != nil {
		return err
	}
	xwin.Key("ctrl+a")
	xwin.Type(entryHex)
	if _, err := a.Wait("the typed hex is in the field", 5*time.Second, func(p xwin.Elements) bool { return p.Els["hex"].Value == entryHex }); err != nil {
		return err
	}
	xwin.Key("Return")
	var moved *theme.Theme
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if t, err := parseTheme(themePath); err == nil && t.Palette[entry].Hex() == entryHex {
			moved = t
			break
		}
	}
	check("theme.json holds the typed colour in palette."+entry, moved != nil)
	if moved == nil {
		return errors.New("the palette edit did not reach theme.json")
	}
	var stale []string
	for _, r := range followers {
		if moved.Color(r).Hex() != entryHex || moved.Follows(r) != entry {
			stale = append(stale, r)
		}
	}
	check("every role following "+entry+" moved with it in theme.json", len(stale) == 0 && len(followers) > 0, stale)
	p, err := a.Wait("the preview and the contrast table follow the entry", 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["ansiRed"].Bg == entryRGB && p.Els["errorSample"].Color == entryRGB
	})
	check("the preview's ANSI red swatch is painted "+entryHex, err == nil && p.Els["ansiRed"].Bg == entryRGB, err, " ", p.Els["ansiRed"].Bg)
	check("the contrast table's ui.error row shows "+entryHex+" and names the entry it follows",
		p.Els["errorSample"].Color == entryRGB && strings.Contains(p.Els["errorContrast"].Text, "["+entry+"]"), p.Els["errorSample"].Color, " ", p.Els["errorContrast"].Text)
	xwin.Shot(*outDir, "palette-edit")
	if err := a.Click("undo"); err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	var back *theme.Theme
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if t, err := parseTheme(themePath); err == nil && t.Palette[entry].Hex() != entryHex {
			back = t
			break
		}
	}
	restored := back != nil
	for _, r := range followers {
		restored = restored && back.Color(r) == th.Color(r) && back.Follows(r) == entry
	}
	check("one undo put the entry and every role following it back", restored)
	_, err = a.Wait("the preview shows the entry's old colour again", 10*time.Second, func(p xwin.Elements) bool {
		return p.Els["ansiRed"].Bg == entryWasRGB && p.Els["errorSample"].Color == entryWasRGB
	})
	check("the preview and the contrast table show the old colour after the undo", err == nil, err)
	return nil
}

func parseTheme(path string) (*theme.Theme, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return theme.Parse(b)
}

// resolved is the colour of every role the document sets (derived roles
// left out: they follow the roles they are made from), nil when the
// document does not parse.
func resolved(d map[string]any) map[string]string {
	b, err := json.Marshal(d)
	if err != nil {
		return nil
	}
	t, err := theme.Parse(b)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, p := range theme.RolePaths() {
		if t.Has(p) {
			out[p] = t.Color(p).String()
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
