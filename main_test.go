package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildCLI builds this program the way the CLI contract promises: plain
// `go build`, no cgo, no tags.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cdxtheme")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestTheCLIOnlyBuildNeverReachesForAWindow(t *testing.T) {
	bin := buildCLI(t)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a mistyped command", []string{"sesions"}, []string{`unknown command "sesions"`, "did you mean sessions?", "usage: cdxtheme"}},
		{"a swapped letter", []string{"transcirpt", "x"}, []string{`unknown command "transcirpt"`, "did you mean transcript?"}},
		{"no arguments", nil, []string{"this is the CLI-only build", "cdxtheme help"}},
		{"an unknown flag", []string{"--jsn"}, []string{`unknown flag "--jsn"`, "CLI-only build"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(os.Environ(), "CDXTHEME_CONFIG_DIR="+t.TempDir(), "DISPLAY=", "WAYLAND_DISPLAY=")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2\nstderr: %s", err, errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb.String())
				}
			}
			if strings.Contains(errb.String(), "build tags") && !strings.Contains(errb.String(), "desktop build tags") {
				t.Errorf("Wails' own complaint reached the user:\n%s", errb.String())
			}
		})
	}
}
