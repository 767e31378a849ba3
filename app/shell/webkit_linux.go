//go:build linux && cgo && (production || dev)

package shell

/*
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <webkit2/webkit2.h>

static int tune_webkit(void) {
	// Without a display GTK aborts the process (SIGTRAP) at its first
	// widget; checked here, the user is told why instead.
	if (!gtk_init_check(NULL, NULL)) return 0;
	// Wails makes its webview on the default context; these must be set
	// before that (and before the first web or network process starts).
	WebKitWebContext *ctx = webkit_web_context_get_default();
	// One local page, never navigated away from: no resource or page
	// cache worth keeping.
	webkit_web_context_set_cache_model(ctx, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
	webkit_web_context_set_spell_checking_enabled(ctx, FALSE);
	return 1;
}
*/
import "C"

import (
	"errors"
	"os"
	"runtime"
)

// tuneWebKit opens GTK's display, failing when there is none, and sets up
// WebKit's default web context for a single-page desktop app that keeps
// little in memory. The settings that live on the
// webview itself (page cache, DNS prefetching) need the view; see README.
//
// WebKit binds itself to the thread of its first call, and GTK's loop must
// run there too: the goroutine stays locked to this thread, on which
// wails.Run (called next, on the same goroutine) locks it again and runs
// GTK. Without the lock the runtime may move it, and WebKit aborts.
func tuneWebKit() error {
	runtime.LockOSThread()
	if C.tune_webkit() == 0 {
		return errors.New("no graphical display to open the window on (DISPLAY=" + os.Getenv("DISPLAY") + ", WAYLAND_DISPLAY=" + os.Getenv("WAYLAND_DISPLAY") + "); the command line (cdxtheme help) works without one")
	}
	return nil
}
