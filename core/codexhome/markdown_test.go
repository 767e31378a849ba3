package codexhome

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteMarkdownSample(t *testing.T) {
	h := copyHome(t)
	tr, err := h.Transcript(context.Background(), idOld)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, tr); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	// The parts a reader looks for, in order.
	wantInOrder := []string{
		"# Theme please\n",
		"- Session: `" + idOld + "`",
		"- Folder: `/home/dev/themes/work`",
		"- Date: 2026-12-02 09:25 UTC",
		"## User\n\nTheme please\n",
		"## Assistant\n\nHello from the mock model! You said: Theme please\n",
		"## User\n\nnow run it\n",
		"### Tool: exec_command\n\n```sh\necho hello-from-shell\n```\n\nExit code: 0\n\n```text\nhello-from-shell\n```\n",
		"## User\n\nplease edit the theme\n",
		"```sh\napply_patch <<'EOF'\n",
		"```text\nSuccess. Updated the following files:\nA theme.css\n```",
	}
	rest := md
	for _, w := range wantInOrder {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("markdown lacks (or misorders) %q:\n%s", w, md)
		}
		rest = rest[i+len(w):]
	}
	for _, bad := range []string{"<environment_context>", "<permissions instructions>"} {
		if strings.Contains(md, bad) {
			t.Errorf("injected context %q leaked into the export", bad)
		}
	}
	if n := strings.Count(md, "## User"); n != 3 {
		t.Errorf("%d user sections, want 3 (no duplicates from events)", n)
	}
}

func TestWriteMarkdownEdgeCases(t *testing.T) {
	code := 1
	tr := Transcript{
		ID:      "abc",
		Skipped: 2,
		Messages: []Message{
			{Role: RoleTool, Time: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), Tool: &ToolCall{Name: "shell", Command: "cat README.md", ExitCode: &code, Output: "```go\nx\n```\n"}},
		},
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, tr); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, w := range []string{"# Codex session abc", "- Date: 2026-01-02 03:04 UTC", "- Unreadable lines skipped: 2", "Exit code: 1", "````text\n```go\nx\n```\n````"} {
		if !strings.Contains(md, w) {
			t.Errorf("missing %q in:\n%s", w, md)
		}
	}
}

func TestWriteMarkdownFromFile(t *testing.T) {
	tr, err := ReadRollout(context.Background(), filepath.Join("testdata", "home", relNew))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, tr); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "## Assistant"); got != 3 {
		t.Errorf("%d assistant sections, want 3", got)
	}
}
