// Package handoff hands a local path to the OS: its default opener
// (Open) or its file manager, the file shown selected (Reveal). The
// checks of what may be handed on are app/opensafe's, made before.
package handoff

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/godbus/dbus/v5"
)

// Reveal shows path selected in its folder, without opening it.
func Reveal(path string) error {
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "darwin":
		cmd = exec.Command("open", "-R", path)
	case "windows":
		cmd = exec.Command("explorer", "/select,"+path)
	default:
		if showItems(path) == nil {
			return nil
		}
		cmd = exec.Command("xdg-open", filepath.Dir(path)) // no file manager on the bus: the folder
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("show %s in its folder: %w", path, err)
	}
	go cmd.Wait()
	return nil
}

// Open hands path to the OS's opener.
func Open(path string) error {
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "darwin":
		cmd = exec.Command("open", path)
	case "windows":
		cmd = exec.Command("explorer", path)
	default:
		cmd = exec.Command("xdg-open", path)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	go cmd.Wait()
	return nil
}

// showItems asks the desktop's file manager (org.freedesktop.FileManager1)
// to show path selected.
func showItems(path string) error {
	conn, err := dbus.SessionBus()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	return conn.Object("org.freedesktop.FileManager1", "/org/freedesktop/FileManager1").
		CallWithContext(ctx, "org.freedesktop.FileManager1.ShowItems", 0, []string{uri}, "").Err
}
