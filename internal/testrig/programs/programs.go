// Package programs finds the real programs tests load exports into. `make
// test` installs them (APT_PACKAGES) and sets CDXTHEME_REQUIRE_PROGRAMS, so
// there a missing program fails instead of skipping; elsewhere it skips.
package programs

import (
	"os"
	"os/exec"
	"testing"
)

// Find is the path of program name, from Debian package debian.
func Find(t testing.TB, name, debian string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CDXTHEME_REQUIRE_PROGRAMS") != "" {
			t.Fatalf("%s is not installed (Debian package %s) and CDXTHEME_REQUIRE_PROGRAMS is set", name, debian)
		}
		t.Skipf("%s is not installed (Debian package %s; `make test` installs it)", name, debian)
	}
	return p
}
