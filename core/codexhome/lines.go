package codexhome

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"cdxtheme/core/fsread"

	"github.com/klauspost/compress/zstd"
)

// maxLine bounds one rollout line held in memory. Longer lines (a huge
// pasted blob) are skipped and counted, never fatal.
const maxLine = 64 << 20

// errGaveUp ends a read that met a line longer than rolloutFile.maxSkip.
var errGaveUp = errors.New("a line too long to read through")

// isZst reports whether path is a zstd-compressed rollout.
func isZst(path string) bool { return strings.HasSuffix(path, ".zst") }

// rolloutFile is an open rollout positioned at a byte offset of its
// decompressed content.
type rolloutFile struct {
	f   *os.File
	zr  *zstd.Decoder
	br  *bufio.Reader
	off int64 // offset of the next unread byte (decompressed)
	buf []byte
	// maxLen bounds a line held in memory (maxLine unless set lower).
	maxLen int
	// maxSkip, when > 0, bounds how far one over-long line is read through
	// before next gives up with errGaveUp.
	maxSkip int64
	pooled  bool
	ceiling *ceilingReader // .zst only: MaxUnpacked
}

// MaxUnpacked is how much of a compressed rollout is ever unpacked: a few
// hundred KB of zstd can unpack to gigabytes, so a transcript past this
// ends early and says so (Truncated). A plain rollout is read to its end:
// its size is what the disk holds, and reads stream.
const MaxUnpacked = 512 << 20

// maxUnpacked is MaxUnpacked; tests lower it to make a bomb cheaply.
var maxUnpacked int64 = MaxUnpacked

// openRollout opens path (plain or .zst) read-only and positions it at off.
// For .zst there is no random access, so the prefix is decompressed and
// dropped; that is still far cheaper than parsing it.
func openRollout(path string, off int64) (*rolloutFile, error) {
	return openRolloutBuf(path, off, 256<<10, 0)
}

// openRolloutBuf is openRollout with a read buffer of bufSize bytes and,
// when limit > 0, at most limit bytes of content read (a listing reads
// only heads and uses a small buffer and a hard limit). The file is opened
// without blocking and must be a regular file: a FIFO or /dev/zero behind
// a link is refused at once. Links are followed: CODEX_HOME is the user's.
func openRolloutBuf(path string, off int64, bufSize int, limit int64) (*rolloutFile, error) {
	f, _, err := fsread.Open(path, fsread.Follow)
	if err != nil {
		return nil, err // "read PATH: not a regular file (a named pipe)"
	}
	rf := &rolloutFile{f: f, maxLen: maxLine}
	var r io.Reader = f
	if isZst(path) {
		zr, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(zstdWindow))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("open rollout %s: zstd: %w", path, err)
		}
		rf.zr = zr
		rf.ceiling = &ceilingReader{r: zr, left: maxUnpacked - off}
		r = rf.ceiling
		if off > 0 {
			if _, err := io.CopyN(io.Discard, zr, off); err != nil && !errors.Is(err, io.EOF) {
				rf.Close()
				return nil, fmt.Errorf("read rollout %s: %w", path, err)
			}
		}
	} else if off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("seek rollout %s: %w", path, err)
		}
	}
	if limit > 0 {
		r = io.LimitReader(r, limit)
	}
	rf.off = off
	if bufSize == headBufSize {
		rf.br = headReaders.Get().(*bufio.Reader)
		rf.br.Reset(r)
		rf.pooled = true
	} else {
		rf.br = bufio.NewReaderSize(r, bufSize)
	}
	return rf, nil
}

// zstdWindow bounds the decoder's window (the memory one frame may ask
// for) at the zstd tool's own default limit (--long=27), so any rollout
// `zstd -d` reads is read; the library would accept 512 MiB.
const zstdWindow = 1 << 27

// ceilingReader ends a decompressed stream after left bytes and records
// whether there was more.
type ceilingReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (c *ceilingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		if !c.hit {
			var probe [1]byte
			n, _ := io.ReadFull(c.r, probe[:])
			c.hit = n > 0
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// truncated reports whether the ceiling cut the content short.
func (rf *rolloutFile) truncated() bool { return rf.ceiling != nil && rf.ceiling.hit }

// headBufSize is the read buffer of a listing's head reads; those readers
// are pooled because a listing opens thousands of files.
const headBufSize = 32 << 10

var headReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, headBufSize) }}

// Close releases the file (and the zstd decoder).
func (rf *rolloutFile) Close() error {
	if rf.zr != nil {
		rf.zr.Close()
	}
	if rf.pooled {
		rf.br.Reset(nil)
		headReaders.Put(rf.br)
		rf.br, rf.pooled = nil, false
	}
	return rf.f.Close()
}

// next returns the next line without its newline, the offset just past it,
// and whether the line was too long (then line is nil and the caller
// counts it as skipped). The returned slice is valid until the next call.
// io.EOF comes only when nothing is left; a last line without a newline is
// returned like any other.
func (rf *rolloutFile) next() (line []byte, end int64, tooLong bool, err error) {
	rf.buf = rf.buf[:0]
	start := rf.off
	for {
		chunk, err := rf.br.ReadSlice('\n')
		rf.off += int64(len(chunk))
		if tooLong && rf.maxSkip > 0 && rf.off-start > rf.maxSkip {
			return nil, rf.off, true, errGaveUp
		}
		if !tooLong {
			if len(rf.buf)+len(chunk) > rf.maxLen {
				tooLong = true
				rf.buf = rf.buf[:0]
			} else if err == nil && len(rf.buf) == 0 {
				// Common case: the whole line sits in the buffer, no copy.
				return bytes.TrimRight(chunk, "\r\n"), rf.off, false, nil
			} else {
				rf.buf = append(rf.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, rf.off, true, nil
			}
			return bytes.TrimRight(rf.buf, "\r\n"), rf.off, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if rf.truncated() {
				// A line cut by the ceiling is not a damaged line.
				return nil, rf.off, false, io.EOF
			}
			if tooLong {
				return nil, rf.off, true, nil
			}
			if len(rf.buf) == 0 {
				return nil, rf.off, false, io.EOF
			}
			return bytes.TrimRight(rf.buf, "\r\n"), rf.off, false, nil
		default:
			return nil, rf.off, false, fmt.Errorf("read rollout %s: %w", rf.f.Name(), err)
		}
	}
}
