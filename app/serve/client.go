package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
)

// dialWait bounds connecting to a socket: a live server accepts at once.
const dialWait = 2 * time.Second

// overrun is how long past the turn's own bound (and its cancel grace) the
// client waits for the server's result before giving up on it.
const overrun = 15 * time.Second

// Run runs t on the server at path, on an agent started as a says,
// streaming its events to emit; t.Decider answers the permission requests
// it asks about. handled is false, with nothing emitted, when there is no
// server there, it declined, or it failed before answering: the caller then
// runs the turn itself. Once handled, the turn ends as chat.Engine.Run's
// does: with a done or error event, and a *chat.Error.
func Run(ctx context.Context, path string, t chat.Turn, a Agent, emit func(chat.Event)) (res chat.Result, err error, handled bool) {
	c, err := Dial(path, dialWait)
	if err != nil {
		return res, err, false
	}
	defer c.Close()
	return run(ctx, c, t, a, emit)
}

func run(ctx context.Context, c net.Conn, t chat.Turn, a Agent, emit func(chat.Event)) (res chat.Result, err error, handled bool) {
	req := Request{Type: TypeRun, Version: Version, Agent: &a,
		Turn: &Turn{SessionID: t.SessionID, Cwd: t.Cwd, Model: t.Model, Effort: t.Effort, Prompt: t.Prompt}}
	var wmu sync.Mutex
	send := func(r Request) error {
		b, err := marshalLine(r)
		if err != nil {
			return err
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, err = c.Write(b)
		return err
	}
	if err := send(req); err != nil {
		return res, fmt.Errorf("send the turn: %w", err), false
	}
	// The user's cancel goes to the server, which cancels the turn as a
	// local one is (session/cancel, then the grace); its result follows.
	stopCancel := context.AfterFunc(ctx, func() { send(Request{Type: TypeCancel}) })
	defer stopCancel()
	// A server that never answers cannot keep the command past its bound.
	if a.Timeout > 0 {
		c.SetReadDeadline(time.Now().Add(a.Timeout + overrun))
	}

	br := bufio.NewReaderSize(c, 64<<10)
	var sid string
	var asks sync.WaitGroup
	defer asks.Wait()
	// A decider still asking when the turn ended (a terminal prompt) stops.
	actx, acancel := context.WithCancel(ctx)
	defer acancel()
	for first := true; ; first = false {
		var r Reply
		err := readLine(br, &r)
		if errors.Is(err, errLineTooLong) && !first {
			emit(chat.Event{SessionID: sid, Payload: chat.Warning{Text: "the agent's server sent an update too big to pass on; it is not shown"}})
			continue
		}
		// A server of another build (same protocol) may know an event
		// kind this one does not: the turn goes on without it.
		if unknown, ok := errors.AsType[*chat.UnknownTypeError](err); ok && !first {
			emit(chat.Event{SessionID: sid, Payload: chat.Warning{Text: fmt.Sprintf("the agent's server sent an event this version does not know (%q); it is not shown", unknown.Type)}})
			continue
		}
		if err != nil {
			if first {
				return res, fmt.Errorf("the server did not answer: %w", err), false
			}
			why := "the cdxtheme process holding the agent went away during the turn"
			code := chat.CodeAgentExit
			if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
				why, code = fmt.Sprintf("the turn took longer than %s and the agent's server did not end it", a.Timeout), chat.CodeTimeout
			}
			ce := &chat.Error{Code: code, Message: why, Err: err}
			emit(chat.Event{SessionID: sid, Payload: chat.ErrorEvent{Text: ce.Message, Code: ce.Code}})
			return chat.Result{SessionID: sid}, ce, true
		}
		switch r.Type {
		case TypeDeclined:
			if first {
				return res, &Declined{Reason: r.Reason}, false
			}
		case TypeEvent:
			if r.Event != nil {
				if r.Event.SessionID != "" {
					sid = r.Event.SessionID
				}
				emit(*r.Event)
			}
		case TypeAsk:
			if r.Permission == nil {
				continue
			}
			perm, psid := *r.Permission, r.SessionID
			asks.Add(1)
			go func() {
				defer asks.Done()
				d := t.Decider
				if d == nil {
					d = permission.Policy("deny")
				}
				id, derr := d.Decide(actx, psid, perm)
				ans := Request{Type: TypeAnswer, RequestID: perm.RequestID, OptionID: id}
				if derr != nil {
					ans.Error = derr.Error()
				}
				send(ans)
			}()
		case TypeResult:
			if r.Result != nil {
				res = chat.Result{SessionID: r.Result.SessionID, StopReason: r.Result.StopReason}
			}
			return res, r.Error.chatError(), true
		}
	}
}
