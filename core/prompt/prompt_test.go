package prompt

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/inside"
)

// errMatches checks err against want; "no such file" is fs.ErrNotExist,
// whose text is the OS's own ("The system cannot find the file specified"
// on Windows).
func errMatches(err error, want string) bool {
	if want == "no such file" {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err != nil && strings.Contains(err.Error(), want)
}

func TestFileLink(t *testing.T) {
	ws := t.TempDir()
	other := t.TempDir()
	must(t, os.WriteFile(filepath.Join(ws, "theme.json"), []byte(`{"a":1}`), 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(other, "secret.txt"), []byte("x"), 0o644))
	must(t, os.Symlink(filepath.Join(other, "secret.txt"), filepath.Join(ws, "escape.txt")))
	tests := []struct {
		path    string
		wantErr string
		wantURI string
	}{
		{"theme.json", "", inside.FileURI(filepath.Join(ws, "theme.json"))},
		{filepath.Join(ws, "theme.json"), "", inside.FileURI(filepath.Join(ws, "theme.json"))},
		{"../" + filepath.Base(other) + "/secret.txt", "inside the workspace", ""},
		{filepath.Join(other, "secret.txt"), "inside the workspace", ""},
		{"escape.txt", "inside the workspace", ""},
		{"sub", "not a regular file", ""},
		{"missing.json", "no such file", ""},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			b, err := FileLink(ws, tc.path)
			if tc.wantErr != "" {
				if !errMatches(err, tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Type != acp.BlockResourceLink || b.URI != tc.wantURI || b.Name != "theme.json" || *b.Size != 7 || b.MimeType != "application/json" {
				t.Fatalf("block = %+v", b)
			}
		})
	}
}

func TestCheckPrompt(t *testing.T) {
	ws := t.TempDir()
	all := acp.PromptCapabilities{Image: true, Audio: true, EmbeddedContext: true}
	none := acp.PromptCapabilities{}
	must(t, os.WriteFile(filepath.Join(ws, "a.json"), []byte("{}"), 0o644))
	linkIn := acp.ContentBlock{Type: acp.BlockResourceLink, URI: inside.FileURI(filepath.Join(ws, "a.json")), Name: "a.json"}
	missing := acp.ContentBlock{Type: acp.BlockResourceLink, URI: inside.FileURI(filepath.Join(ws, "gone.json")), Name: "gone.json"}
	tests := []struct {
		name    string
		blocks  []acp.ContentBlock
		caps    acp.PromptCapabilities
		wantErr string
	}{
		{"text always", Text("hi"), none, ""},
		{"link inside always", []acp.ContentBlock{linkIn}, none, ""},
		{"image allowed", []acp.ContentBlock{ImageBlock([]byte{1}, "image/png")}, all, ""},
		{"image refused", []acp.ContentBlock{ImageBlock([]byte{1}, "image/png")}, none, "does not accept images"},
		{"audio refused", []acp.ContentBlock{AudioBlock([]byte{1}, "audio/wav")}, none, "does not accept audio"},
		{"resource refused", []acp.ContentBlock{ResourceBlock("file:///x", "text/plain", "x")}, none, "embedded resources"},
		{"link outside", []acp.ContentBlock{{Type: acp.BlockResourceLink, URI: "file:///etc/passwd", Name: "passwd"}}, all, "inside the workspace"},
		{"link outside through dot-dot", []acp.ContentBlock{{Type: acp.BlockResourceLink, URI: inside.FileURI(ws) + "/%2e%2e/x", Name: "x"}}, all, "inside the workspace"},
		{"link to a missing file", []acp.ContentBlock{missing}, all, "no such file"},
		{"link not a file", []acp.ContentBlock{{Type: acp.BlockResourceLink, URI: "https://example.com/x", Name: "x"}}, all, "not a file://"},
		{"unknown block", []acp.ContentBlock{{Type: "hologram"}}, all, "unknown content type"},
		{"empty", nil, all, "empty prompt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.blocks, tc.caps, ws)
			if (tc.wantErr == "") != (err == nil) || (err != nil && !errMatches(err, tc.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
