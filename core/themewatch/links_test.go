//go:build unix

package themewatch

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cdxtheme/core/theme"
)

func TestLoadRefusesHostileThemeFiles(t *testing.T) {
	for name, plant := range map[string]func(string) error{
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"FIFO":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"too large": func(p string) error { return os.WriteFile(p, make([]byte, theme.MaxFileSize+1), 0o644) },
		"link to a real theme": func(p string) error {
			real := filepath.Join(filepath.Dir(p), "elsewhere.json")
			os.WriteFile(real, theme.ExampleJSON(), 0o644)
			return os.Symlink(real, p)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := plant(filepath.Join(dir, theme.FileName)); err != nil {
				t.Fatal(err)
			}
			st := Load(dir) // returns: a FIFO or /dev/zero would hang or grow here
			if st.Theme != nil || st.Error == "" || !strings.Contains(st.Error, filepath.Join(dir, theme.FileName)) {
				t.Errorf("state %+v; want no theme and an error naming the file", st)
			}
		})
	}
}
