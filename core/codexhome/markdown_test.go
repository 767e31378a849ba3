package codexhome

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteMarkdownSample(t *testing.T) {
	h := copyHome(t)
	tr, err := h.OpenTranscript(context.Background(), idOld)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
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
	// No session_meta, two broken lines, a tool call whose output holds a
	// code fence.
	p := filepath.Join(t.TempDir(), "rollout-2026-01-02T03-04-00-"+"0a2360f0-02d3-7551-b339-f4d167fb91c8.jsonl")
	line := func(ts string, payload map[string]any) string {
		b, _ := json.Marshal(map[string]any{"timestamp": ts, "type": "response_item", "payload": payload})
		return string(b) + "\n"
	}
	inner, _ := json.Marshal(map[string]any{"output": "```go\nx\n```\n", "metadata": map[string]any{"exit_code": 1}})
	lines := line("2026-01-02T03:04:00Z", map[string]any{"type": "function_call", "name": "shell", "call_id": "c1", "arguments": `{"cmd":"cat README.md"}`}) +
		"not json\n" +
		line("2026-01-02T03:04:01Z", map[string]any{"type": "function_call_output", "call_id": "c1", "output": string(inner)}) +
		`{"broken":` + "\n"
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRollout(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b strings.Builder
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, w := range []string{"# Codex session 0a2360f0-02d3-7551-b339-f4d167fb91c8", "- Date: 2026-01-02 03:04 UTC", "- Unreadable lines skipped: 2", "Exit code: 1", "````text\n```go\nx\n```\n````"} {
		if !strings.Contains(md, w) {
			t.Errorf("missing %q in:\n%s", w, md)
		}
	}
}

func TestWriteMarkdownFromFile(t *testing.T) {
	r, err := OpenRollout(context.Background(), filepath.Join(copyHome(t).Dir, relNew))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b strings.Builder
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "## Assistant"); got != 3 {
		t.Errorf("%d assistant sections, want 3", got)
	}
}
