// Package assets is what the window's asset server adds to the built UI:
// the security headers on every response (the CSP above all) and the
// appearance script answered from the current settings.
package assets

import (
	"net/http"
	"strconv"
)

// AppearancePath is the classic script index.html loads in its head, before
// the first paint: it carries the saved Light/Dark choice, so a dark app
// never flashes light while the settings binding is still on its way (and
// the webview's own storage, which WebKitGTK does not keep, is not needed).
const AppearancePath = "/appearance.js"

// appearanceScript is the script for a scheme ("light", "dark" or "" for
// the OS's). The scheme is one of three constants, never free text.
func appearanceScript(scheme string) string {
	if scheme == "" {
		return "delete document.documentElement.dataset.appearance;\n"
	}
	return "document.documentElement.dataset.appearance = " + strconv.Quote(scheme) + ";\n"
}

// ContentSecurityPolicy allows no inline script and nothing from the network:
// agent output rendered as HTML can neither run code nor phone home.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; frame-src 'none'"

// SecurityHeaders adds the CSP and related headers to every asset response.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// Middleware puts the security headers on everything and answers the
// appearance script with scheme's answer at each request ("light",
// "dark" or "" for the OS's).
func Middleware(next http.Handler, scheme func() string) http.Handler {
	return SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != AppearancePath {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		w.Write([]byte(appearanceScript(scheme())))
	}))
}
