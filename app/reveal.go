package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"
)

// A file the agent wrote is opened with the OS's default handler only when
// that handler would show it, not run it. Programs, scripts, launchers and
// anything that is not a plain file are revealed in their folder instead.

// runnableExt are the extensions some desktop runs (or installs) on open.
var runnableExt = map[string]bool{
	".sh": true, ".bash": true, ".zsh": true, ".fish": true, ".csh": true, ".ksh": true, ".command": true, ".tool": true,
	".py": true, ".pyw": true, ".pyc": true, ".pl": true, ".rb": true, ".php": true, ".lua": true, ".tcl": true,
	".js": true, ".jse": true, ".mjs": true, ".cjs": true, ".vbs": true, ".vbe": true, ".wsf": true, ".wsh": true, ".hta": true,
	".desktop": true, ".appimage": true, ".run": true, ".bin": true, ".out": true, ".elf": true, ".so": true,
	".exe": true, ".com": true, ".scr": true, ".pif": true, ".cpl": true, ".msi": true, ".msp": true, ".msix": true, ".appx": true,
	".bat": true, ".cmd": true, ".ps1": true, ".psm1": true, ".psd1": true, ".lnk": true, ".url": true, ".reg": true, ".inf": true,
	".jar": true, ".jnlp": true, ".deb": true, ".rpm": true, ".apk": true, ".snap": true, ".flatpakref": true, ".flatpak": true,
	".app": true, ".pkg": true, ".dmg": true, ".workflow": true, ".action": true, ".scpt": true, ".applescript": true,
	".xpi": true, ".crx": true, ".vsix": true, ".iso": true, ".img": true,
}

// magic are file starts that mean a program: a shebang, ELF, PE (MZ), Mach-O.
var magic = [][]byte{[]byte("#!"), []byte("\x7fELF"), []byte("MZ"), {0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}}

// runnable says why path must be revealed rather than opened ("" when it
// may be opened). path is already resolved inside the workspace.
func runnable(path string) (string, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	switch {
	case info.IsDir():
		if runnableExt[strings.ToLower(filepath.Ext(path))] {
			return "an application bundle", nil
		}
		return "", nil // a folder opens in the file manager
	case !info.Mode().IsRegular():
		return "not a regular file", nil // FIFO, socket, device: never handed on
	case info.Mode().Perm()&0o111 != 0:
		return "executable", nil
	case runnableExt[strings.ToLower(filepath.Ext(path))]:
		return "a program or launcher by its name", nil
	}
	// O_NONBLOCK: should the file have been swapped for a FIFO since Lstat,
	// the open does not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "not a regular file", nil
	}
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	for _, m := range magic {
		if bytes.HasPrefix(head[:n], m) {
			return "a program by its content", nil
		}
	}
	return "", nil
}

// revealLocal shows path selected in its folder, without opening it.
func (a *core) revealLocal(path string) error {
	if a.revealFile != nil {
		return a.revealFile(path)
	}
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
