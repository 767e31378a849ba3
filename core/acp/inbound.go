package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// Inbound: reading and dispatching.
//
// Two worker goroutines share two roles: the reader (the only one that
// touches the input) and the dispatcher (the only one that runs handlers,
// one at a time, in arrival order). Normally one worker holds both: it
// reads a line and runs its handler itself, with no hand-off between
// goroutines (a hand-off per streamed chunk cost more CPU than decoding
// the chunk: waking a goroutine makes the Go runtime wake a thread). The
// other worker waits. The reader role passes to the waiting worker
//
//   - before a request from the agent is handled: a permission request
//     waits for a person, and reading must go on meanwhile;
//   - when any other handler has run for a tick of the stall watch (a
//     consumer that blocks, or waits for a lock held by someone who waits
//     for a response).
//
// The new reader reads on, delivers responses to Calls, and queues what
// arrives for the busy worker, which, once its handler returns, handles
// the queue until it is empty and then waits in its turn. Order holds
// because whatever is read while a worker dispatches is queued behind it.
//
// Invariants (under qmu): the queue is non-empty only while dispatcher is
// set, and only the dispatcher empties it; only the worker named by
// reader touches the input, and never while it dispatches.

// stallAfter is the stall watch's tick: a handler that runs for a whole
// tick (so between one and two) hands reading over. Streamed updates take
// microseconds. The tick is long because any timer that fires often while
// lines stream in costs every line CPU (measured: +5 µs a line at 5 ms,
// about nothing at 100 ms).
const stallAfter = 100 * time.Millisecond

// The stall watch: a timer that ticks every stallAfter while handlers are
// dispatched inline, and goes dormant when none has run for a tick. (A
// timer reset per line cost as much as the hand-off it saves: arming a
// timer wakes the netpoller.)
type stallWatch struct {
	seq     atomic.Uint64 // inline dispatches started
	on      atomic.Bool   // one is running
	armed   atomic.Bool   // the timer is ticking
	lastSeq atomic.Uint64 // seq at the previous tick
	timer   *time.Timer
}

// begin marks the start of an inline dispatch and wakes the watch.
func (w *stallWatch) begin() {
	w.seq.Add(1)
	w.on.Store(true)
	if !w.armed.Load() && w.armed.CompareAndSwap(false, true) {
		w.timer.Reset(stallAfter)
	}
}

func (w *stallWatch) end() { w.on.Store(false) }

// tick reports whether the same inline dispatch has run for a whole
// period, and keeps the timer ticking while dispatches go on.
func (w *stallWatch) tick() (stalled bool) {
	seq, on := w.seq.Load(), w.on.Load()
	last := w.lastSeq.Swap(seq)
	// No dispatch began since the previous tick and one runs: it has
	// run for at least a period.
	stalled = on && seq == last
	if on || seq != last {
		w.timer.Reset(stallAfter)
		return stalled
	}
	w.armed.Store(false)
	// A dispatch that began while this tick decided saw the timer armed
	// and did not arm it: look again.
	if (w.on.Load() || w.seq.Load() != seq) && w.armed.CompareAndSwap(false, true) {
		w.timer.Reset(stallAfter)
	}
	return false
}

// work is one worker's life: read while holding the reader role, take the
// role when it is handed over, else wait.
func (c *Conn) work(id int, in *input) {
	c.qmu.Lock()
	for {
		if c.reader == id {
			c.qmu.Unlock()
			c.readOn(id, in)
			c.qmu.Lock()
			continue
		}
		if c.reader == 0 && !c.readerDone {
			c.reader = id
			continue
		}
		if c.dispatcher == 0 && (c.readerDone || c.stopped) && !c.exited {
			c.exited = true
			for _, q := range c.queue { // only Flush markers can be left
				if q.flush != nil {
					close(q.flush)
				}
			}
			c.queue = nil
			close(c.dispatched)
		}
		if c.readerDone && c.dispatcher == 0 {
			c.qcond.Broadcast() // the other worker ends too
			c.qmu.Unlock()
			return
		}
		c.qcond.Wait()
	}
}

// readOn reads and routes lines until the input ends or the reader role
// was handed over while this worker ran a handler.
func (c *Conn) readOn(id int, in *input) {
	for {
		line, tooLong, err := c.readLine(in)
		var msg inbound
		ok := false
		switch {
		case tooLong:
			msg, ok = c.reportBad([]byte(fmt.Sprintf("<%s>", errTooLong)), errTooLong), true
		case len(line) > 0 && err != nil && !json.Valid(line):
			// The last line with no newline and not whole: the agent was
			// ended mid-write. Nothing was said; nothing to report.
			c.log.Debug().Int("bytes", len(line)).Msg("acp: the output ended in a cut line; dropped")
		case len(line) > 0:
			msg, ok = c.handleLine(line)
		}
		if ok && !c.route(id, msg) {
			return // the sticky input error, if any, is the next reader's
		}
		if err != nil {
			c.endInput(err)
			return
		}
	}
}

// route dispatches msg inline when no handler runs, else queues it behind
// the running one. It reports whether this worker still holds the reader
// role.
func (c *Conn) route(id int, msg inbound) bool {
	c.qmu.Lock()
	if c.stopped {
		c.qmu.Unlock()
		return true // Close drops what arrives afterwards
	}
	if c.dispatcher != 0 {
		c.queue = append(c.queue, msg)
		c.qmu.Unlock()
		return true
	}
	c.dispatcher = id
	if msg.kind == inRequest {
		c.reader = 0 // see the top of the file
		c.qcond.Signal()
	}
	c.qmu.Unlock()
	c.stall.begin()
	c.handle(msg)
	c.stall.end()
	return c.drain(id)
}

