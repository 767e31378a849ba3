//go:build !((linux || darwin) && cgo && (desktop || dev)) && !(windows && (desktop || dev))

package navlock

import (
	"context"
	"runtime"

	"github.com/rs/zerolog"
)

// Lock has no webview hook on this platform or build: the page's own
// guards (the sanitizer and the document listener) hold alone, and the log
// says so once.
func Lock(_ context.Context, log zerolog.Logger) {
	log.Warn().Str("os", runtime.GOOS).Msg("navigation lock: no webview hook on this platform; links are held by the page alone")
}
