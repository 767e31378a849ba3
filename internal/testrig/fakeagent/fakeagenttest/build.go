// Package fakeagenttest builds the fake ACP agent for tests in other packages.
package fakeagenttest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

var (
	once     sync.Once
	binPath  string
	buildErr error
)

// Build compiles internal/testrig/fakeagent once per test process and returns the
// binary's path. The binary is cached under the temp dir by a hash of its
// sources, so repeated test runs reuse it instead of piling up copies.
func Build(tb testing.TB) string {
	tb.Helper()
	once.Do(func() { binPath, buildErr = build() })
	if buildErr != nil {
		tb.Fatalf("build fake agent: %v", buildErr)
	}
	return binPath
}

func build() (string, error) {
	// A fake agent built beforehand for this OS: under Wine the test runs
	// where the Linux go command cannot (scripts/test-windows.sh).
	if bin := os.Getenv("CDXTHEME_FAKEAGENT_BIN"); bin != "" {
		if fi, err := os.Stat(bin); err != nil || !fi.Mode().IsRegular() {
			return "", fmt.Errorf("CDXTHEME_FAKEAGENT_BIN %s: not a program (%v)", bin, err)
		}
		return bin, nil
	}
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate fakeagenttest sources")
	}
	src := filepath.Dir(filepath.Dir(self)) // internal/testrig/fakeagent
	sum, err := hashSources(src)
	if err != nil {
		return "", err
	}
	name := "fakeagent"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("cdxtheme-fakeagent-%d", os.Getuid()), sum[:16])
	bin := filepath.Join(dir, name)
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Build beside the target and rename, so a concurrent test process
	// never runs a half-written binary.
	tmp, err := os.CreateTemp(dir, ".build-*")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	cmd := exec.Command(gobin, "build", "-o", tmp.Name(), ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", err
	}
	return bin, nil
}

// hashSources hashes the fake agent's non-test Go files and the Go version.
func hashSources(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	io.WriteString(h, runtime.Version())
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		io.WriteString(h, filepath.Base(f))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
