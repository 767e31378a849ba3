package app

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

// Assets is the asset server middleware: security headers on everything,
// and the appearance script answered from the current settings.
func (a *App) Assets(next http.Handler) http.Handler { return a.assets(next) }

func (a *App) assets(next http.Handler) http.Handler {
	return SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != AppearancePath {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		w.Write([]byte(appearanceScript(a.Settings.current().Scheme())))
	}))
}
