package agent

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Stderr tail bounds: what a failure message can show without letting a
// chatty agent grow our memory.
const (
	tailLines    = 50
	tailBytes    = 16 << 10
	maxLineBytes = 1 << 10 // longer lines are cut (and marked) in the tail and the log
	logPerSecond = 50      // stderr lines logged per second before the rest are only counted
)

// ring keeps the last lines of a stream, bounded by count and total bytes.
type ring struct {
	mu    sync.Mutex
	lines []string
	bytes int
}

func (r *ring) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, line)
	r.bytes += len(line)
	for len(r.lines) > tailLines || (r.bytes > tailBytes && len(r.lines) > 1) {
		r.bytes -= len(r.lines[0])
		r.lines[0] = ""
		r.lines = r.lines[1:]
	}
}

func (r *ring) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// drainStderr reads src until EOF as fast as it can (a full pipe would block
// the agent), keeping the tail and logging lines at debug with a rate limit.
func drainStderr(src io.Reader, tail *ring, log zerolog.Logger) {
	br := bufio.NewReaderSize(src, 64<<10)
	var (
		windowStart = time.Now()
		logged      int
		suppressed  int
	)
	emit := func(line string) {
		tail.add(line)
		now := time.Now()
		if now.Sub(windowStart) >= time.Second {
			if suppressed > 0 {
				log.Debug().Int("lines", suppressed).Msg("agent stderr: lines not logged (rate limit)")
			}
			windowStart, logged, suppressed = now, 0, 0
		}
		if logged < logPerSecond {
			logged++
			log.Debug().Str("line", line).Msg("agent stderr")
		} else {
			suppressed++
		}
	}
	for {
		line, truncated, err := readLine(br)
		if len(line) > 0 || truncated { // blank lines carry nothing
			s := string(line)
			if truncated {
				s += " …[truncated]"
			}
			emit(s)
		}
		if err != nil {
			if suppressed > 0 {
				log.Debug().Int("lines", suppressed).Msg("agent stderr: lines not logged (rate limit)")
			}
			return
		}
	}
}

// readLine returns one line without its newline, cut to maxLineBytes; the
// rest of an over-long line is read and discarded so memory stays bounded.
func readLine(br *bufio.Reader) (line []byte, truncated bool, err error) {
	first := true
	for {
		chunk, err := br.ReadSlice('\n')
		if first && err == nil && len(chunk) <= maxLineBytes+1 {
			// The common case, a whole short line in the buffer: no copy.
			line = chunk[:len(chunk)-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, false, nil
		}
		first = false
		if room := maxLineBytes - len(line); room > 0 {
			c := chunk
			if len(c) > 0 && c[len(c)-1] == '\n' && err == nil {
				c = c[:len(c)-1]
				// A CRLF line of exactly the limit is not cut for its '\r'.
				c = bytes.TrimSuffix(c, []byte{'\r'})
			}
			if len(c) > room {
				c = c[:room]
				truncated = true
			}
			line = append(line, c...)
		}
		// Past the first chunk nothing is kept: another comes only after a
		// full buffer (64 KiB), which was cut above, so truncated is set.
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, truncated, err
	}
}
