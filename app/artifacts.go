package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"cdxtheme/app/artifact"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/chat"
	"cdxtheme/core/inside"
)

// Artifact is one entry of a build's artifacts, checked against the
// workspace now (artifact.Artifact: its fields are the page's).
type Artifact artifact.Artifact

// ArtifactsEvent is the payload of the "artifacts" event.
type ArtifactsEvent struct {
	WorkspaceID string     `json:"workspaceId"`
	Artifacts   []Artifact `json:"artifacts"`
}

// describe checks each artifact against the workspace as it is now.
func describe(root string, refs []artifact.Ref) []Artifact {
	d := artifact.Describe(root, refs)
	out := make([]Artifact, len(d))
	for i, a := range d {
		out[i] = Artifact(a)
	}
	return out
}

// observeTurn follows a build's turns for the artifacts they name.
func (bu *Builds) observeTurn(t *turnrun.Plan) func(chat.Event) {
	if t.WorkspaceID == "" {
		return nil
	}
	return func(ev chat.Event) { bu.noteArtifacts(t.WorkspaceID, t.Cwd, ev) }
}

// noteArtifacts looks at one turn event for links and written files and
// emits the workspace's list when it has something new. Called with the
// events in order, from the turn's emitter.
func (bu *Builds) noteArtifacts(workspaceID, cwd string, ev chat.Event) {
	if workspaceID == "" {
		return
	}
	refs := artifact.RefsOf(ev, cwd)
	if len(refs) == 0 {
		return
	}
	list := bu.arts.Add(workspaceID, refs)
	// Emitted also when nothing was added: an edited file's preview changed.
	bu.emit.Emit("artifacts", ArtifactsEvent{WorkspaceID: workspaceID, Artifacts: describe(cwd, list)})
}

// Artifacts lists what the agent linked or wrote in the workspace during
// this run, checked against the workspace now.
func (bu *Builds) Artifacts(workspaceID string) ([]Artifact, error) {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return nil, err
	}
	return describe(ws.Dir, bu.arts.List(workspaceID)), nil
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
