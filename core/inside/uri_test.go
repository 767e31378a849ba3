package inside

import "testing"

// A file link the app writes must come back as the same path when the app
// (or the agent) hands it back, on Windows as on Unix: file://C:/x would
// parse with "C:" as the host and be refused, so attaching a workspace
// file on Windows failed. The helpers take slash paths, so the Windows
// rows run on every OS.
func TestFileURIRoundTrip(t *testing.T) {
	for _, c := range []struct{ path, uri string }{
		{"/home/u/ws/theme.json", "file:///home/u/ws/theme.json"},
		{"/home/u/ws/a b#c%.json", "file:///home/u/ws/a%20b%23c%25.json"},
		{"C:/Users/u/ws/theme.json", "file:///C:/Users/u/ws/theme.json"},
		{"c:/Users/u/My Themes/x.json", "file:///c:/Users/u/My%20Themes/x.json"},
	} {
		if got := slashURI(c.path); got != c.uri {
			t.Errorf("slashURI(%q) = %q, want %q", c.path, got, c.uri)
		}
		back, err := uriSlash(c.uri)
		if err != nil || back != c.path {
			t.Errorf("uriSlash(%q) = %q, %v; want %q", c.uri, back, err, c.path)
		}
	}
}

// What other tools write is read too (localhost, upper-case scheme,
// escaped drive colon); a remote host or an opaque file:C:/x is refused
// rather than guessed at.
func TestURISlash(t *testing.T) {
	ok := map[string]string{
		"file://localhost/C:/ws/x.json": "C:/ws/x.json",
		"FILE:///C:/ws/x.json":          "C:/ws/x.json",
		"file:///C%3A/ws/x.json":        "C:/ws/x.json",
		"file:///ws/%2e%2e/x":           "/ws/../x",
		`C:\ws\x.json`:                  `C:\ws\x.json`,
	}
	for in, want := range ok {
		if got, err := uriSlash(in); err != nil || got != want {
			t.Errorf("uriSlash(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"file://C:/ws/x.json", "file://server/share/x.json", "file:C:/ws/x.json"} {
		if got, err := uriSlash(in); err == nil {
			t.Errorf("uriSlash(%q) = %q, want refused", in, got)
		}
	}
}
