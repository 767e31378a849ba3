//go:build linux && cgo && (desktop || dev)

package navlock

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
void navlockStart(void);
*/
import "C"

import (
	"context"

	"github.com/rs/zerolog"
)

// Origin is where Wails serves the app on Linux, in the production and the
// dev build alike: its own wails:// scheme, answered from the embedded assets.
const Origin = "wails://wails"

// Lock connects WebKitGTK's decide-policy signal on the app's webview. Wails
// creates the webview but does not expose it, so the GTK main loop looks
// for it among the toplevel windows' children (retrying until the window is
// packed); everything outside Origin is refused from then on. Call it from
// OnStartup; it returns at once.
func Lock(_ context.Context, log zerolog.Logger) {
	install(log, Origin)
	C.navlockStart()
}

// navlockDecide is the decide-policy hook's answer: 1 to let WebKit go on.
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

// navlockAttached reports the lock in place (or, with ok 0, that no webview
// was found: the lock is then NOT active and the log says so loudly).
//
//export navlockAttached
func navlockAttached(ok C.int, uri *C.char) {
	active.mu.Lock()
	log := active.log
	active.mu.Unlock()
	if ok == 0 {
		log.Error().Msg("navigation lock: the app's webview was not found; links and scripts are held by the page alone")
		return
	}
	log.Info().Str("origin", Origin).Str("uri", Clip(C.GoString(uri))).Msg("navigation lock on")
}
