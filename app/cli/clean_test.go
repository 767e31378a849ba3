package cli

import (
	"bytes"
	"strings"
	"testing"
)

// Hostile strings an agent can put in its answer, a tool title or a
// session title, and what a terminal must be shown instead.
var cleanCases = []struct{ name, in, want string }{
	{"plain text, newlines and tabs stay", "Hello\tworld\nnext line ✓ ünïcödé", "Hello\tworld\nnext line ✓ ünïcödé"},
	{"OSC 52 clipboard write ended by BEL", "a\x1b]52;c;cm0gLXJmIH4K\x07b", "ab"},
	{"OSC 52 ended by ST", "a\x1b]52;c;cm0gLXJmIH4K\x1b\\b", "ab"},
	{"OSC 8 hyperlink keeps its visible text", "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click"},
	{"window title", "\x1b]0;pwned\x07ok", "ok"},
	{"CSI colour and cursor moves", "\x1b[31mred\x1b[0m \x1b[2J\x1b[1;1Hhome\x1b[?25l", "red home"},
	{"CSI that rewrites the line", "rm -rf /\r\x1b[2Kls", "rm -rf /ls"},
	{"carriage return, backspace, bell, NUL", "safe\rX\bY\aZ\x00!", "safeXYZ!"},
	{"DEL", "a\x7fb", "ab"},
	{"8-bit CSI as a bare byte", "a\x9b31mb", "ab"},
	{"C1 CSI as UTF-8 (U+009B)", "a\u009b31mb", "ab"},
	{"C1 OSC as UTF-8 (U+009D) ended by C1 ST", "a\u009d52;c;eA==\u009cb", "ab"},
	{"other bare C1 bytes", "a\x85\x8d\x8eb", "ab"},
	{"DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
	{"two-character escapes", "a\x1bcb\x1b(Bc\x1b7d", "abcd"},
	{"an unterminated string ends at the line", "a\x1b]52;c;AAAA\nvisible", "a\nvisible"},
	{"ESC before a newline", "a\x1b\nb", "a\nb"},
	{"Latin-1 bytes that are not controls stay", "caf\xe9", "caf\xe9"},
	// Past maxCSI bytes the sequence is dropped (with the byte that broke
	// the bound) and the rest is text.
	{"an endless CSI gives up", "\x1b[" + strings.Repeat("1;", 40) + "m", strings.Repeat("1;", 40)[maxCSI+1:] + "m"},
}

func TestCleanerStripsControlSequences(t *testing.T) {
	for _, tc := range cleanCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := cleanString(tc.in); got != tc.want {
				t.Errorf("cleanString(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// A streamed answer may split a sequence anywhere: fed byte by byte, the
// cleaner must give the same result as for the whole string.
func TestCleanerAcrossWrites(t *testing.T) {
	for _, tc := range cleanCases {
		var out bytes.Buffer
		c := newCleaner(&out)
		for i := 0; i < len(tc.in); i++ {
			if n, err := c.Write([]byte{tc.in[i]}); n != 1 || err != nil {
				t.Fatalf("%s: Write = %d, %v", tc.name, n, err)
			}
		}
		c.Flush()
		if out.String() != tc.want {
			t.Errorf("%s byte by byte: %q, want %q", tc.name, out.String(), tc.want)
		}
	}
}

func TestCleanCellIsOneLine(t *testing.T) {
	if got := cleanCell("Dusk\ttheme\n\x1b[31mred\x1b[0m  now"); got != "Dusk theme red now" {
		t.Errorf("cleanCell = %q", got)
	}
}
