package shell

import (
	"errors"
	"strings"
	"testing"
)

// A window that cannot open says why; on Windows a missing WebView2 says
// where to get it (the dialog is the only thing a double-clicking user sees).
func TestStartupMessage(t *testing.T) {
	wv := errors.New("WebView2 runtime not found")
	if m := startupMessage("windows", wv); !strings.Contains(m, "WebView2 runtime not found") || !strings.Contains(m, webView2URL) || !strings.Contains(m, "cdxtheme help") {
		t.Errorf("windows, WebView2 missing: %q", m)
	}
	if m := startupMessage("windows", errors.New("no home directory")); strings.Contains(m, webView2URL) {
		t.Errorf("an unrelated failure sends the user to WebView2: %q", m)
	}
	if m := startupMessage("linux", wv); strings.Contains(m, webView2URL) {
		t.Errorf("linux told to install WebView2: %q", m)
	}
}
