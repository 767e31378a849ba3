package agent

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestReadLine(t *testing.T) {
	long := strings.Repeat("z", 3*maxLineBytes)
	tests := []struct {
		name  string
		in    string
		lines []string
	}{
		{"plain lines", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"last line without newline", "a\nrest", []string{"a", "rest"}},
		{"crlf on the last line without newline", "a\r\nrest\r", []string{"a", "rest"}},
		{"crlf on a line longer than the read buffer", "a\n" + strings.Repeat("w", 600) + strings.Repeat("v", 5000) + "\r\n", []string{"a", strings.Repeat("w", 600) + strings.Repeat("v", maxLineBytes-600) + " …[truncated]"}},
		{"crlf on a line just under the limit, past the buffer", strings.Repeat("k", 5000)[:maxLineBytes] + "\r\n", []string{strings.Repeat("k", maxLineBytes)}},
		{"long line cut, next line intact", long + "\nnext\n", []string{long[:maxLineBytes] + " …[truncated]", "next"}},
		{"line longer than the read buffer", strings.Repeat("q", 200<<10) + "\nok\n", []string{strings.Repeat("q", maxLineBytes) + " …[truncated]", "ok"}},
		{"exactly the limit is not cut", strings.Repeat("e", maxLineBytes) + "\n", []string{strings.Repeat("e", maxLineBytes)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r ring
			drainStderr(strings.NewReader(tt.in), &r, zerolog.Nop())
			got := r.snapshot()
			if strings.Join(got, "|") != strings.Join(tt.lines, "|") {
				t.Errorf("lines %q, want %q", got, tt.lines)
			}
		})
	}
}

func TestRingBounds(t *testing.T) {
	var r ring
	for i := 0; i < 10*tailLines; i++ {
		r.add(strings.Repeat("x", i%700))
	}
	got := r.snapshot()
	total := 0
	for _, l := range got {
		total += len(l)
	}
	if len(got) > tailLines || total > tailBytes {
		t.Fatalf("ring holds %d lines / %d bytes, bounds %d / %d", len(got), total, tailLines, tailBytes)
	}
	if last := got[len(got)-1]; len(last) != (10*tailLines-1)%700 {
		t.Errorf("last line has %d bytes, want the most recent one", len(last))
	}
	// One line larger than the byte bound is still kept: it is the news.
	r.add(strings.Repeat("y", tailBytes+10))
	if got := r.snapshot(); len(got) != 1 || len(got[0]) != tailBytes+10 {
		t.Errorf("after a huge line: %d lines", len(got))
	}
}

// BenchmarkDrainStderr measures how fast a chatty agent's stderr is
// consumed (the agent blocks when we fall behind) and what it allocates.
func BenchmarkDrainStderr(b *testing.B) {
	line := strings.Repeat("warn: something noisy happened in the agent ", 2) + "\n"
	var buf bytes.Buffer
	for buf.Len() < 16<<20 {
		buf.WriteString(line)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var r ring
		drainStderr(bufio.NewReader(bytes.NewReader(data)), &r, zerolog.Nop())
	}
}
