package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
	"unicode/utf8"

	"cdxtheme/core/chat"
	"cdxtheme/core/permission"

	"github.com/rs/zerolog"
)

// Declined is what a Handler returns, before emitting anything, for a turn
// it will not run: the client then runs the turn itself.
type Declined struct{ Reason string }

func (d *Declined) Error() string { return "declined: " + d.Reason }

// Handler runs a client's turn on an agent started as a says (t.Decider
// asks the client). It returns a *Declined, having emitted nothing, when it
// will not run it here.
type Handler func(ctx context.Context, t chat.Turn, a Agent, emit func(chat.Event)) (chat.Result, error)

// Server answers clients on a listener, one turn per connection.
type Server struct {
	Handle Handler
	// OnStop is called when a client asks the server to exit (nil: such
	// requests are declined).
	OnStop func()
	Log    zerolog.Logger

	mu     sync.Mutex
	active int
	last   time.Time
	wg     sync.WaitGroup
}

// firstLineWait bounds how long a connection may take to say what it wants.
const firstLineWait = 10 * time.Second

// Serve accepts connections until ctx ends or ln fails, then waits for
// the turns under way (ctx cancels them).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.touch()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var err error
	for {
		var c net.Conn
		c, err = ln.Accept()
		if err != nil {
			break
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.conn(ctx, c)
		}()
	}
	s.wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Idle is how long no turn has run, and whether none runs now.
func (s *Server) Idle() (since time.Duration, idle bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.last), s.active == 0
}

func (s *Server) touch() {
	s.mu.Lock()
	s.last = time.Now()
	s.mu.Unlock()
}

func (s *Server) begin() {
	s.mu.Lock()
	s.active++
	s.last = time.Now()
	s.mu.Unlock()
}

func (s *Server) end() {
	s.mu.Lock()
	s.active--
	s.last = time.Now()
	s.mu.Unlock()
}

// peer is one client connection: serialised writes, answers routed to the
// ask waiting for them.
type peer struct {
	c   net.Conn
	wmu sync.Mutex
	err error // first write error

	amu     sync.Mutex
	waiting map[string]chan Request
}

// sendEvent writes ev as lines of at most maxLine: long text in pieces of
// maxPiece (cut between runes), anything else too long as a warning.
func (p *peer) sendEvent(ev chat.Event) error {
	// Only the chunks are cut: the other kinds' text is short.
	switch ev.Payload.(type) {
	case chat.TextChunk, chat.ThoughtChunk:
		text := chat.TextOf(ev)
		for len(text) > maxPiece {
			cut := maxPiece
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			piece := chat.WithText(ev, text[:cut])
			if err := p.send(Reply{Type: TypeEvent, Event: &piece}); err != nil {
				return err
			}
			text = text[cut:]
		}
		ev = chat.WithText(ev, text)
	}
	b, err := marshalLine(Reply{Type: TypeEvent, Event: &ev})
	if err != nil {
		return err
	}
	if len(b) > maxLine {
		w := chat.Event{TurnID: ev.TurnID, SessionID: ev.SessionID, Payload: chat.Warning{Text: fmt.Sprintf("the agent sent a %q update of %d MiB, too big to pass on; it is not shown", ev.Type(), len(b)>>20)}}
		return p.send(Reply{Type: TypeEvent, Event: &w})
	}
	return p.write(b)
}

func (p *peer) send(r Reply) error {
	b, err := marshalLine(r)
	if err != nil {
		return err
	}
	return p.write(b)
}

func (p *peer) write(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.err != nil {
		return p.err
	}
	if _, err := p.c.Write(b); err != nil {
		p.err = err
	}
	return p.err
}

