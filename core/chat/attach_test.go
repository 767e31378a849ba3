package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/internal/testrig/acpstub"
)

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestAttachmentBlocksFollowPromptCapabilities(t *testing.T) {
	// An absolute path outside on every OS (/etc/passwd is rooted, not
	// absolute, on Windows).
	outside := filepath.Join(t.TempDir(), "passwd")
	must(t, os.WriteFile(outside, []byte("root:x:0:0"), 0o644))
	all := acp.PromptCapabilities{Image: true, Audio: true, EmbeddedContext: true}
	none := acp.PromptCapabilities{}
	tests := []struct {
		name    string
		att     Attachment
		caps    acp.PromptCapabilities
		want    string // block type, or "" when refused
		wantErr string
	}{
		{"image inline", Attachment{Name: "shot.png", MimeType: "image/png", Data: png}, all, acp.BlockImage, ""},
		{"image type from the name", Attachment{Name: "shot.png", Data: png}, all, acp.BlockImage, ""},
		{"image refused", Attachment{Name: "shot.png", MimeType: "image/png", Data: png}, none, "", "does not accept images, so shot.png was not sent"},
		{"audio refused", Attachment{Name: "a.wav", MimeType: "audio/wav", Data: []byte("RIFF")}, none, "", "does not accept audio"},
		{"text embedded", Attachment{Name: "notes.md", Data: []byte("# teal")}, all, acp.BlockResource, ""},
		{"text linked when nothing may be embedded", Attachment{Name: "notes.md", Data: []byte("# teal")}, none, acp.BlockResourceLink, ""},
		{"workspace file linked", Attachment{Path: "theme.json"}, none, acp.BlockResourceLink, ""},
		{"file outside refused", Attachment{Path: outside}, all, "", "only files inside the workspace"},
		{"too big", Attachment{Name: "big.png", Data: make([]byte, MaxAttachmentBytes+1)}, all, "", "big.png is 10.0 MiB; one attachment may be at most 10.0 MiB"},
		{"empty", Attachment{Name: "e.txt"}, all, "", "e.txt is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			os.WriteFile(filepath.Join(cwd, "theme.json"), []byte("{}"), 0o644)
			blocks, err := attachmentBlocks([]Attachment{tc.att}, tc.caps, cwd)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(blocks) != 1 || blocks[0].Type != tc.want {
				t.Fatalf("blocks = %+v, want one %s", blocks, tc.want)
			}
			// Every block must be one the agent can take and we can send.
			if err := CheckPrompt(blocks, tc.caps, cwd); err != nil {
				t.Fatal(err)
			}
			if _, err := blocks[0].MarshalJSON(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestEmbeddedBinaryIsABlob(t *testing.T) {
	b := embedded(Attachment{Name: "font.woff2", Data: []byte{0, 1, 2, 0xff}}, "font/woff2")
	if b.Resource == nil || b.Resource.Blob == nil || b.Resource.Text != nil {
		t.Fatalf("resource = %+v", b.Resource)
	}
	if got, _ := base64.StdEncoding.DecodeString(*b.Resource.Blob); !bytes.Equal(got, []byte{0, 1, 2, 0xff}) {
		t.Fatalf("blob = %q", *b.Resource.Blob)
	}
}

func TestSavedAttachmentsNeverOverwrite(t *testing.T) {
	cwd := t.TempDir()
	var paths []string
	for _, content := range []string{"one", "two"} {
		p, err := saveAttachment(cwd, Attachment{Name: "../../notes.txt", Data: []byte(content)})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	want := []string{filepath.Join(cwd, AttachDir, "notes.txt"), filepath.Join(cwd, AttachDir, "notes-2.txt")}
	for i, p := range paths {
		if p != want[i] {
			t.Fatalf("saved to %v, want %v", paths, want)
		}
	}
	if b, _ := os.ReadFile(paths[0]); string(b) != "one" {
		t.Fatalf("first file now holds %q", b)
	}
}

func TestTotalAttachmentSizeIsExplained(t *testing.T) {
	atts := []Attachment{
		{Name: "a.png", Data: make([]byte, 9<<20)},
		{Name: "b.png", Data: make([]byte, 9<<20)},
		{Name: "c.png", Data: make([]byte, 9<<20)},
	}
	err := CheckAttachments(atts)
	if err == nil || !strings.Contains(err.Error(), "add up to 27.0 MiB; one message may carry at most 25.0 MiB") {
		t.Fatalf("err = %v", err)
	}
}

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
	evs, _, err := runStub(t, e, Turn{Prompt: TextPrompt("look"), Attachments: []Attachment{
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
	evs, _, err = runStub(t, e, Turn{Prompt: TextPrompt("hi"), Attachments: []Attachment{{Path: "/etc/passwd"}}})
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

// The agent owns the workspace: an attachments folder it replaced with a
// link elsewhere is refused, and nothing is written there.
func TestSaveAttachmentRefusesALinkedFolder(t *testing.T) {
	cwd := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(cwd, AttachDir)); err != nil {
		t.Fatal(err)
	}
	_, err := saveAttachment(cwd, Attachment{Name: "notes.txt", Data: []byte("hi")})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(cwd, AttachDir)) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err %v; want a refusal naming the link", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
}
