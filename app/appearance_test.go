package app

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/assets"
	"cdxtheme/core/settings"

	"github.com/rs/zerolog"
)

func TestAppearanceScriptFollowsSavedSettings(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(t.TempDir(), "config"))
	a := New(zerolog.Nop())
	files := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("asset " + r.URL.Path)) })
	h := a.Assets(files)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}

	if body := get(assets.AppearancePath).Body.String(); !strings.Contains(body, "delete document.documentElement.dataset.appearance") {
		t.Errorf("no choice saved: %q, want the OS's scheme", body)
	}
	for _, scheme := range []string{settings.AppearanceDark, settings.AppearanceLight} {
		if err := a.Settings.SaveSettings(settings.Settings{Appearance: scheme}); err != nil {
			t.Fatal(err)
		}
		rec := get(assets.AppearancePath)
		if body := rec.Body.String(); body != `document.documentElement.dataset.appearance = "`+scheme+`";`+"\n" {
			t.Errorf("%s: script %q", scheme, body)
		}
		if rec.Header().Get("Cache-Control") != "no-store" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
			t.Errorf("%s: headers %v", scheme, rec.Header())
		}
		if rec.Header().Get("Content-Security-Policy") != assets.ContentSecurityPolicy {
			t.Error("the appearance script is served without the CSP")
		}
	}
	if err := a.Settings.SaveSettings(settings.Settings{Appearance: `dark"; alert(1); "`}); err == nil {
		t.Error("a made-up appearance was saved")
	}
	// Everything else is the asset server's, with the same headers.
	rec := get("/index.html")
	if rec.Body.String() != "asset /index.html" || rec.Header().Get("Content-Security-Policy") != assets.ContentSecurityPolicy {
		t.Errorf("assets: %q %v", rec.Body.String(), rec.Header())
	}
}
