package opensafe

import "testing"

func TestCheckLink(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{"https://zed.dev/docs/themes", true},
		{"http://example.com/a?b=c", true},
		{"mailto:team@example.com", true},
		{"javascript:alert(1)", false},
		{"JaVaScRiPt:alert(1)", false},
		{"file:///etc/passwd", false},
		{"vscode://extension/foo", false},
		{"https://user:pw@example.com/", false},
		{"https:///nohost", false},
		{"data:text/html,<script>alert(1)</script>", false},
	}
	for _, c := range cases {
		_, err := CheckLink(c.in)
		if (err == nil) != c.ok {
			t.Errorf("CheckLink(%q) error = %v, want ok=%v", c.in, err, c.ok)
		}
	}
}

func TestMailtoKeepsOnlyRecipientsSubjectAndBody(t *testing.T) {
	cases := map[string]string{
		"mailto:team@example.com":                                          "mailto:team@example.com",
		"mailto:a@x.org?subject=Dusk theme&body=Line 1%0ALine 2+plus":      "mailto:a@x.org?subject=Dusk%20theme&body=Line%201%0ALine%202%2Bplus",
		"mailto:a@x.org?attach=/home/dev/.ssh/id_ed25519&subject=hi":       "mailto:a@x.org?subject=hi",
		"mailto:a@x.org?Attachment=~/.gnupg&BCC=spy@evil.example&from=x":   "mailto:a@x.org",
		"mailto:?to=a@x.org&cc=b@x.org&x-header=1&In-Reply-To=%3Cid%3E":    "mailto:?to=a@x.org&cc=b@x.org",
		"MAILTO:a@x.org?SUBJECT=s&attach=file:///etc/passwd&attach=/etc/x": "mailto:a@x.org?subject=s",
	}
	for in, want := range cases {
		got, err := CheckLink(in)
		if err != nil || got != want {
			t.Errorf("CheckLink(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
