package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// The server is offered for a build only: an app workspace (with the
// app's record of its locks) or a folder holding theme.json; as the
// running binary by absolute path; never twice, and never over a user's
// own server of the same name.
func TestOfferForABuildOnly(t *testing.T) {
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	exe := filepath.Join(t.TempDir(), "cdxtheme") // absolute on every OS (C:\… on Windows)
	ws, err := workspace.Create(workspace.Root(), "t", "")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Name, Command string
		Args          []string
	}
	json.Unmarshal(ForBuild(exe, ws.Dir), &got)
	if got.Name != ServerName || got.Command != exe || len(got.Args) != 4 || got.Args[0] != "mcp" || got.Args[1] != "--edits" || got.Args[3] != ws.Dir {
		t.Errorf("offer for an app workspace: %+v", got)
	}
	plain := t.TempDir()
	if ForBuild(exe, plain) != nil {
		t.Error("offered for a folder that is no build")
	}
	os.WriteFile(filepath.Join(plain, theme.FileName), theme.ExampleJSON(), 0o644)
	json.Unmarshal(ForBuild(exe, plain), &got)
	if len(got.Args) != 2 || got.Args[1] != plain {
		t.Errorf("offer for a folder with theme.json: %+v", got)
	}
	if ForBuild("cdxtheme", plain) != nil {
		t.Error("offered by a bare name the agent would look up on its own PATH")
	}
	user := json.RawMessage(`{"name":"files","command":"/bin/files","args":[],"env":[]}`)
	if l := With([]json.RawMessage{user}, ForBuild(exe, plain)); len(l) != 2 {
		t.Errorf("with the user's server: %s", l)
	}
	mine := json.RawMessage(`{"name":"cdxtheme","command":"/home/me/mine","args":[],"env":[]}`)
	if l := With([]json.RawMessage{mine}, ForBuild(exe, plain)); len(l) != 1 || string(l[0]) != string(mine) {
		t.Errorf("a user's server named cdxtheme was replaced or doubled: %s", l)
	}
	if l := With(nil, nil); len(l) != 0 {
		t.Errorf("nothing offered: %s", l)
	}
}
