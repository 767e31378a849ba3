package assets

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Every asset the window loads carries nosniff and no-referrer beside the
// CSP: a file the agent wrote cannot be sniffed into a script, and a link
// it opens learns nothing of the app's pages.
func TestAssetsCarryNosniffAndNoReferrer(t *testing.T) {
	h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/theme.json", nil))
	if got := rec.Header(); got.Get("X-Content-Type-Options") != "nosniff" || got.Get("Referrer-Policy") != "no-referrer" || got.Get("Content-Security-Policy") != ContentSecurityPolicy {
		t.Fatalf("headers = %v", got)
	}
}
