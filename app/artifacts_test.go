package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/artifact"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/internal/testrig/acpstub"
)

func TestLinkedFilesBecomeArtifactsAndOutsideOnesAreRefused(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Here are the files: ")
		for _, p := range []string{filepath.Join(turn.Cwd(), "theme.json"), "/etc/passwd"} {
			uri := "file://" + filepath.ToSlash(p) // file:///C:/dir/x on Windows (RFC 8089)
			if filepath.VolumeName(p) != "" {
				uri = "file:///" + filepath.ToSlash(p)
			}
			u, _ := json.Marshal(uri)
			turn.Update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","name":"` + filepath.Base(p) + `","uri":` + string(u) + `,"mimeType":"text/plain"}}`)
		}
		return "end_turn"
	})
	a, rec := newStubApp(t, ag)
	var opened []string
	a.Desktop.openFile = func(p string) error { opened = append(opened, p); return nil }
	var links []string
	a.Desktop.openURL = func(u string) { links = append(links, u) }
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "show me the files"})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, started.TurnID)
	// The link inside points at theme.json, which exists once written.
	if err := os.WriteFile(filepath.Join(started.Cwd, "theme.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	arts, err := a.Builds.Artifacts(started.WorkspaceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 2 {
		t.Fatalf("artifacts = %+v", arts)
	}
	inside, outside := arts[0], arts[1]
	if !inside.Inside || inside.Name != "theme.json" || inside.Source != artifact.SourceLink || inside.Problem != "" {
		t.Fatalf("inside = %+v", inside)
	}
	if outside.Inside || outside.Name != "passwd" || !strings.Contains(outside.Problem, "outside the workspace") {
		t.Fatalf("outside = %+v", outside)
	}
	if err := a.Builds.OpenArtifact(started.WorkspaceID, outside.URI); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Fatalf("the outside link was opened: %v", err)
	}
	if err := a.Builds.OpenArtifact(started.WorkspaceID, inside.URI); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"javascript:alert(1)", "file:///etc/shadow"} {
		if err := a.Builds.OpenArtifact(started.WorkspaceID, bad); err == nil {
			t.Fatalf("%s was opened", bad)
		}
	}
	if err := a.Builds.OpenArtifact(started.WorkspaceID, "https://example.org/palette"); err != nil || len(links) != 1 {
		t.Fatalf("web link: %v %v", err, links)
	}
	if len(opened) != 1 || filepath.Base(opened[0]) != "theme.json" {
		t.Fatalf("opened %v", opened)
	}
}

func TestWrittenFilesBecomeArtifactsWithAPreview(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "write the theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, started.TurnID)
	arts, err := a.Builds.Artifacts(started.WorkspaceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 1 || arts[0].Name != "theme.json" || arts[0].Source != artifact.SourceEdit || !arts[0].Inside || arts[0].Size == 0 {
		t.Fatalf("artifacts = %+v", arts)
	}
	if arts[0].Preview != "" {
		t.Fatal("a JSON file got an image preview")
	}
	rec.mu.Lock()
	n := rec.emits["artifacts"]
	rec.mu.Unlock()
	if n == 0 {
		t.Fatal("no artifacts event reached the UI")
	}
	// The same file named another way by a later edit ("./x", "sub/../x")
	// is still the one artifact.
	kind := acp.ToolEdit
	a.Builds.noteArtifacts(started.WorkspaceID, started.Cwd, chat.Event{Payload: chat.ToolCallStarted{ToolCall: &acp.ToolCall{ToolCallID: "c9", Kind: &kind,
		Locations: []acp.ToolCallLocation{{Path: "./theme.json"}, {Path: started.Cwd + "/tmp/../theme.json"}, {Path: started.Cwd + "//./theme.json"}}}}})
	if arts, err := a.Builds.Artifacts(started.WorkspaceID); err != nil || len(arts) != 1 {
		t.Fatalf("after edits naming theme.json otherwise: %+v %v", arts, err)
	}
}
