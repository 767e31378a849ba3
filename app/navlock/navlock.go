// Package navlock keeps the app's webview on the app's own pages: the main
// frame (and any frame) may load nothing but the app's origin, and no new
// window may open. It holds even when the page is hostile, because the
// decision is taken by the webview's own policy hook in Go, not by the page.
//
// Wails v2.9.2 offers no navigation hook, so the platform files find the
// webview themselves once the window exists (see Lock).
package navlock

import (
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/rs/zerolog"
)

// Kind is what the webview asks permission for.
type Kind int

const (
	// Navigation: a frame is about to load a URI (link, form, script,
	// redirect, a drop, a reload, history).
	Navigation Kind = iota
	// NewWindow: a target=_blank link, window.open or a middle-click.
	NewWindow
)

func (k Kind) String() string {
	if k == NewWindow {
		return "new-window"
	}
	return "navigation"
}

// Request is one decision the webview asks for.
type Request struct {
	Kind Kind
	URI  string
	// How the navigation came about, as the webview reports it ("link",
	// "form", "back-forward", "reload", "form-resubmit", "other"), the mouse
	// button (0 none, 1 left, 2 middle, 3 right) and whether a user gesture
	// started it: for the log only, never for the decision.
	Cause       string
	Button      int
	UserGesture bool
}

// Allowed reports whether the webview may go ahead. Only a navigation to the
// app's own origin is; a new window never is, whatever its address.
func Allowed(r Request, origin string) bool {
	if r.Kind != Navigation {
		return false
	}
	return SameOrigin(r.URI, origin)
}

// SameOrigin reports whether uri lies on origin (scheme://host[:port]).
// Anything unparsable, with credentials, or on another scheme, host or port
// is not.
func SameOrigin(uri, origin string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.Opaque != "" || u.User != nil {
		return false
	}
	o, err := url.Parse(origin)
	if err != nil {
		return false
	}
	return strings.EqualFold(u.Scheme, o.Scheme) && strings.EqualFold(u.Host, o.Host) && u.Host != ""
}

// Clip shortens a URI for the log: a data: URL can be megabytes.
func Clip(uri string) string {
	const n = 300
	if len(uri) <= n {
		return uri
	}
	return uri[:n] + "…(" + strconv.Itoa(len(uri)) + " bytes)"
}

// guard is the installed lock: the origin the webview may show and where
// refusals are logged.
type guard struct {
	mu     sync.Mutex
	log    zerolog.Logger
	origin string
}

var active guard

func install(log zerolog.Logger, origin string) {
	active.mu.Lock()
	active.log, active.origin = log, origin
	active.mu.Unlock()
}

// decide answers the platform hook, logging every refusal.
func decide(r Request) bool {
	active.mu.Lock()
	log, origin := active.log, active.origin
	active.mu.Unlock()
	if Allowed(r, origin) {
		return true
	}
	log.Warn().Str("kind", r.Kind.String()).Str("uri", Clip(r.URI)).Str("cause", r.Cause).
		Int("button", r.Button).Bool("userGesture", r.UserGesture).Msg("navigation lock: refused")
	return false
}
