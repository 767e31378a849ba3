// Command barewails is the floor of the window's memory benchmark: a Wails
// v2 window as bare as Wails makes it, on a page of one paragraph, built
// with the app's tags and window size. scripts/bench-window.sh measures it
// beside the app in the same run, the same way.
//
// Like the app it reports its first painted frame: with
// CDXTHEME_SELFTEST_OUT set, the page calls Painted on its second
// animation frame and the time since start is written there as JSON
// ({"paint": "bare", "paintMs": N}), which is what the script waits for.
package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed index.html
var assets embed.FS

// processStart approximates the process start, as the app's does.
var processStart = time.Now()

// The app's default window size (winstate.DefaultWidth/Height; a test keeps
// them equal without linking the app in here).
const (
	width  = 1360
	height = 860
)

// Bare is bound so the page can report its first frame.
type Bare struct{}

// Painted writes the first-paint report.
func (*Bare) Painted() error {
	out := os.Getenv("CDXTHEME_SELFTEST_OUT")
	if out == "" {
		return nil
	}
	b, err := json.Marshal(map[string]any{"paint": "bare", "paintMs": time.Since(processStart).Milliseconds()})
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

func main() {
	err := wails.Run(&options.App{
		Title:       "bare Wails window",
		Width:       width,
		Height:      height,
		AssetServer: &assetserver.Options{Assets: assets},
		Bind:        []any{&Bare{}},
		Linux: &linux.Options{
			// As the app: a software-rendered window (GPU off).
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "barewails:", err)
		os.Exit(1)
	}
}
