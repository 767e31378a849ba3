package chat

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
)

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestAttachmentsReachTheAgentAsBlocks(t *testing.T) {
	ag := acpstub.New() // takes images and embedded resources (New's initialize)
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		var kinds []string
		for _, raw := range turn.Prompt {
			var b struct{ Type string }
			json.Unmarshal(raw, &b)
			kinds = append(kinds, b.Type)
		}
		turn.Say("Blocks: " + strings.Join(kinds, ", "))
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{})
	evs, _, err := runStub(t, e, Turn{Prompt: prompt.Text("look"), Attachments: []prompt.Attachment{
		{Name: "shot.png", MimeType: "image/png", Data: png},
		{Name: "palette.txt", Data: []byte("teal #008080")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(evs, EventText); got != "Blocks: text, image, resource" {
		t.Fatalf("agent received %q", got)
	}
	// A refused attachment fails the turn before anything is prompted.
	evs, _, err = runStub(t, e, Turn{Prompt: prompt.Text("hi"), Attachments: []prompt.Attachment{{Path: "/etc/passwd"}}})
	if ce, ok := errors.AsType[*Error](err); !ok || ce.Code != CodeInput {
		t.Fatalf("err = %v, want input", err)
	}
	// The composer still learns what the agent takes (its attach buttons).
	if i := indexOf(evs, EventAgent); i < 0 || evs[i].Payload.(AgentCapabilities).Capabilities == nil || !evs[i].Payload.(AgentCapabilities).Capabilities.Image {
		t.Fatalf("no agent event with the agent's capabilities in a refused turn: %v", types(evs))
	}
	if n := count(ag.Methods(), "session/prompt"); n != 1 {
		t.Fatalf("%d prompts sent, want 1", n)
	}
}
