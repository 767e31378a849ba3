package stream

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/chat"
	"cdxtheme/core/toolcall"
)

// MaxShownText bounds the agent text (answer and thoughts) one turn hands
// to the UI. The page keeps what it is given; past this a flooding agent's
// text is counted, not shown, and the chat says so.
const MaxShownText = 4 << 20

// eventOverhead is what an event weighs besides its text: the struct and
// its JSON keys.
const eventOverhead = 512

// Weigh is about the bytes ev holds in memory and on the wire.
func Weigh(ev chat.Event) int {
	n := eventOverhead + len(chat.TextOf(ev))
	var t *toolcall.Terminal
	switch p := ev.Payload.(type) {
	case chat.UnknownUpdate:
		n += len(p.Update)
	case chat.ToolCallStarted:
		t = p.Terminal
	case chat.ToolCallUpdated:
		t = p.Terminal
	}
	if t != nil {
		n += len(t.Append)
		if t.Output != nil {
			n += len(*t.Output)
		}
	}
	return n
}

// JoinText folds runs of text (or thought) chunks of one turn and session
// into one event each, so a stream of small chunks crosses into the page
// as one string per batch.
func JoinText(evs []chat.Event) []chat.Event {
	out := evs[:0]
	var sb strings.Builder
	flush := func() {
		if sb.Len() > 0 {
			out[len(out)-1] = chat.WithText(out[len(out)-1], sb.String())
			sb.Reset()
		}
	}
	for _, ev := range evs {
		if n := len(out); n > 0 && joinable(out[n-1], ev) {
			if sb.Len() == 0 {
				sb.WriteString(chat.TextOf(out[n-1]))
			}
			sb.WriteString(chat.TextOf(ev))
			continue
		}
		flush()
		out = append(out, ev)
	}
	flush()
	clear(evs[len(out):]) // let dropped texts be collected
	return out
}

func joinable(a, b chat.Event) bool {
	return streamText(a) && streamText(b) && a.Type() == b.Type() &&
		a.SessionID == b.SessionID && a.TurnID == b.TurnID && a.Replay == b.Replay
}

// streamText reports whether ev is a chunk of the answer's or the
// thoughts' text (not a block that is no text).
func streamText(ev chat.Event) bool {
	switch p := ev.Payload.(type) {
	case chat.TextChunk:
		return p.Content == nil
	case chat.ThoughtChunk:
		return p.Content == nil
	}
	return false
}

// TextCap lets a turn's first MaxShownText bytes of agent text through.
type TextCap struct {
	Max     int
	shown   int
	dropped int64
}

// Pass returns ev as the UI gets it (keep false: drop it) and, the first
// time the cap cuts, the warning to show before it.
func (c *TextCap) Pass(ev chat.Event) (out chat.Event, warn *chat.Event, keep bool) {
	switch ev.Payload.(type) {
	case chat.TextChunk, chat.ThoughtChunk:
	default:
		return ev, nil, true
	}
	if ev.Replay {
		return ev, nil, true
	}
	text := chat.TextOf(ev)
	room := c.Max - c.shown
	if len(text) <= room {
		c.shown += len(text)
		return ev, nil, true
	}
	first := c.dropped == 0
	cut := room
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	c.dropped += int64(len(text) - cut)
	c.shown = c.Max // once cut, nothing more goes through
	if first {
		warn = &chat.Event{TurnID: ev.TurnID, SessionID: ev.SessionID, Payload: chat.Warning{Text: fmt.Sprintf("The agent has written more than %s in this turn: the rest is not shown here. The turn goes on; Stop ends it.", byteSize(int64(c.Max)))}}
	}
	if cut == 0 {
		return ev, warn, false
	}
	return chat.WithText(ev, text[:cut]), warn, true
}

// Summary is the closing warning of a turn the cap cut (nil: none was).
func (c *TextCap) Summary(turnID, sessionID string) *chat.Event {
	if c.dropped == 0 {
		return nil
	}
	return &chat.Event{TurnID: turnID, SessionID: sessionID, Payload: chat.Warning{Text: fmt.Sprintf("%s of the agent's text in this turn was not shown.", byteSize(c.dropped))}}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
