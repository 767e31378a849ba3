package main

import (
	"testing"

	"cdxtheme/app/winstate"
)

// The floor must be measured at the app's window size: memory grows with
// the surface.
func TestSameWindowSizeAsTheApp(t *testing.T) {
	if width != winstate.DefaultWidth || height != winstate.DefaultHeight {
		t.Fatalf("bare window %dx%d, the app opens at %dx%d", width, height, winstate.DefaultWidth, winstate.DefaultHeight)
	}
}
