package app

import (
	"os"
	"path/filepath"
	"testing"
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
