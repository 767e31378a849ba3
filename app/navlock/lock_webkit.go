//go:build (linux || darwin) && cgo && (desktop || dev)

package navlock

// The WebKit side of the lock, shared by WebKitGTK (lock_linux.c) and
// WKWebView (lock_darwin.m): each finds the app's webview on the UI
// thread, answers its navigation decisions through navlockDecide and
// reports through navlockAttached.

/*
void navlockStart(void);
*/
import "C"

import (
	"context"

	"github.com/rs/zerolog"
)

// Origin is where Wails serves the app on Linux and macOS, in the
// production and the dev build alike: its own wails:// scheme, answered
// from the embedded assets.
const Origin = "wails://wails"

// Lock hooks the webview's navigation decisions. Wails creates the webview
// but does not expose it, so the UI thread looks for it among the app's
// windows (retrying until the window holds it); everything outside Origin
// is refused from then on. Call it from OnStartup; it returns at once.
func Lock(_ context.Context, log zerolog.Logger) {
	install(log, Origin)
	C.navlockStart()
}

// navlockDecide is the webview hook's answer: 1 to let the webview go on.
//
//export navlockDecide
func navlockDecide(newWindow C.int, uri *C.char, cause *C.char, button C.int, gesture C.int) C.int {
	r := Request{Kind: Navigation, URI: C.GoString(uri), Cause: C.GoString(cause), Button: int(button), UserGesture: gesture != 0}
	if newWindow != 0 {
		r.Kind = NewWindow
	}
	if decide(r) {
		return 1
	}
	return 0
}

// navlockAttached reports the lock in place (or, with ok 0, that it could
// not be put in place, and why: the lock is then NOT active and the log
// says so loudly).
//
//export navlockAttached
func navlockAttached(ok C.int, detail *C.char) {
	active.mu.Lock()
	log := active.log
	active.mu.Unlock()
	if ok == 0 {
		log.Error().Str("why", C.GoString(detail)).Msg("navigation lock: not in place; links and scripts are held by the page alone")
		return
	}
	log.Info().Str("origin", Origin).Str("uri", Clip(C.GoString(detail))).Msg("navigation lock on")
}
