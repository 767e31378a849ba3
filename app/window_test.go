package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/syncbuf"

	"github.com/rs/zerolog"
)

func TestWindowStateRoundTripAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "window.json")
	want := WindowState{X: 40, Y: 60, Width: 1500, Height: 900}
	if err := SaveWindowState(path, want); err != nil {
		t.Fatal(err)
	}
	if got := LoadWindowState(path); got != want {
		t.Fatalf("round trip: got %+v want %+v", got, want)
	}
	def := LoadWindowState(filepath.Join(dir, "missing.json"))
	if def.Width != DefaultWidth || def.Height != DefaultHeight {
		t.Fatalf("missing file: %+v", def)
	}
	for name, body := range map[string]string{
		"corrupt":   "{not json",
		"too small": `{"Width":100,"Height":100}`,
		"absurd":    `{"Width":100000,"Height":900}`,
	} {
		os.WriteFile(path, []byte(body), 0o600)
		if got := LoadWindowState(path); got != def {
			t.Errorf("%s: got %+v, want defaults", name, got)
		}
	}
}

// The smallest window the app allows is remembered as it was, not reset.
func TestWindowAtTheMinimumSizeIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "window.json")
	want := WindowState{Width: MinWidth, Height: MinHeight, X: 10, Y: 20}
	if err := SaveWindowState(path, want); err != nil {
		t.Fatal(err)
	}
	if got := LoadWindowState(path); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// Closing a maximised window remembers that it was maximised and the size
// it had before; a normal window is remembered as it is.
func TestClosingStateKeepsTheNormalGeometryOfAMaximisedWindow(t *testing.T) {
	prev := WindowState{Width: 1200, Height: 800, X: 40, Y: 30}
	got := closingState(WindowState{Maximised: true, Width: 2560, Height: 1400}, prev)
	if want := (WindowState{Maximised: true, Width: 1200, Height: 800, X: 40, Y: 30}); got != want {
		t.Fatalf("maximised: got %+v, want %+v", got, want)
	}
	normal := WindowState{Width: 1000, Height: 700, X: 5, Y: 6}
	if got := closingState(normal, prev); got != normal {
		t.Fatalf("normal: got %+v, want %+v", got, normal)
	}
}

// A window state that cannot be saved is logged; the window closes all
// the same (BeforeClose's save, through rememberWindow).
func TestUnsavableWindowStateIsLogged(t *testing.T) {
	var log syncbuf.Buffer
	dir := t.TempDir()
	a := &App{env: &env{log: zerolog.New(&log)}, windowPath: dir} // a folder: no file can go there
	a.rememberWindow(WindowState{Width: 1000, Height: 700})
	if !strings.Contains(log.String(), "remember window") {
		t.Fatalf("log: %s", log.String())
	}
	a.windowPath = filepath.Join(dir, "window.json")
	a.rememberWindow(WindowState{Width: 1000, Height: 700, X: 3, Y: 4})
	if got := LoadWindowState(a.windowPath); got != (WindowState{Width: 1000, Height: 700, X: 3, Y: 4}) {
		t.Fatalf("remembered %+v", got)
	}
}

// Issue #37: the window's minimum is the smallest size the layout is
// tested at (the comfort test's first size), neither larger (the user could
// not use a size known to work) nor smaller (untested).
func TestMinimumWindowIsTheSmallestTestedLayout(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "e2e", "tests", "comfort.test.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`for \(const \[w, h\] of \[\[(\d+), (\d+)\]`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the comfort test's sizes were not found")
	}
	w, _ := strconv.Atoi(string(m[1]))
	h, _ := strconv.Atoi(string(m[2]))
	if MinWidth != w || MinHeight != h {
		t.Errorf("minimum window %d×%d, the layout is tested down to %d×%d", MinWidth, MinHeight, w, h)
	}
}
