package app

import (
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/winstate"
	"cdxtheme/internal/testrig/syncbuf"

	"github.com/rs/zerolog"
)

// A window state that cannot be saved is logged; the window closes all
// the same (BeforeClose's save, through rememberWindow).
func TestUnsavableWindowStateIsLogged(t *testing.T) {
	var log syncbuf.Buffer
	dir := t.TempDir()
	a := &App{env: &env{log: zerolog.New(&log)}, windowPath: dir} // a folder: no file can go there
	a.rememberWindow(winstate.State{Width: 1000, Height: 700})
	if !strings.Contains(log.String(), "remember window") {
		t.Fatalf("log: %s", log.String())
	}
	a.windowPath = filepath.Join(dir, "window.json")
	a.rememberWindow(winstate.State{Width: 1000, Height: 700, X: 3, Y: 4})
	if got := winstate.Load(a.windowPath); got != (winstate.State{Width: 1000, Height: 700, X: 3, Y: 4}) {
		t.Fatalf("remembered %+v", got)
	}
}
