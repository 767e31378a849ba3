package codexhome

import (
	"context"
	"errors"
	"io"
)

// RolloutHead is what a rollout says about itself.
type RolloutHead struct {
	ID       string
	Cwd      string
	Internal bool // a sub-agent session
	Rollout  bool // a session_meta line or a message was found: it is a rollout
	Skipped  int  // lines that did not parse
}

// A scan (the search index) holds lines of at most scanMaxLine (a message
// is indexed only up to 32 KiB anyway) and gives up on a file at a line
// longer than scanMaxSkip: a file with gigabytes and no newline is no
// transcript, and reading it through would cost seconds per refresh.
const (
	scanMaxLine = 8 << 20
	scanMaxSkip = 64 << 20
)

// ScanRollout reads a rollout once, start to end, and calls fn with every
// message and its index in the transcript (the index TranscriptPage counts
// by), without holding the transcript in memory. An error from fn stops
// the scan and is returned.
func ScanRollout(ctx context.Context, path string, fn func(i int, m Message) error) (RolloutHead, error) {
	rf, err := openRollout(path, 0)
	if err != nil {
		return RolloutHead{}, err
	}
	defer rf.Close()
	rf.maxLen, rf.maxSkip = scanMaxLine, scanMaxSkip
	p := newParser()
	head := func() RolloutHead {
		return RolloutHead{ID: firstNonEmpty(p.id, idFromPath(path)), Cwd: p.cwd, Internal: p.internal,
			Rollout: p.meta || p.emitted > 0, Skipped: p.skipped}
	}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return head(), ctx.Err()
		}
		raw, _, tooLong, err := rf.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errGaveUp) {
			p.skipped++
			break
		}
		if err != nil {
			return head(), err
		}
		if tooLong {
			p.skipped++
			continue
		}
		if m := p.feed(raw); m != nil {
			if err := fn(p.emitted-1, *m); err != nil {
				return head(), err
			}
		}
	}
	for _, m := range p.flush() {
		if err := fn(p.emitted, m); err != nil {
			return head(), err
		}
		p.emitted++
	}
	return head(), nil
}
