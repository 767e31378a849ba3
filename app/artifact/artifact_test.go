package artifact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/inside"
	"cdxtheme/internal/testrig/winlink"
)

func TestArtifactRefsAndPreviews(t *testing.T) {
	root := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\nfake")
	os.WriteFile(filepath.Join(root, "swatch.png"), png, 0o644)
	os.WriteFile(filepath.Join(root, "big.png"), make([]byte, maxPreview+1), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("not yours"), 0o644)
	winlink.SymlinkOrSkip(t, outside, filepath.Join(root, "sneaky.txt"))
	tool := func(kind string, tc acp.ToolCall) chat.Event {
		tc.ToolCallID, tc.Kind = "c1", &kind
		return chat.Event{Payload: chat.ToolCallStarted{ToolCall: &tc}}
	}
	refs := RefsOf(tool(acp.ToolEdit, acp.ToolCall{Locations: []acp.ToolCallLocation{{Path: "swatch.png"}},
		Content: []acp.ToolCallContent{{Type: acp.ToolContentDiff, Path: filepath.Join(root, "big.png")}}}), root)
	refs = append(refs, RefsOf(tool("read", acp.ToolCall{Locations: []acp.ToolCallLocation{{Path: "/etc/hosts"}}}), root)...)
	refs = append(refs, Ref{URI: inside.FileURI(filepath.Join(root, "sneaky.txt")), Name: "sneaky.txt", Source: SourceLink})
	arts := Describe(root, refs)
	var got []string
	for _, a := range arts {
		got = append(got, a.Name)
	}
	if strings.Join(got, ",") != "big.png,swatch.png,sneaky.txt" {
		t.Fatalf("artifacts = %v (a read location is not an artifact)", got)
	}
	if arts[0].Preview != "" {
		t.Fatal("an image over the preview limit got a preview")
	}
	if want := "data:image/png;base64,iVBORw0KGgpmYWtl"; arts[1].Preview != want {
		t.Fatalf("preview = %q, want %q", arts[1].Preview, want)
	}
	if arts[2].Inside || !strings.Contains(arts[2].Problem, "outside") {
		t.Fatalf("a symlink out of the workspace was accepted: %+v", arts[2])
	}
}

// An artifact the agent names by a link that is neither a file nor a web
// page (mailto:, ftp:) says why it cannot be opened instead of showing as
// a card that does nothing.
func TestArtifactOfAnotherSchemeSaysItCannotBeOpened(t *testing.T) {
	root := t.TempDir()
	arts := Describe(root, []Ref{{URI: "ftp://example.com/theme.json", Name: "theme.json"}, {URI: "mailto:a@example.com", Name: "mail"}})
	for _, a := range arts {
		if a.Problem != "only files and web links can be opened" || a.Inside || a.Web {
			t.Errorf("%s: %+v, want it refused as neither a file nor a web link", a.URI, a)
		}
	}
}

// A file the agent names before it wrote it says so on its card, rather
// than offering to open a file that is not there.
func TestArtifactNotWrittenYetSaysSo(t *testing.T) {
	root := t.TempDir()
	arts := Describe(root, []Ref{{URI: inside.FileURI(filepath.Join(root, "later.json")), Name: "later.json"}})
	if len(arts) != 1 || arts[0].Problem != "not there (yet)" || arts[0].Inside {
		t.Fatalf("artifacts = %+v, want the missing file said to be not there (yet)", arts)
	}
}
