package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// The CLI prints what the agent wrote (its answer, thoughts, tool titles,
// option names, theme and session titles). On a terminal a control sequence
// in there is an instruction: OSC 52 writes the clipboard, CSI moves the
// cursor and rewrites what was printed, others retitle the window or dump
// its contents. Human output therefore goes through a cleaner that keeps
// text, newlines and tabs and drops every C0 and C1 control and every
// escape sequence whole, across writes (a sequence may be split between two
// streamed chunks). --json keeps the bytes (JSON escapes C0 itself) and
// --raw turns the cleaner off.

// Cleaner states.
const (
	ground   = iota
	esc      // after ESC
	escInter // ESC, intermediates (0x20-0x2f), waiting for the final byte
	csi      // ESC [ or CSI: parameters and intermediates, then a final byte
	str      // OSC, DCS, SOS, PM, APC: a string up to BEL or ST
	strEsc   // ESC inside a string: ST if a backslash follows
)

// maxCSI bounds a control sequence's parameters; past it the sequence is
// dropped and what follows is text again.
const maxCSI = 64

// cleaner is an io.Writer that strips control sequences from what passes.
type cleaner struct {
	w     io.Writer
	state int
	n     int    // bytes in the current CSI
	pend  []byte // an incomplete UTF-8 sequence at the end of the last write
	out   []byte
}

func newCleaner(w io.Writer) *cleaner { return &cleaner{w: w} }

// Write cleans p and writes what is left; it reports len(p) on success.
func (c *cleaner) Write(p []byte) (int, error) {
	buf := p
	if len(c.pend) > 0 {
		buf = append(c.pend, p...)
		c.pend = nil
	}
	c.out = c.out[:0]
	for i := 0; i < len(buf); {
		b := buf[i]
		if b < utf8.RuneSelf {
			c.control(rune(b), buf[i:i+1])
			i++
			continue
		}
		r, size := utf8.DecodeRune(buf[i:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(buf[i:]) {
				c.pend = append([]byte(nil), buf[i:]...) // the rest comes with the next write
				break
			}
			if b <= 0x9f {
				r = rune(b) // a bare 8-bit C1 control (0x80-0x9f), as Latin-1 terminals read it
			}
			c.control(r, buf[i:i+1])
			i++
			continue
		}
		c.control(r, buf[i:i+size])
		i += size
	}
	if len(c.out) == 0 {
		return len(p), nil
	}
	if _, err := c.w.Write(c.out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes an incomplete UTF-8 sequence left at the end of the stream.
func (c *cleaner) Flush() error {
	if len(c.pend) == 0 {
		return nil
	}
	_, err := c.w.Write(c.pend)
	c.pend = nil
	return err
}

// control feeds one character (raw: its bytes) through the state machine.
func (c *cleaner) control(r rune, raw []byte) {
	switch c.state {
	case esc:
		switch {
		case r == '[':
			c.state, c.n = csi, 0
		case r == ']' || r == 'P' || r == 'X' || r == '^' || r == '_':
			c.state = str
		case r >= 0x20 && r <= 0x2f:
			c.state = escInter
		case r >= 0x30 && r <= 0x7e:
			c.state = ground // a two-character sequence such as ESC c (reset)
		case r == 0x1b:
		default:
			c.state = ground
			c.control(r, raw)
		}
		return
	case escInter:
		switch {
		case r >= 0x20 && r <= 0x2f:
		case r >= 0x30 && r <= 0x7e:
			c.state = ground
		default:
			c.state = ground
			c.control(r, raw)
		}
		return
	case csi:
		c.n++
		switch {
		case r >= 0x20 && r <= 0x3f && c.n <= maxCSI:
		case r >= 0x40 && r <= 0x7e:
			c.state = ground
		default:
			c.state = ground
			if c.n <= maxCSI {
				c.control(r, raw)
			}
		}
		return
	case str:
		switch r {
		case 0x07, 0x9c, 0x18, 0x1a: // BEL or ST ends it; CAN and SUB abort it
			c.state = ground
		case 0x1b:
			c.state = strEsc
		case '\n':
			// Never swallow past a line: a hostile agent leaves a string
			// open to hide the rest of the answer.
			c.state = ground
			c.control(r, raw)
		}
		return
	case strEsc:
		if r == '\\' {
			c.state = ground
			return
		}
		c.state = esc
		c.control(r, raw)
		return
	}
	switch {
	case r == '\n' || r == '\t':
		c.out = append(c.out, raw...)
	case r == 0x1b:
		c.state = esc
	case r == 0x9b:
		c.state, c.n = csi, 0
	case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
		c.state = str
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		// another control character: dropped
	default:
		c.out = append(c.out, raw...)
	}
}

// cleanString is s without control sequences, for one-off strings.
func cleanString(s string) string {
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	c := newCleaner(&b)
	c.Write([]byte(s))
	c.Flush()
	return b.String()
}

// cleanCell is a string for one cell of a table: cleaned, on one line.
func cleanCell(s string) string {
	return strings.Join(strings.Fields(cleanString(s)), " ")
}

func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 && b != '\n' && b != '\t' || b == 0x7f || b >= 0x80 {
			return true
		}
	}
	return false
}
