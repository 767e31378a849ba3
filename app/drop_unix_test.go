//go:build unix

package app

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What Wails' own handler would crash on, and what is no theme file, gets
// a clear answer and no hang.
func TestDropEventsThatAreNotFiles(t *testing.T) {
	a, drops := dropApp(t)
	a.Themes.fileDropEvent()
	a.Themes.fileDropEvent(1, 2)
	a.Themes.fileDropEvent("x", nil, 3)
	a.Themes.fileDropEvent(1, 2, []string{"", "relative/path.json"})
	if len(*drops) != 0 {
		t.Fatalf("malformed drops made events: %+v", *drops)
	}
	fifo := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	a.Themes.fileDropEvent(1, 2, []string{fifo})
	if _, err := a.Themes.ImportDropped((*drops)[0].Token); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a dropped FIFO: %v", err)
	}
}
