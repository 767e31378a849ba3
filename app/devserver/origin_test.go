package devserver

import (
	"errors"
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name, host, origin string
		upgrade, ok        bool
	}{
		{"the app's own page", "127.0.0.1:34115", "http://127.0.0.1:34115", true, true},
		{"own page as localhost", "localhost:34115", "http://localhost:34115", true, true},
		{"IPv6 loopback", "[::1]:34115", "http://[::1]:34115", true, true},
		{"a plain asset fetch (no Origin)", "127.0.0.1:34115", "", false, true},
		{"another site's page", "127.0.0.1:34115", "https://evil.example", true, false},
		{"another port on loopback", "127.0.0.1:34115", "http://127.0.0.1:8080", true, false},
		{"a file: page", "127.0.0.1:34115", "null", true, false},
		{"an upgrade that hides its origin", "127.0.0.1:34115", "", true, false},
		{"DNS rebinding (own origin, foreign host)", "evil.example:34115", "http://evil.example:34115", true, false},
		{"DNS rebinding, plain GET", "evil.example:34115", "", false, false},
		{"a foreign POST", "127.0.0.1:34115", "https://evil.example", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "http://"+c.host+"/wails/ipc", nil)
			r.Host = c.host
			if c.origin != "" {
				r.Header.Set("Origin", c.origin)
			}
			if c.upgrade {
				r.Header.Set("Connection", "Upgrade")
				r.Header.Set("Upgrade", "websocket")
			}
			err := Check(r)
			if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrForeign)) {
				t.Fatalf("Check = %v, want ok=%v", err, c.ok)
			}
		})
	}
}
