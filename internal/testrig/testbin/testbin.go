// Package testbin builds the cdxtheme command for tests in any package and
// for the benchmark: the headless binary the CLI contract promises (plain
// `go build`, no cgo, no tags), once per test process. It is the one place
// that builds the CLI (it replaced four copies of the helper and five raw
// `go build` calls).
package testbin

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once   sync.Once
	bin    string
	errBin error
)

// CLI returns the path of a freshly built cdxtheme binary (built once per
// test process into a temp folder of its own).
func CLI(tb testing.TB) string {
	tb.Helper()
	once.Do(func() { bin, errBin = build() })
	if errBin != nil {
		tb.Fatalf("build cdxtheme: %v", errBin)
	}
	return bin
}

// Root is the module's root folder (where go.mod is), from this file's own
// place, so a test finds it from any package's folder.
func Root() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..")
}

func build() (string, error) {
	dir, err := os.MkdirTemp("", "cdxtheme-bin-")
	if err != nil {
		return "", err
	}
	return Build(dir)
}

// Build builds the CLI into dir and returns its path (for programs that
// are no test, e.g. the benchmark; tests use CLI).
func Build(dir string) (string, error) {
	name := "cdxtheme"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = Root()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New(err.Error() + "\n" + string(msg))
	}
	return out, nil
}

// Remove deletes the built binary's folder; call it from TestMain after
// m.Run so a test process leaves no copy behind.
func Remove() {
	if bin != "" {
		os.RemoveAll(filepath.Dir(bin))
	}
}
