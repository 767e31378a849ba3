package peers

import (
	"errors"
	"os"
	"testing"
)

// Require returns the named adapters (both when none is named). A missing
// adapter skips the test with the reason, unless CDXTHEME_REQUIRE_PEERS=1,
// where it fails: `make test` must not turn green by skipping the real peers.
func Require(tb testing.TB, names ...string) []Adapter {
	tb.Helper()
	if len(names) == 0 {
		names = []string{TS, Rust}
	}
	dir, err := Dir()
	var out []Adapter
	var errs []error
	if err == nil {
		for _, n := range names {
			a, err := Find(dir, n)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, a)
		}
	} else {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		if os.Getenv(EnvRequire) == "1" {
			tb.Fatalf("real ACP peers required (%s=1) but missing: %v", EnvRequire, err)
			return nil
		}
		tb.Skipf("real ACP peers missing, skipping (run `make peers`; set %s=1 to fail instead): %v", EnvRequire, err)
		return nil
	}
	return out
}

// TestHome is NewHome for a test: removed when the test ends.
func TestHome(tb testing.TB, opts HomeOptions) *Home {
	tb.Helper()
	h, err := NewHome(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := h.Close(); err != nil {
			tb.Error(err)
		}
	})
	return h
}
