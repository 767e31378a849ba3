//go:build unix

package targets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/fswrite"

	"cdxtheme/core/theme"
)

// bystander is a file outside every folder written into; it must come
// through unchanged.
func bystander(t *testing.T) (string, func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(p, []byte("alias ll='ls -l'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, func() {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "alias ll='ls -l'\n" {
			t.Errorf("%s, which a planted link points at, was written: %q %v", p, b, err)
		}
	}
}

func TestExportRefusesPlantedLinks(t *testing.T) {
	th := theme.Example()
	target, unchanged := bystander(t)
	defer unchanged()

	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "export", "kitty"), 0o755)
	link := filepath.Join(ws, "export", "kitty", "harbour-night.conf")
	os.Symlink(target, link)
	_, err := Export(th, "kitty", ws, "export/kitty")
	if !errors.Is(err, fswrite.ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Errorf("a linked kitty file: %v; want a refusal naming %s", err, link)
	}

	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(ws, "export", "css"))
	_, err = Export(th, "css", ws, "export/css")
	if !errors.Is(err, fswrite.ErrSymlink) || !strings.Contains(err.Error(), filepath.Join(ws, "export", "css")) {
		t.Errorf("a linked export/css: %v", err)
	}
	os.Symlink(outside, filepath.Join(ws, "export", "vscode"))
	if _, err := Export(th, "vscode", ws, "export/vscode"); !errors.Is(err, fswrite.ErrSymlink) {
		t.Errorf("a linked export/vscode: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the workspace: %v", entries)
	}
	// Other formats still export.
	if paths, err := Export(th, "zed", ws, "export/zed"); err != nil || len(paths) != 1 {
		t.Errorf("zed beside the links: %v, %v", paths, err)
	}
}
