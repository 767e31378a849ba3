package stream

import "cdxtheme/core/chat"

// Turn is one turn's events on their way to the page: batched once a
// frame and bounded (Batcher), the agent's text capped (TextCap), and its
// "done" held back until Close, so what the app says at the turn's end
// (locks put back, a variant kept) reaches the page before it.
type Turn struct {
	id    string
	b     *Batcher[chat.Event]
	shown TextCap
	done  *chat.Event
}

// NewTurn starts the page's stream of turn id; emit gets each batch with
// its number, from 1 (flushes are serialised, so seq is in order).
func NewTurn(id string, emit func(seq int, evs []chat.Event)) *Turn {
	seq := 0
	b := NewBatcher(FlushInterval, func(evs []chat.Event) {
		seq++
		emit(seq, evs)
	}).Bounded(MaxPending, Weigh, JoinText)
	return &Turn{id: id, b: b, shown: TextCap{Max: MaxShownText}}
}

// Say queues an event of the app's own (a warning), as it is.
func (t *Turn) Say(ev chat.Event) { t.b.Add(ev) }

// Agent queues an event of the agent's: its text within the cap (the
// warning where the cap cuts, the amount left out before the turn's
// end), its "done" held until Close.
func (t *Turn) Agent(ev chat.Event) {
	if ev.Type() == chat.EventDone || ev.Type() == chat.EventError || ev.Type() == chat.EventReady {
		if w := t.shown.Summary(t.id, ev.SessionID); w != nil {
			t.b.Add(*w)
		}
	}
	ev, warn, keep := t.shown.Pass(ev)
	if keep && ev.Type() == chat.EventDone {
		t.done = &ev
		keep = false
	}
	if keep {
		t.b.Add(ev)
	}
	if warn != nil {
		t.b.Add(*warn)
	}
}

// Close sends the held "done" last and flushes what is pending.
func (t *Turn) Close() {
	if t.done != nil {
		t.b.Add(*t.done)
	}
	t.b.Close()
}
