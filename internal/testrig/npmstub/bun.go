package npmstub

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"cdxtheme/internal/testrig/peers"
)

// Bun returns the pinned Bun that `make sidecar` puts at build/bin/bun (or
// $CDXTHEME_BUN). Without it the test is skipped, or fails when
// CDXTHEME_REQUIRE_PEERS=1 (make test), like a missing real adapter.
func Bun(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv("CDXTHEME_BUN")
	if p == "" {
		root, err := peers.RepoRoot()
		if err != nil {
			tb.Fatal(err)
		}
		name := "bun"
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		p = filepath.Join(root, "build", "bin", name)
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p
	}
	if os.Getenv(peers.EnvRequire) == "1" {
		tb.Fatalf("the pinned Bun is required (%s=1) but %s is missing: run `make sidecar`", peers.EnvRequire, p)
	}
	tb.Skipf("the pinned Bun %s is missing, skipping (run `make sidecar`; set %s=1 to fail instead)", p, peers.EnvRequire)
	return ""
}
