// Package selftest lets a script prove the real production window works
// end to end (see below); app starts it, and its Desktop records what
// would reach the OS in the report instead of handing it on.
package selftest

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"

	"cdxtheme/core/paths"
	"cdxtheme/core/theme"

	"github.com/rs/zerolog"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The self-test lets a script prove the real production window works
// end to end without synthesising keystrokes: with CDXTHEME_SELFTEST_OUT
// set, the UI sends CDXTHEME_SELFTEST_PROMPT through its normal New Build
// path and reports what it rendered; the report is written there as JSON.
//
// It is no binding: the page asks for the plan with the event
// "selftest:ask" and reports with "selftest:report", and Go listens to
// those only when a script set CDXTHEME_SELFTEST_OUT. In normal use nothing
// answers and the page gives up.

// processStart approximates the process start for the first-paint timing.
var processStart = time.Now()

// Plan tells the UI what to do at start, sent as "selftest:plan".
// Active alone asks for the first-paint report (the start-up benchmark);
// a Prompt also sends it through New Build.
type Plan struct {
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
	// View (CDXTHEME_SELFTEST_VIEW, "home" or "new") is the view the UI
	// opens at start, for the drop window test; the UI then reports each
	// route ("route") and when its file drop is listening ("mounted").
	View string `json:"view,omitempty"`
	// Open (CDXTHEME_SELFTEST_OPEN, a session id, with
	// CDXTHEME_SELFTEST_OPEN_CWD) is a saved chat the UI reopens at start,
	// for the long-chat bench: it reports when the chat's last turn is on
	// screen ("reopened") and then sends Prompt in that chat.
	Open    string `json:"open,omitempty"`
	OpenCwd string `json:"openCwd,omitempty"`
	// Elements (CDXTHEME_SELFTEST_ELEMENTS, a JSON object of name → CSS
	// selector, the editor window test) asks the UI to report the first
	// match of each ("elements"): where it is drawn, its data attributes,
	// value and colours, again whenever that changes, so real input can aim
	// at it and the test can read what the page shows. Read-only: the page
	// is never driven through it.
	Elements string `json:"elements,omitempty"`
}

// Test answers the page's self-test events and writes the report.
type Test struct {
	// Log is where a report that could not be written goes (a pointer:
	// the app's logger may be replaced after the test is made).
	Log    *zerolog.Logger
	mu     sync.Mutex
	report map[string]any
	quit   func()
}

// Active reports whether a script asked for the self-test
// (CDXTHEME_SELFTEST_OUT); in normal use it is not.
func Active() bool { return os.Getenv("CDXTHEME_SELFTEST_OUT") != "" }

// PlanOf is the env-driven plan; inactive in normal use.
func PlanOf() Plan {
	if !Active() {
		return Plan{}
	}
	return Plan{Active: true, Prompt: os.Getenv("CDXTHEME_SELFTEST_PROMPT"), Nav: os.Getenv("CDXTHEME_SELFTEST_NAV"),
		Theme: string(theme.ExampleJSON()), View: os.Getenv("CDXTHEME_SELFTEST_VIEW"), Elements: os.Getenv("CDXTHEME_SELFTEST_ELEMENTS"),
		Open: os.Getenv("CDXTHEME_SELFTEST_OPEN"), OpenCwd: os.Getenv("CDXTHEME_SELFTEST_OPEN_CWD")}
}

// Start listens for the page's self-test events (only when Active).
func (s *Test) Start(ctx context.Context) {
	if !Active() {
		return
	}
	s.quit = func() { runtime.Quit(ctx) }
	runtime.EventsOn(ctx, "selftest:ask", func(...any) { runtime.EventsEmit(ctx, "selftest:plan", PlanOf()) })
	runtime.EventsOn(ctx, "selftest:report", func(data ...any) {
		if len(data) != 2 {
			return
		}
		kind, _ := data[0].(string)
		text, _ := data[1].(string)
		if err := s.Reported(kind, text); err != nil {
			s.Log.Warn().Err(err).Msg("self-test report")
		}
	})
}

// Record appends v to the report's list under key: what the app would
// have handed to the OS ("opened", "openedFiles", "revealedFiles").
func (s *Test) Record(key, v string) {
	s.mu.Lock()
	if s.report == nil {
		s.report = map[string]any{}
	}
	list, _ := s.report[key].([]string)
	s.report[key] = append(list, v)
	s.write(os.Getenv("CDXTHEME_SELFTEST_OUT"))
	s.mu.Unlock()
}

// write saves the report; under s.mu, since the page's reports arrive on
// goroutines of their own and an older report must not land last.
func (s *Test) write(out string) error {
	b, err := json.Marshal(s.report)
	if err != nil {
		return err
	}
	return paths.WriteFileAtomic(out, b, 0o644)
}

// Reported records what the UI saw. kind is "paint" (first frame),
// "reply" (the rendered reply text) or one of the navigation test's; a
// reply report ends the self-test.
func (s *Test) Reported(kind, text string) error {
	out := os.Getenv("CDXTHEME_SELFTEST_OUT")
	if out == "" || kind == "" {
		return nil
	}
	s.mu.Lock()
	if s.report == nil {
		s.report = map[string]any{}
	}
	s.report[kind] = text
	s.report[kind+"Ms"] = time.Since(processStart).Milliseconds()
	err := s.write(out)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if kind == "reply" && os.Getenv("CDXTHEME_SELFTEST_STAY") == "" && s.quit != nil {
		go func() {
			time.Sleep(300 * time.Millisecond)
			s.quit()
		}()
	}
	return nil
}
