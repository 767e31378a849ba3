// Package devserver guards the dev build's HTTP server (Wails' dev server,
// which Playwright drives): it answers only requests addressed to a loopback
// host, and no page of another origin may open its IPC WebSocket, through
// which every bound method can be called. Wails v2.9.2 checks neither.
package devserver

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// ErrForeign is returned for a request another site's page could have sent.
var ErrForeign = errors.New("refused by the dev server's origin check")

// Check refuses a request whose Host is not a loopback address (a DNS
// rebinding page names its own host), whose Origin is present but not the
// server's own, or which upgrades to a WebSocket without saying its Origin.
func Check(r *http.Request) error {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	if !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("host %q is not loopback: %w", r.Host, ErrForeign)
	}
	origin := r.Header.Get("Origin")
	upgrade := strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
	switch {
	case origin == "" && upgrade:
		return fmt.Errorf("websocket upgrade without an Origin: %w", ErrForeign)
	case origin != "" && !strings.EqualFold(origin, "http://"+r.Host):
		return fmt.Errorf("origin %q is not %q: %w", origin, "http://"+r.Host, ErrForeign)
	}
	return nil
}
