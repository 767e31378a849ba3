package main

import (
	"testing"

	"cdxtheme/app"
)

// The floor must be measured at the app's window size: memory grows with
// the surface.
func TestSameWindowSizeAsTheApp(t *testing.T) {
	if width != app.DefaultWidth || height != app.DefaultHeight {
		t.Fatalf("bare window %dx%d, the app opens at %dx%d", width, height, app.DefaultWidth, app.DefaultHeight)
	}
}
