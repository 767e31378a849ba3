//go:build unix

package app

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
)

// A workspace holds the user's prompts (its title is the first), their
// attachments and every checkpoint of the agent's files: after a build and
// a turn with an attachment, the workspaces folder and the workspace are
// 0700 and everything the app wrote there is 0600 (folders 0700), whatever
// the umask.
func TestWorkspaceIsPrivateAfterABuildAndATurn(t *testing.T) {
	old := umask(0o022)
	defer umask(old)
	ag := acpstub.New()
	// No embedded context: attachments then go into the workspace as files.
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true}}}`), nil
	})
	// The agent writes its theme (a checkpoint keeps it), as Codex does: a
	// plain write, umask and all.
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		path := filepath.Join(turn.Cwd(), "theme.json")
		turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"edit","title":"Edit theme.json","status":"in_progress","locations":[{"path":` + strconv.Quote(path) + `}]}`)
		os.WriteFile(path, []byte(`{"name":"Dusk `+turn.Text()+`","appearance":"dark"}`), 0o644)
		turn.Update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`)
		turn.Say("Theme ready.")
		return "end_turn"
	})
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "A private dusk theme")
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "warmer",
		Attachments: []prompt.Attachment{{Name: "mood.txt", MimeType: "text/plain", Data: []byte("warm, like late sun")}}})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, id)

	for _, d := range []string{filepath.Dir(started.Cwd), started.Cwd} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want 0700", d, fi.Mode().Perm(), err)
		}
	}
	seen := map[string]bool{}
	filepath.WalkDir(started.Cwd, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		rel, _ := filepath.Rel(started.Cwd, p)
		top := strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
		// What the app writes: its metadata, the agent's brief, attachments,
		// checkpoints (the agent's own files are the agent's).
		if rel == "." || !(top == ".cdxtheme.json" || top == "AGENTS.md" || top == prompt.AttachDir || top == ".cdxtheme") {
			return nil
		}
		fi, _ := d.Info()
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", rel, fi.Mode().Perm(), want)
		}
		if strings.HasPrefix(filepath.ToSlash(rel), ".cdxtheme/checkpoints/objects/") {
			seen["checkpoint object"] = true
		}
		if top == prompt.AttachDir && !d.IsDir() {
			seen["attachment"] = true
		}
		seen[top] = true
		return nil
	})
	for _, k := range []string{".cdxtheme.json", "AGENTS.md", "checkpoint object", "attachment"} {
		if !seen[k] {
			t.Errorf("no %s was written, so its mode went unchecked (saw %v)", k, seen)
		}
	}
}
