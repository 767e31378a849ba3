package app

import (
	"encoding/json"
	"os"
	"time"

	"cdxtheme/core/paths"
	"cdxtheme/core/theme"
)

// The self-test lets a script prove the real production window works
// end to end without synthesising keystrokes: with CDXTHEME_SELFTEST_OUT
// set, the UI sends CDXTHEME_SELFTEST_PROMPT through its normal New Build
// path and reports what it rendered; the report is written there as JSON.

// processStart approximates the process start for the first-paint timing.
var processStart = time.Now()

// SelfTestPlan tells the UI what to do at start; inactive when not testing.
// Active alone asks for the first-paint report (the start-up benchmark);
// a Prompt also sends it through New Build.
type SelfTestPlan struct {
	Active bool   `json:"active"`
	Prompt string `json:"prompt"`
	// Nav (CDXTHEME_SELFTEST_NAV, the navigation window test) is the
	// loopback page the test serves: after the reply the UI reports where
	// each navigation vector is drawn, then tries to leave for Nav from
	// script itself (location, window.open, …), bypassing the page's guards.
	Nav string `json:"nav"`
	// Theme is a theme document the UI highlights code with and reports
	// on ("highlight"), proving the preview's highlighter in this webview.
	Theme string `json:"theme,omitempty"`
}

// SelfTest returns the plan (env-driven; inactive in normal use).
func (a *App) SelfTest() SelfTestPlan {
	if os.Getenv("CDXTHEME_SELFTEST_OUT") == "" {
		return SelfTestPlan{}
	}
	return SelfTestPlan{Active: true, Prompt: os.Getenv("CDXTHEME_SELFTEST_PROMPT"), Nav: os.Getenv("CDXTHEME_SELFTEST_NAV"),
		Theme: string(theme.ExampleJSON())}
}

// selfTestSeams keeps a self-test from launching the user's browser or file
// manager: what would be handed to the OS (after every check) is recorded
// in the report instead, under "opened", "openedFiles" and "revealedFiles".
func (a *App) selfTestSeams() {
	if os.Getenv("CDXTHEME_SELFTEST_OUT") == "" {
		return
	}
	a.openURL = func(u string) { a.selfTestRecord("opened", u) }
	a.openFile = func(p string) error { a.selfTestRecord("openedFiles", p); return nil }
	a.revealFile = func(p string) error { a.selfTestRecord("revealedFiles", p); return nil }
}

// selfTestRecord appends v to the report's list under key.
func (a *App) selfTestRecord(key, v string) {
	a.mu.Lock()
	if a.selftest == nil {
		a.selftest = map[string]any{}
	}
	list, _ := a.selftest[key].([]string)
	a.selftest[key] = append(list, v)
	b, err := json.Marshal(a.selftest)
	a.mu.Unlock()
	if err == nil {
		paths.WriteFileAtomic(os.Getenv("CDXTHEME_SELFTEST_OUT"), b, 0o644)
	}
}

// SelfTestReport records what the UI saw. kind is "paint" (first frame) or
// "reply" (the rendered reply text); a reply report ends the self-test.
func (a *App) SelfTestReport(kind, text string) error {
	out := os.Getenv("CDXTHEME_SELFTEST_OUT")
	if out == "" {
		return nil
	}
	a.mu.Lock()
	if a.selftest == nil {
		a.selftest = map[string]any{}
	}
	a.selftest[kind] = text
	a.selftest[kind+"Ms"] = time.Since(processStart).Milliseconds()
	b, err := json.Marshal(a.selftest)
	a.mu.Unlock()
	if err != nil {
		return err
	}
	if err := paths.WriteFileAtomic(out, b, 0o644); err != nil {
		return err
	}
	if kind == "reply" && os.Getenv("CDXTHEME_SELFTEST_STAY") == "" {
		go func() {
			time.Sleep(300 * time.Millisecond)
			a.Quit()
		}()
	}
	return nil
}
