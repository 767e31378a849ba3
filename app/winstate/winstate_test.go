package winstate

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

func TestWindowStateRoundTripAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "window.json")
	want := State{X: 40, Y: 60, Width: 1500, Height: 900}
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	if got := Load(path); got != want {
		t.Fatalf("round trip: got %+v want %+v", got, want)
	}
	def := Load(filepath.Join(dir, "missing.json"))
	if def.Width != DefaultWidth || def.Height != DefaultHeight {
		t.Fatalf("missing file: %+v", def)
	}
	for name, body := range map[string]string{
		"corrupt":   "{not json",
		"too small": `{"Width":100,"Height":100}`,
		"absurd":    `{"Width":100000,"Height":900}`,
	} {
		os.WriteFile(path, []byte(body), 0o600)
		if got := Load(path); got != def {
			t.Errorf("%s: got %+v, want defaults", name, got)
		}
	}
}

// The smallest window the app allows is remembered as it was, not reset.
func TestWindowAtTheMinimumSizeIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "window.json")
	want := State{Width: MinWidth, Height: MinHeight, X: 10, Y: 20}
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	if got := Load(path); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// Closing a maximised window remembers that it was maximised and the size
// it had before; a normal window is remembered as it is.
func TestClosingStateKeepsTheNormalGeometryOfAMaximisedWindow(t *testing.T) {
	prev := State{Width: 1200, Height: 800, X: 40, Y: 30}
	got := Closing(State{Maximised: true, Width: 2560, Height: 1400}, prev)
	if want := (State{Maximised: true, Width: 1200, Height: 800, X: 40, Y: 30}); got != want {
		t.Fatalf("maximised: got %+v, want %+v", got, want)
	}
	normal := State{Width: 1000, Height: 700, X: 5, Y: 6}
	if got := Closing(normal, prev); got != normal {
		t.Fatalf("normal: got %+v, want %+v", got, normal)
	}
}

// Issue #37: the window's minimum is the smallest size the layout is
// tested at (the comfort test's first size), neither larger (the user could
// not use a size known to work) nor smaller (untested).
func TestMinimumWindowIsTheSmallestTestedLayout(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "e2e", "tests", "comfort.test.mjs"))
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