func (s *Server) conn(ctx context.Context, c net.Conn) {
	defer c.Close()
	// Busy from the accept: a server must not decide it is idle while a
	// client is still saying what it wants.
	s.begin()
	defer s.end()
	br := bufio.NewReaderSize(c, 64<<10)
	c.SetReadDeadline(time.Now().Add(firstLineWait))
	var req Request
	if err := readLine(br, &req); err != nil {
		s.Log.Debug().Err(err).Msg("serve: unreadable request")
		return
	}
	c.SetReadDeadline(time.Time{})
	p := &peer{c: c, waiting: map[string]chan Request{}}
	switch {
	case req.Type == TypeStop && s.OnStop != nil:
		p.send(Reply{Type: TypeResult, Result: &Result{}})
		s.OnStop()
		return
	case req.Type != TypeRun:
		p.send(Reply{Type: TypeDeclined, Reason: fmt.Sprintf("unknown request %q", req.Type)})
		return
	case req.Version != Version:
		p.send(Reply{Type: TypeDeclined, Reason: fmt.Sprintf("protocol version %d, this server speaks %d", req.Version, Version)})
		return
	case req.Turn == nil || req.Agent == nil:
		p.send(Reply{Type: TypeDeclined, Reason: "a run needs a turn and an agent"})
		return
	case ctx.Err() != nil:
		// Stopping: the client runs the turn itself rather than get a
		// turn cancelled before it began.
		p.send(Reply{Type: TypeDeclined, Reason: "the server is stopping"})
		return
	}

	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// The client's later lines: cancel, answers. Its going away is a cancel.
		defer cancel()
		for {
			var r Request
			if err := readLine(br, &r); errors.Is(err, errLineTooLong) {
				continue
			} else if err != nil {
				return
			}
			switch r.Type {
			case TypeCancel:
				cancel()
			case TypeAnswer:
				p.amu.Lock()
				ch := p.waiting[r.RequestID]
				delete(p.waiting, r.RequestID)
				p.amu.Unlock()
				if ch != nil {
					ch <- r
				}
			}
		}
	}()
	t := chat.Turn{
		SessionID: req.Turn.SessionID, Cwd: req.Turn.Cwd, Model: req.Turn.Model, Effort: req.Turn.Effort,
		Prompt: req.Turn.Prompt, Decider: permission.DeciderFunc(p.ask),
	}
	emitted := false
	res, err := s.Handle(tctx, t, *req.Agent, func(ev chat.Event) {
		emitted = true
		if p.sendEvent(ev) != nil {
			cancel() // the client is gone
		}
	})
	if d, ok := errors.AsType[*Declined](err); ok && !emitted {
		p.send(Reply{Type: TypeDeclined, Reason: d.Reason})
		return
	}
	p.send(Reply{Type: TypeResult, Result: &Result{SessionID: res.SessionID, StopReason: res.StopReason}, Error: wireError(err)})
}

// ask hands a permission request to the client's decider and waits for
// its answer.
func (p *peer) ask(ctx context.Context, sessionID string, perm permission.Permission) (string, error) {
	ch := make(chan Request, 1)
	p.amu.Lock()
	p.waiting[perm.RequestID] = ch
	p.amu.Unlock()
	defer func() {
		p.amu.Lock()
		delete(p.waiting, perm.RequestID)
		p.amu.Unlock()
	}()
	if err := p.send(Reply{Type: TypeAsk, Permission: &perm, SessionID: sessionID}); err != nil {
		return "", err
	}
	select {
	case r := <-ch:
		if r.Error != "" {
			return r.OptionID, errors.New(r.Error)
		}
		return r.OptionID, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// errLineTooLong: a line over maxLine was read past and dropped; the
// stream goes on after it.
var errLineTooLong = fmt.Errorf("a line longer than %d MiB", maxLine>>20)

// readLine reads one NDJSON line (at most maxLine) into v. A longer line
// is consumed without being kept and reported as errLineTooLong.
func readLine(br *bufio.Reader, v any) error {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				tooLong, line = true, nil
			}
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && (len(line) > 0 || tooLong) {
			break
		}
		return err
	}
	if tooLong {
		return errLineTooLong
	}
	return json.Unmarshal(line, v)
}
