// Package artifact is what the agent produced for the user: resource_link
// blocks it sent, and files it created or edited (tool calls with a diff,
// edit locations), read out of a turn's events (RefsOf), kept per
// workspace for this run of the app (Store) and checked against the
// workspace as it is now (Describe), where a file is opened only inside it.
package artifact

import (
	"encoding/base64"
	"errors"
	"mime"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/fsread"
	"cdxtheme/core/inside"
)

// Artifact sources.
const (
	SourceLink = "link" // a resource_link in the agent's message
	SourceEdit = "edit" // a file the agent wrote
)

// maxPreview is the largest image shown as an inline preview.
const maxPreview = 2 << 20

// previewTypes are the image types the webview may show from a data: URL
// (raster only: nothing that carries script).
var previewTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// Artifact is one entry of the list, checked against the workspace now.
type Artifact struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MimeType string `json:"mimeType,omitempty"`
	Source   string `json:"source"`
	// Inside says the file exists inside the workspace, so it can be opened.
	Inside bool `json:"inside"`
	// Web is an http(s) link, opened in the browser instead.
	Web bool `json:"web,omitempty"`
	// Problem says why it cannot be opened ("" when it can).
	Problem string `json:"problem,omitempty"`
	Path    string `json:"path,omitempty"` // the file inside the workspace
	Size    int64  `json:"size,omitempty"`
	Preview string `json:"preview,omitempty"` // data: URL of a small image
}

// Ref is an artifact as a turn named it.
type Ref struct {
	URI, Name, MimeType, Source string
}

// Store is what each build's turns named, in order of appearance.
type Store struct {
	mu   sync.Mutex
	byWS map[string][]Ref // workspace id → in order of appearance
}

// Add notes refs for the workspace (a link later written is an edit) and
// returns its list now.
func (s *Store) Add(workspaceID string, refs []Ref) []Ref {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byWS == nil {
		s.byWS = map[string][]Ref{}
	}
	list := s.byWS[workspaceID]
	for _, r := range refs {
		found := false
		for i := range list {
			if list[i].URI == r.URI {
				found = true
				if list[i].Source == SourceLink && r.Source == SourceEdit {
					list[i].Source = SourceEdit
				}
			}
		}
		if !found {
			list = append(list, r)
		}
	}
	s.byWS[workspaceID] = list
	return slices.Clone(list)
}

// List is the workspace's artifacts as named so far.
func (s *Store) List(workspaceID string) []Ref {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.byWS[workspaceID])
}

// toolCallOf is the tool call an event announces or updates.
func toolCallOf(ev chat.Event) *acp.ToolCall {
	switch pl := ev.Payload.(type) {
	case chat.ToolCallStarted:
		return pl.ToolCall
	case chat.ToolCallUpdated:
		return pl.ToolCall
	}
	return nil
}

// RefsOf reads the links and written files out of one event.
func RefsOf(ev chat.Event, cwd string) []Ref {
	switch pl := ev.Payload.(type) {
	case chat.TextChunk:
		c := pl.Content
		if c == nil || c.Type != acp.BlockResourceLink || c.URI == "" {
			return nil
		}
		name := c.Name
		if name == "" {
			name = c.URI
		}
		return []Ref{{URI: c.URI, Name: name, MimeType: c.MimeType, Source: SourceLink}}
	case chat.ToolCallStarted, chat.ToolCallUpdated:
		tc := toolCallOf(ev)
		if tc == nil {
			return nil
		}
		var paths []string
		for _, c := range tc.Content {
			if c.Type == acp.ToolContentDiff && c.Path != "" {
				paths = append(paths, c.Path)
			}
		}
		if tc.Kind != nil && *tc.Kind == acp.ToolEdit {
			for _, l := range tc.Locations {
				if l.Path != "" {
					paths = append(paths, l.Path)
				}
			}
		}
		var out []Ref
		for _, p := range paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(cwd, p)
			}
			p = filepath.Clean(p)
			out = append(out, Ref{URI: inside.FileURI(p), Name: filepath.Base(p), Source: SourceEdit})
		}
		return out
	}
	return nil
}

// Describe checks each artifact against the workspace as it is now.
func Describe(root string, refs []Ref) []Artifact {
	out := make([]Artifact, 0, len(refs))
	for _, r := range refs {
		art := Artifact{URI: r.URI, Name: r.Name, MimeType: r.MimeType, Source: r.Source}
		u, err := url.Parse(r.URI)
		switch {
		case err == nil && (u.Scheme == "http" || u.Scheme == "https"):
			art.Web = true
		case err != nil || u.Scheme != "file":
			art.Problem = "only files and web links can be opened"
		default:
			p, fi, err := inside.Resolve(root, r.URI)
			if errors.Is(err, inside.ErrOutside) {
				art.Problem = "outside the workspace; not opened"
				break
			}
			if err != nil {
				art.Problem = "not there (yet)"
				break
			}
			if !fi.Mode().IsRegular() {
				art.Problem = "not a file"
				break
			}
			art.Inside, art.Path, art.Size = true, p, fi.Size()
			if art.MimeType == "" {
				art.MimeType = mime.TypeByExtension(strings.ToLower(filepath.Ext(p)))
			}
			art.Preview = preview(p, art.MimeType, fi.Size())
		}
		out = append(out, art)
	}
	return out
}

// preview is a data: URL for a small raster image, "" for anything else.
func preview(path, mimeType string, size int64) string {
	mt, _, _ := mime.ParseMediaType(mimeType)
	if !previewTypes[mt] || size > maxPreview {
		return ""
	}
	// The file is the agent's: never through a link, a FIFO or past the cap.
	b, err := fsread.ReadFile(path, maxPreview, fsread.NoFollow)
	if err != nil {
		return ""
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(b)
}
