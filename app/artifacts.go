package app

import (
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/fsread"
	"cdxtheme/core/inside"
)

// Artifacts are what the agent produced for the user: resource_link blocks
// it sent, and files it created or edited (tool calls with a diff, edit
// locations). They are kept per workspace for this run of the app.

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

// ArtifactsEvent is the payload of the "artifacts" event.
type ArtifactsEvent struct {
	WorkspaceID string     `json:"workspaceId"`
	Artifacts   []Artifact `json:"artifacts"`
}

type artifactRef struct {
	uri, name, mimeType, source string
}

// artifacts are what each build's turns named, Builds' own (a turn notes
// them, Artifacts reads them).
type artifacts struct {
	mu   sync.Mutex
	byWS map[string][]artifactRef // workspace id → in order of appearance
}

// observeTurn follows a build's turns for the artifacts they name.
func (bu *Builds) observeTurn(t *turnPlan) func(chat.Event) {
	if t.workspaceID == "" {
		return nil
	}
	return func(ev chat.Event) { bu.noteArtifacts(t.workspaceID, t.cwd, ev) }
}

// noteArtifacts looks at one turn event for links and written files and
// emits the workspace's list when it has something new. Called with the
// events in order, from the turn's emitter.
func (bu *Builds) noteArtifacts(workspaceID, cwd string, ev chat.Event) {
	if workspaceID == "" {
		return
	}
	refs := artifactRefs(ev, cwd)
	if len(refs) == 0 {
		return
	}
	bu.arts.mu.Lock()
	if bu.arts.byWS == nil {
		bu.arts.byWS = map[string][]artifactRef{}
	}
	list := bu.arts.byWS[workspaceID]
	for _, r := range refs {
		found := false
		for i := range list {
			if list[i].uri == r.uri {
				found = true
				if list[i].source == SourceLink && r.source == SourceEdit {
					list[i].source = SourceEdit
				}
			}
		}
		if !found {
			list = append(list, r)
		}
	}
	bu.arts.byWS[workspaceID] = list
	bu.arts.mu.Unlock()
	// Emitted also when nothing was added: an edited file's preview changed.
	bu.emit.Emit("artifacts", ArtifactsEvent{WorkspaceID: workspaceID, Artifacts: describe(cwd, list)})
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

// artifactRefs reads the links and written files out of one event.
func artifactRefs(ev chat.Event, cwd string) []artifactRef {
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
		return []artifactRef{{uri: c.URI, name: name, mimeType: c.MimeType, source: SourceLink}}
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
		var out []artifactRef
		for _, p := range paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(cwd, p)
			}
			p = filepath.Clean(p)
			out = append(out, artifactRef{uri: inside.FileURI(p), name: filepath.Base(p), source: SourceEdit})
		}
		return out
	}
	return nil
}

// describe checks each artifact against the workspace as it is now.
func describe(root string, refs []artifactRef) []Artifact {
	out := make([]Artifact, 0, len(refs))
	for _, r := range refs {
		art := Artifact{URI: r.uri, Name: r.name, MimeType: r.mimeType, Source: r.source}
		u, err := url.Parse(r.uri)
		switch {
		case err == nil && (u.Scheme == "http" || u.Scheme == "https"):
			art.Web = true
		case err != nil || u.Scheme != "file":
			art.Problem = "only files and web links can be opened"
		default:
			p, fi, err := inside.Resolve(root, r.uri)
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

// Artifacts lists what the agent linked or wrote in the workspace during
// this run, checked against the workspace now.
func (bu *Builds) Artifacts(workspaceID string) ([]Artifact, error) {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return nil, err
	}
	bu.arts.mu.Lock()
	refs := append([]artifactRef(nil), bu.arts.byWS[workspaceID]...)
	bu.arts.mu.Unlock()
	return describe(ws.Dir, refs), nil
}

// OpenArtifact hands an artifact to the OS: a file only after checking it
// lies inside the workspace (symlinks followed), a web link through the
// browser checks; anything else is refused.
func (bu *Builds) OpenArtifact(workspaceID, uri string) error {
	u, err := url.Parse(strings.TrimSpace(uri))
	if err != nil {
		return fmt.Errorf("artifact %q: %w", uri, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return bu.desktop.openLink(uri)
	case "file", "":
		if err := bu.OpenPath(workspaceID, uri); err != nil {
			if errors.Is(err, inside.ErrOutside) {
				return fmt.Errorf("%s lies outside the workspace, so it is not opened", u.Path)
			}
			return err
		}
		return nil
	default:
		return fmt.Errorf("artifact %q: only files in the workspace and web links are opened", uri)
	}
}
