package navlock

import (
	"strings"
	"testing"
)

func TestAllowed(t *testing.T) {
	for _, origin := range []string{"wails://wails", "http://wails.localhost"} {
		own := origin + "/"
		cases := []struct {
			r  Request
			ok bool
		}{
			{Request{Kind: Navigation, URI: own}, true},
			{Request{Kind: Navigation, URI: own + "index.html#/chat"}, true},
			{Request{Kind: Navigation, URI: strings.ToUpper(origin[:5]) + origin[5:] + "/x"}, true},
			{Request{Kind: NewWindow, URI: own}, false}, // never a new window, not even of the app
			{Request{Kind: Navigation, URI: "http://127.0.0.1:8765/x.html"}, false},
			{Request{Kind: Navigation, URI: "https://wails.localhost/"}, origin == "https://wails.localhost"},
			{Request{Kind: Navigation, URI: origin + ".evil.example/"}, false},
			{Request{Kind: Navigation, URI: origin + ":8080/"}, false},
			{Request{Kind: Navigation, URI: strings.Replace(origin, "://", "://user@", 1) + "/"}, false},
			{Request{Kind: Navigation, URI: "file:///etc/passwd"}, false},
			{Request{Kind: Navigation, URI: "data:text/html,<script>x</script>"}, false},
			{Request{Kind: Navigation, URI: "javascript:alert(1)"}, false},
			{Request{Kind: Navigation, URI: "about:blank"}, false},
			{Request{Kind: Navigation, URI: "blob:" + own + "1234"}, false},
			{Request{Kind: Navigation, URI: ""}, false},
			{Request{Kind: Navigation, URI: "%zz"}, false},
		}
		for _, c := range cases {
			if got := Allowed(c.r, origin); got != c.ok {
				t.Errorf("origin %s: Allowed(%s %q) = %v, want %v", origin, c.r.Kind, c.r.URI, got, c.ok)
			}
		}
	}
}

func TestClip(t *testing.T) {
	long := "data:text/html," + strings.Repeat("x", 5000)
	if got := Clip(long); len(got) > 340 || !strings.HasSuffix(got, "(5015 bytes)") {
		t.Errorf("Clip = %q", got)
	}
	if Clip("wails://wails/") != "wails://wails/" {
		t.Error("a short URI must stay whole")
	}
}
