package app

import (
	"errors"
	"os"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// OpenLink opens a web or mail link from agent output in the user's browser,
// after CheckLink.
func (a *Desktop) OpenLink(raw string) error { return a.openLink(raw) }

// openLink is OpenLink, for the other services too.
func (a *core) openLink(raw string) error {
	u, err := CheckLink(raw)
	if err != nil {
		return err
	}
	a.openURL(u)
	return nil
}

// ChooseFolder asks for a folder with the native picker ("" when
// cancelled), e.g. when a resumed chat's folder is gone.
func (a *Desktop) ChooseFolder(title string) (string, error) {
	if p := os.Getenv(EnvPickFolder); p != "" {
		return p, nil
	}
	if a.ctx == nil {
		return "", errors.New("no window to choose a folder in")
	}
	home, _ := os.UserHomeDir()
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: home, CanCreateDirectories: true})
}
