package stream

import (
	"strings"
	"testing"
	"unicode/utf8"

	"cdxtheme/core/chat"
)

func TestJoinTextFoldsRunsOfChunks(t *testing.T) {
	var evs []chat.Event
	for i := 0; i < 1000; i++ {
		evs = append(evs, chat.Event{SessionID: "s", Payload: chat.TextChunk{Text: "ab"}})
	}
	evs = append(evs, chat.Event{SessionID: "s", Payload: chat.ThoughtChunk{Text: "hm"}},
		chat.Event{SessionID: "s", Payload: chat.ThoughtChunk{Text: "m"}},
		chat.Event{SessionID: "s", Payload: chat.ToolCallStarted{}},
		chat.Event{SessionID: "s", Payload: chat.TextChunk{Text: "x"}},
		chat.Event{SessionID: "s", Replay: true, Payload: chat.TextChunk{Text: "y"}})
	out := JoinText(evs)
	if len(out) != 5 || chat.TextOf(out[0]) != strings.Repeat("ab", 1000) || chat.TextOf(out[1]) != "hmm" || out[1].Type() != chat.EventThought || out[2].Type() != chat.EventToolCall ||
		chat.TextOf(out[3]) != "x" || chat.TextOf(out[4]) != "y" || !out[4].Replay {
		t.Fatalf("joined into %d events: %+v", len(out), out[1:])
	}
}

// A flooding agent's text reaches the page up to the cap, cut between
// characters, with one warning where it was cut and the amount at the end.
func TestTextCapCutsAndSaysSo(t *testing.T) {
	c := TextCap{Max: 10}
	var shown strings.Builder
	var warnings []string
	for _, s := range []string{"hello", " wor", "ldé!", "more", "and more"} {
		ev, warn, keep := c.Pass(chat.Event{Payload: chat.TextChunk{Text: s}})
		if keep {
			shown.WriteString(chat.TextOf(ev))
		}
		if warn != nil {
			warnings = append(warnings, chat.TextOf(*warn))
		}
	}
	if ev, _, keep := c.Pass(chat.Event{Payload: chat.ToolCallStarted{}}); !keep || ev.Type() != chat.EventToolCall {
		t.Fatal("a tool call past the cap was dropped")
	}
	if w := c.Summary("t", "s"); w != nil {
		warnings = append(warnings, chat.TextOf(*w))
	}
	if shown.String() != "hello worl" || !utf8.ValidString(shown.String()) || len(warnings) != 2 ||
		!strings.Contains(warnings[1], "16 bytes") {
		t.Fatalf("shown %q, warnings %q", shown.String(), warnings)
	}
}

// The cap's warnings name sizes in the unit a user reads at a glance: a
// cap of exactly 1 GiB or 1 MiB is said as such, not as 1024 of the unit
// below.
func TestByteSizeAtEachUnitsBoundary(t *testing.T) {
	for n, want := range map[int64]string{
		1 << 30: "1.0 GiB", 1<<30 - 1<<20: "1023 MiB", 1 << 20: "1 MiB", 1<<20 - 1<<10: "1023.0 KiB",
		1 << 10: "1.0 KiB", 1<<10 - 1: "1023 bytes",
	} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
