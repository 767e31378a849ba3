//go:build !windows

package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// Without HOME (a service, `env -i`) the app's files would land under the
// filesystem root: every command but help says so and writes nothing.
func TestNoHomeIsAClearErrorNotFilesAtTheRoot(t *testing.T) {
	for _, v := range []string{"HOME", "CDXTHEME_CONFIG_DIR", "CDXTHEME_DATA_DIR", "CDXTHEME_CACHE_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, "")
	}
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"sessions"}, &out, &errb); code != ExitError {
		t.Fatalf("exit %d, want %d; stderr %q", code, ExitError, errb.String())
	}
	if !strings.Contains(errb.String(), "HOME is not set") {
		t.Errorf("stderr %q does not say HOME is not set", errb.String())
	}
	if _, err := os.Stat("/.local/share/cdxtheme"); err == nil {
		t.Error("/.local/share/cdxtheme exists")
	}
	out.Reset()
	errb.Reset()
	if code := Run(context.Background(), []string{"help"}, &out, &errb); code != ExitOK {
		t.Errorf("help without HOME: exit %d, %q", code, errb.String())
	}
}
