package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cdxtheme/app/handoff"
	"cdxtheme/app/opensafe"
	"cdxtheme/app/selftest"
	"cdxtheme/core/fswrite"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// OpenLink opens a web or mail link from agent output in the user's browser,
// after CheckLink.
func (desk *Desktop) OpenLink(raw string) error { return desk.openLink(raw) }

// openLink is OpenLink, for the other services too.
func (desk *Desktop) openLink(raw string) error {
	u, err := opensafe.CheckLink(raw)
	if err != nil {
		return err
	}
	desk.openURL(u)
	return nil
}

// ChooseFolder asks for a folder with the native picker ("" when
// cancelled), e.g. when a resumed chat's folder is gone.
func (desk *Desktop) ChooseFolder(title string) (string, error) {
	if p := os.Getenv(EnvPickFolder); p != "" {
		return p, nil
	}
	if desk.ctx == nil {
		return "", errors.New("no window to choose a folder in")
	}
	home, _ := os.UserHomeDir()
	return runtime.OpenDirectoryDialog(desk.ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: home, CanCreateDirectories: true})
}

// openLocal hands a checked local path to the OS's opener.
func (desk *Desktop) openLocal(path string) error {
	if desk.openFile != nil {
		return desk.openFile(path)
	}
	return handoff.Open(path)
}

// revealLocal shows path selected in its folder, without opening it.
func (desk *Desktop) revealLocal(path string) error {
	if desk.revealFile != nil {
		return desk.revealFile(path)
	}
	return handoff.Reveal(path)
}

// saveDialog asks where to save and has write fill the file there (in a
// temporary file renamed into place, so a failure leaves nothing half
// written; a symlink at the chosen name is refused, not followed). Tests
// (and the headless self-test) set saveTo to skip the native dialog.
func (desk *Desktop) saveDialog(name string, write func(io.Writer) error) (string, error) {
	path := desk.saveTo
	if path == "" {
		if desk.ctx == nil {
			return "", fmt.Errorf("no window to ask where to save")
		}
		var err error
		path, err = runtime.SaveFileDialog(desk.ctx, runtime.SaveDialogOptions{
			DefaultFilename: name,
			Filters:         []runtime.FileFilter{{DisplayName: "Markdown", Pattern: "*.md"}},
		})
		if err != nil || path == "" {
			return "", err
		}
	}
	dir, err := fswrite.Open(filepath.Dir(path), "")
	if err != nil {
		return "", err
	}
	defer dir.Close()
	if _, err := dir.WriteFrom(filepath.Base(path), 0o644, write); err != nil {
		return "", err
	}
	return path, nil
}

// AnswerSaveDialog makes a's save dialogs answer path without asking (the
// fault matrix and other headless checks). A function, not a method:
// methods are bound into the webview, and the page must never choose
// where files are written.
func AnswerSaveDialog(a *App, path string) { a.Desktop.saveTo = path }

// recordIn has what would reach the OS recorded in the self-test's report
// instead of handed on.
func (d *Desktop) recordIn(t *selftest.Test) {
	d.openURL = func(u string) { t.Record("opened", u) }
	d.openFile = func(p string) error { t.Record("openedFiles", p); return nil }
	d.revealFile = func(p string) error { t.Record("revealedFiles", p); return nil }
}
