package chat

import (
	"context"
	"testing"

	"cdxtheme/core/acp"
)

// Issue #37: Codex's "resuming with model X" warning, which codex-acp sends
// as agent text ("Warning: …\n\n"), is a notice, not the agent's answer;
// an answer that merely starts with the word stays the answer.
func TestAgentWarningIsANoticeNotTheAnswer(t *testing.T) {
	var got []Event
	l := &link{}
	ts := &turnState{ctx: context.Background(), emitFn: func(ev Event) { got = append(got, ev) }}
	l.turn = ts
	warn := "Warning: This session was recorded with model `gpt-5.4` but is resuming with `gpt-5.5`. Consider switching back to `gpt-5.4` as it may affect Codex performance.\n\n"
	for _, text := range []string{warn, "Warning: the contrast of ui.mutedText is low, so I raised it.", "Here is the theme."} {
		l.onUpdate(context.Background(), acp.SessionNotification{SessionID: "s", Update: acp.SessionUpdate{
			Kind: acp.UpdateAgentMessageChunk, Content: &acp.ContentBlock{Type: acp.BlockText, Text: text},
		}}, nil)
	}
	if len(got) != 3 {
		t.Fatalf("events %+v", got)
	}
	w, ok := got[0].Payload.(Warning)
	if !ok || w.Text != "This session was recorded with model `gpt-5.4` but is resuming with `gpt-5.5`. Consider switching back to `gpt-5.4` as it may affect Codex performance." {
		t.Errorf("the resume warning came as %T %+v, want a Warning notice", got[0].Payload, got[0].Payload)
	}
	for _, ev := range got[1:] {
		if _, ok := ev.Payload.(TextChunk); !ok {
			t.Errorf("the answer's text became %T", ev.Payload)
		}
	}
	if ts.output.Load() != true {
		t.Error("the answer's text did not count as output")
	}
}
