package chat

import (
	"context"
	"errors"
	"testing"

	"cdxtheme/core/prompt"
)

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestAttachmentsReachTheAgentAsBlocks(t *testing.T) {
	h := newHarness(t, hopts{})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("#echo-blocks"), Attachments: []prompt.Attachment{
		{Name: "shot.png", MimeType: "image/png", Data: png},
		{Name: "palette.txt", Data: []byte("teal #008080")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Blocks: text, image, resource" {
		t.Fatalf("agent received %q", res.Text)
	}
	// A refused attachment fails the turn before anything is prompted.
	evs, _, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi"), Attachments: []prompt.Attachment{{Path: "/etc/passwd"}}})
	if ce, ok := errors.AsType[*Error](err); !ok || ce.Code != CodeInput {
		t.Fatalf("err = %v, want input", err)
	}
	// The composer still learns what the agent takes (its attach buttons).
	if i := indexOf(evs, EventAgent); i < 0 || evs[i].Payload.(AgentCapabilities).Capabilities == nil || !evs[i].Payload.(AgentCapabilities).Capabilities.Image {
		t.Fatalf("no agent event with the agent's capabilities in a refused turn: %v", types(evs))
	}
	if n := count(h.methods(), "session/prompt"); n != 1 {
		t.Fatalf("%d prompts sent, want 1", n)
	}
}