// drain handles what was queued while this worker dispatched, until the
// queue is empty, then gives up the dispatcher role. It reports whether
// this worker still holds the reader role.
func (c *Conn) drain(id int) bool {
	var batch []inbound
	c.qmu.Lock()
	for len(c.queue) > 0 {
		batch, c.queue = c.queue, batch[:0]
		c.qmu.Unlock()
		for i := range batch {
			if batch[i].kind == inFlush || !c.halted.Load() {
				c.handle(batch[i])
			}
			batch[i] = inbound{} // let big frames be collected
		}
		if cap(batch) > 4096 {
			batch = nil // a burst is over: do not keep its backing array
		}
		c.qmu.Lock()
	}
	c.dispatcher = 0
	reading := c.reader == id
	if c.stopped || c.readerDone {
		c.qcond.Broadcast() // a worker may be waiting to end
	}
	c.qmu.Unlock()
	return reading
}

// stalled runs on every tick of the stall watch; when a handler
// dispatched inline has run for a whole tick (1–2 stallAfter), the reader
// role goes to the other worker. A hand-over that comes just as the
// handler returns is needless but harmless: it costs one hand-off.
func (c *Conn) stalled() {
	if !c.stall.tick() {
		return
	}
	c.qmu.Lock()
	if c.dispatcher != 0 && c.dispatcher == c.reader && !c.readerDone {
		c.reader = 0
		c.qcond.Broadcast()
	}
	c.qmu.Unlock()
}

// endInput records why the input ended and tells everyone.
func (c *Conn) endInput(err error) {
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.readErr = err
	c.fail(fmt.Errorf("%w: %w", ErrClosed, err))
	c.qmu.Lock()
	c.readerDone = true
	c.reader = 0
	c.qcond.Broadcast()
	c.qmu.Unlock()
	close(c.done)
}

// input is the buffered inbound stream, used by the reader role only. Its
// error is sticky, so a worker that takes the role over after the last
// line sees the end too.
type input struct {
	br  *bufio.Reader
	err error
}

// errTooLong marks a frame over MaxLine; it was consumed and dropped.
var errTooLong = errors.New("frame longer than the limit")

// readLine returns the next line without its newline. The buffer grows as
// needed (no fixed cap below MaxLine); an over-long line is consumed to
// its end and reported as tooLong.
func (c *Conn) readLine(in *input) (line []byte, tooLong bool, err error) {
	if in.err != nil {
		return nil, false, in.err
	}
	var buf []byte
	for {
		frag, err := in.br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(frag) > c.maxLine+1 {
				tooLong = true
				buf = nil
			} else if buf == nil && err == nil {
				// Common case: the whole line fit in the bufio buffer.
				buf = append(make([]byte, 0, len(frag)), frag...)
			} else {
				buf = append(buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		in.err = err
		if tooLong {
			return nil, true, err
		}
		return bytes.TrimRight(buf, "\r\n"), false, err
	}
}

// envelope is any JSON-RPC message; which fields are present tells its kind.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

// handleLine decodes one line. A response is delivered here and now; what
// must be dispatched in order is returned with ok.
func (c *Conn) handleLine(line []byte) (msg inbound, ok bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return inbound{}, false
	}
	var m decoded
	if err := c.dec.decode(line, &m); err != nil {
		return c.reportBad(line, fmt.Errorf("not JSON: %w", err)), true
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method != "" && hasID:
		return inbound{kind: inRequest, id: m.ID, method: m.Method, params: m.Params}, true
	case m.Method == MethodSessionUpdate:
		if m.note == nil {
			c.log.Warn().Err(m.noteErr).Msg("acp: unreadable session/update skipped")
			return inbound{}, false
		}
		return inbound{kind: inUpdate, note: m.note, err: m.noteErr}, true
	case m.Method != "":
		return inbound{kind: inNotification, method: m.Method, params: m.Params}, true
	case hasID && (m.Result != nil || m.Error != nil):
		c.deliver(m.envelope)
	case m.Error != nil:
		// An error with a null id answers something the agent could not
		// parse; no call of ours waits for it. Worth a log line, no more.
		c.log.Warn().Int("code", m.Error.Code).Str("message", m.Error.Message).Msg("acp: the agent reported an error without a request id")
	default:
		return c.reportBad(line, errors.New("not a JSON-RPC request, notification or response")), true
	}
	return inbound{}, false
}

func (c *Conn) deliver(m envelope) {
	id, err := parseID(m.ID)
	if err != nil {
		c.log.Warn().Str("id", string(m.ID)).Msg("acp: response with an id we never sent; skipped")
		return
	}
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		c.log.Debug().Int64("id", id).Msg("acp: response to a call nobody waits for (cancelled?); skipped")
		return
	}
	if m.Error != nil {
		ch <- response{err: m.Error}
		return
	}
	ch <- response{result: m.Result}
}

// parseID reads back one of our own ids; some peers echo numbers as strings.
func parseID(raw json.RawMessage) (int64, error) {
	s := string(raw)
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
	}
	return strconv.ParseInt(s, 10, 64)
}

// reportBad counts and logs a bad line and returns it for the OnBadLine
// handler, which sees it in order with the other messages.
func (c *Conn) reportBad(line []byte, err error) inbound {
	n := c.badLines.Add(1)
	preview := line
	if len(preview) > 200 {
		preview = preview[:200]
	}
	c.log.Warn().Err(err).Int64("count", n).Bytes("line", preview).Msg("acp: skipped a line from the agent that is not a JSON-RPC message")
	return inbound{kind: inBadLine, line: line, err: err}
}
