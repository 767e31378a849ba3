package codexhome

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders t as a readable Markdown thread: a title, the
// session's cwd and date, then ## User / ## Assistant sections and tool
// calls as fenced blocks with command, exit code and output.
func WriteMarkdown(w io.Writer, t Transcript) error {
	bw := bufio.NewWriter(w)
	title := t.Title
	if title == "" {
		title = "Codex session " + t.ID
	}
	fmt.Fprintf(bw, "# %s\n\n", oneLine(title))
	fmt.Fprintf(bw, "- Session: `%s`\n", t.ID)
	if t.Cwd != "" {
		fmt.Fprintf(bw, "- Folder: `%s`\n", t.Cwd)
	}
	date := t.Started
	if date.IsZero() && len(t.Messages) > 0 {
		date = t.Messages[0].Time
	}
	if !date.IsZero() {
		fmt.Fprintf(bw, "- Date: %s\n", date.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if t.Skipped > 0 {
		fmt.Fprintf(bw, "- Unreadable lines skipped: %d\n", t.Skipped)
	}
	for _, m := range t.Messages {
		switch m.Role {
		case RoleUser:
			fmt.Fprintf(bw, "\n## User\n\n%s\n", strings.TrimSpace(m.Text))
		case RoleAssistant:
			fmt.Fprintf(bw, "\n## Assistant\n\n%s\n", strings.TrimSpace(m.Text))
		case RoleTool:
			writeTool(bw, m)
		case RoleNotice:
			fmt.Fprintf(bw, "\n_%s_\n", oneLine(m.Text))
		}
	}
	return bw.Flush()
}

func writeTool(w io.Writer, m Message) {
	tc := m.Tool
	if tc == nil {
		tc = &ToolCall{Name: "tool", Command: m.Text}
	}
	fmt.Fprintf(w, "\n### Tool: %s\n", oneLine(tc.Name))
	if tc.Command != "" {
		fmt.Fprintf(w, "\n%s\n", fenced("sh", tc.Command))
	}
	if tc.ExitCode != nil {
		fmt.Fprintf(w, "\nExit code: %d\n", *tc.ExitCode)
	}
	if tc.Output != "" {
		fmt.Fprintf(w, "\n%s\n", fenced("text", tc.Output))
	}
}

// fenced wraps s in a code fence longer than any backtick run inside it,
// so tool output containing ``` cannot break out of its block.
func fenced(lang, s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
