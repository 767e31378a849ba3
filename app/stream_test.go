package app

import (
	"strings"
	"testing"
	"unicode/utf8"

	"cdxtheme/core/chat"
)

func TestJoinTextFoldsRunsOfChunks(t *testing.T) {
	var evs []chat.Event
	for i := 0; i < 1000; i++ {
		evs = append(evs, chat.Event{Type: chat.EventText, SessionID: "s", Text: "ab"})
	}
	evs = append(evs, chat.Event{Type: chat.EventThought, SessionID: "s", Text: "hm"},
		chat.Event{Type: chat.EventThought, SessionID: "s", Text: "m"},
		chat.Event{Type: chat.EventToolCall, SessionID: "s"},
		chat.Event{Type: chat.EventText, SessionID: "s", Text: "x"},
		chat.Event{Type: chat.EventText, SessionID: "s", Text: "y", Replay: true})
	out := joinText(evs)
	if len(out) != 5 || out[0].Text != strings.Repeat("ab", 1000) || out[1].Text != "hmm" || out[2].Type != chat.EventToolCall ||
		out[3].Text != "x" || out[4].Text != "y" || !out[4].Replay {
		t.Fatalf("joined into %d events: %+v", len(out), out[1:])
	}
}

// A flooding agent's text reaches the page up to the cap, cut between
// characters, with one warning where it was cut and the amount at the end.
func TestTextCapCutsAndSaysSo(t *testing.T) {
	c := textCap{max: 10}
	var shown strings.Builder
	var warnings []string
	for _, s := range []string{"hello", " wor", "ldé!", "more", "and more"} {
		ev, warn, keep := c.pass(chat.Event{Type: chat.EventText, Text: s})
		if keep {
			shown.WriteString(ev.Text)
		}
		if warn != nil {
			warnings = append(warnings, warn.Text)
		}
	}
	if ev, _, keep := c.pass(chat.Event{Type: chat.EventToolCall}); !keep || ev.Type != chat.EventToolCall {
		t.Fatal("a tool call past the cap was dropped")
	}
	if w := c.summary("t", "s"); w != nil {
		warnings = append(warnings, w.Text)
	}
	if shown.String() != "hello worl" || !utf8.ValidString(shown.String()) || len(warnings) != 2 ||
		!strings.Contains(warnings[1], "16 bytes") {
		t.Fatalf("shown %q, warnings %q", shown.String(), warnings)
	}
}
