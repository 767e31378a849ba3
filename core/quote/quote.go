// Package quote writes text as a string literal of a config file's own
// syntax, one that the syntax's real parser reads back as the same text:
// theme names and paths in the files Export writes (core/targets,
// core/packaging) and in the lines Apply adds to a user's settings
// (core/apply). Quoting never changes the text; a caller that wants a
// name on one line makes it so first. Invisible characters (bidi
// overrides such as U+202E, zero-width ones, the line and paragraph
// separators, C1 controls) are written as escapes where the syntax has
// them, so a file read by a person shows what it holds.
package quote

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// invisible reports a character outside ASCII that a reader would not
// see, or would see as something else.
func invisible(r rune) bool {
	return r >= 0x80 && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 ||
		!unicode.IsPrint(r) && !unicode.IsSpace(r))
}

// JSON is a JSON string: Go's encoding (control characters, quotes and
// backslashes escaped, <, > and & as \u escapes, invalid UTF-8 as U+FFFD),
// with DEL and the invisible characters as \u escapes too (a surrogate
// pair beyond the BMP).
func JSON(s string) string {
	return escapeInvisible(marshal(s), func(b *strings.Builder, r rune) {
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			return
		}
		fmt.Fprintf(b, `\u%04x`, r)
	})
}

// TOML is a TOML basic string: JSON's escapes are TOML's, except that DEL
// (which JSON leaves as it is and TOML forbids unescaped) is \u007f, and
// an invisible character beyond the BMP is \U0001xxxx (TOML has no
// surrogate pairs). The same literal is a YAML double-quoted scalar.
func TOML(s string) string {
	return escapeInvisible(marshal(s), func(b *strings.Builder, r rune) {
		if r > 0xffff {
			fmt.Fprintf(b, `\U%08x`, r)
			return
		}
		fmt.Fprintf(b, `\u%04x`, r)
	})
}

// marshal is Go's JSON string of s with DEL escaped: JSON allows it as it
// is, TOML and YAML do not, and no reader sees it.
func marshal(s string) string {
	b, _ := json.Marshal(s)
	return strings.ReplaceAll(string(b), "\x7f", `\u007f`)
}

// escapeInvisible writes each invisible character of lit (a literal that
// is valid UTF-8) with esc.
func escapeInvisible(lit string, esc func(*strings.Builder, rune)) string {
	if strings.IndexFunc(lit, invisible) < 0 {
		return lit
	}
	var b strings.Builder
	for _, r := range lit {
		if invisible(r) {
			esc(&b, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Lua is a Lua string literal on one line, for every Lua from 5.1
// (LuaJIT, Neovim) to 5.4. Go's %q is not one: its \u202e and \U escapes
// are errors in Lua 5.1 and 5.2. Quotes and backslashes are escaped;
// control bytes, bytes of invalid UTF-8 and invisible characters become
// \ddd, three decimal digits so a digit after one cannot join it (Lua
// strings are bytes: each reads back as the byte it was); every other
// character is its UTF-8 bytes as they are.
func Lua(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	dec := func(bs string) {
		for i := 0; i < len(bs); i++ {
			fmt.Fprintf(&b, "\\%03d", bs[i])
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f, invisible(r):
			dec(s[i : i+n])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

// Sh is a word for a POSIX shell (and tmux, which reads its config the
// same way): as it is when it holds only letters, digits and / . - _,
// else in single quotes, a ' inside as '\”. No shell word can hold NUL,
// which is dropped (no path or name has one).
func Sh(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
