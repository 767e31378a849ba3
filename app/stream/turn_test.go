package stream

import (
	"testing"

	"cdxtheme/core/chat"
)

// The agent's "done" reaches the page last, after what the app says at
// the turn's end (a lock put back), and batches are numbered from 1.
func TestTurnSendsDoneLast(t *testing.T) {
	var got []chat.Event
	var seqs []int
	tr := NewTurn("t-1", func(seq int, evs []chat.Event) {
		seqs = append(seqs, seq)
		got = append(got, evs...)
	})
	tr.Agent(chat.Event{TurnID: "t-1", Payload: chat.TextChunk{Text: "hi"}})
	tr.Agent(chat.Event{TurnID: "t-1", Payload: chat.Done{}})
	tr.Say(chat.Event{TurnID: "t-1", Payload: chat.Warning{Text: "locks restored"}})
	tr.Close()
	if len(got) != 3 || got[0].Type() != chat.EventText || got[1].Type() != chat.EventWarning || got[2].Type() != chat.EventDone {
		t.Fatalf("the page got %+v, want the text, the app's warning, then done", got)
	}
	if len(seqs) == 0 || seqs[0] != 1 {
		t.Fatalf("batches numbered %v, want from 1", seqs)
	}
}
