package acp

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner walks one JSON text in place, for the one-pass line decoder.
// It is deliberately partial: every method returns false on anything it
// is not sure of (and on everything invalid), and the caller then falls
// back to encoding/json, which keeps the last word on what a line means.
// So the scanner only ever has to be right about what it accepts.
type scanner struct {
	b []byte
	i int
}

// scanMaxDepth bounds nesting for the recursive skip; deeper values go to
// encoding/json (which allows 10000 levels).
const scanMaxDepth = 512

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// at reports the next non-space byte (0 at the end) without consuming it.
func (s *scanner) at() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// eat consumes c after optional whitespace.
func (s *scanner) eat(c byte) bool {
	if s.at() == c && s.i < len(s.b) {
		s.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// str reads a string literal at the cursor: its body between the quotes
// and whether it holds escapes. Control characters and malformed escapes
// are rejected, as JSON requires; other bytes (even invalid UTF-8, which
// encoding/json accepts and replaces) pass.
func (s *scanner) str() (body []byte, esc bool, ok bool) {
	if s.at() != '"' {
		return nil, false, false
	}
	start := s.i + 1
	b := s.b
	for i := start; i < len(b); {
		// The plain run first: this is where a streamed text spends its time.
		for i < len(b) && plain[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return b[start:i], esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || hex4(b[i+2:i+6]) < 0 {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		default: // a control character
			return nil, false, false
		}
	}
	return nil, false, false
}

// plain marks the bytes that stand for themselves inside a string.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// key reads an object member's name and the colon after it. A name with
// escapes is refused: it could spell a known field in disguise.
func (s *scanner) key() ([]byte, bool) {
	k, esc, ok := s.str()
	if !ok || esc || !s.eat(':') {
		return nil, false
	}
	return k, true
}

// more is called after a member or element: true if a comma follows,
// false (with ok) if the closing bracket does.
func (s *scanner) more(closing byte) (more, ok bool) {
	switch s.at() {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, false
}

// span skips one value and returns its bytes (a subslice: no copy).
func (s *scanner) span() ([]byte, bool) {
	s.ws()
	start := s.i
	if !s.skip(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// skip validates and steps over one value.
func (s *scanner) skip(depth int) bool {
	switch c := s.at(); c {
	case '"':
		_, _, ok := s.str()
		return ok
	case '{', '[':
		if depth >= scanMaxDepth {
			return false
		}
		s.i++
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		if s.eat(closing) {
			return true
		}
		for {
			if c == '{' {
				if _, _, ok := s.str(); !ok || !s.eat(':') {
					return false
				}
			}
			if !s.skip(depth + 1) {
				return false
			}
			more, ok := s.more(closing)
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

func (s *scanner) literal(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// number steps over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	s.i = i
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// hex4 reads four hex digits, or -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unquote turns a string body that str accepted into its value, exactly
// as encoding/json does: escapes decoded, a lone surrogate and every
// invalid UTF-8 byte replaced by U+FFFD.
func unquote(body []byte, esc bool) string {
	if !esc && utf8.Valid(body) {
		return string(body)
	}
	out := make([]byte, 0, len(body)+8)
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			switch body[i+1] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(body[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
						r2 = hex4(body[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
						out = utf8.AppendRune(out, dec)
						i += 6
						continue
					}
					r = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // '"', '\\', '/'
				out = append(out, body[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r)
			i += size
		}
	}
	return string(out)
}

// folds reports whether key matches one of names the way encoding/json
// matches field names when no name matches exactly (bytes.EqualFold).
// The fast decoder bails out on such keys rather than copy that rule.
func folds(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}
