package codexhome

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"cdxtheme/core/fsread"
)

// WriteMarkdown renders a transcript as a readable Markdown thread,
// streaming: a title, the session's cwd and date, then ## User /
// ## Assistant sections and tool calls as fenced blocks with command, exit
// code and output; at the end, what was skipped or cut.
func WriteMarkdown(w io.Writer, r *TranscriptReader) error {
	h, err := r.Header()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	title := h.Title
	if title == "" {
		title = "Codex session " + h.ID
	}
	fmt.Fprintf(bw, "# %s\n\n", oneLine(title))
	fmt.Fprintf(bw, "- Session: `%s`\n", h.ID)
	if h.Cwd != "" {
		fmt.Fprintf(bw, "- Folder: `%s`\n", h.Cwd)
	}
	if !h.Started.IsZero() {
		fmt.Fprintf(bw, "- Date: %s\n", h.Started.UTC().Format("2006-01-02 15:04 UTC"))
	}
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			bw.Flush()
			return err
		}
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
	if n := r.Skipped(); n > 0 {
		fmt.Fprintf(bw, "\n---\n\n- Unreadable lines skipped: %d\n", n)
	}
	if r.Truncated() {
		fmt.Fprintf(bw, "\n---\n\n%s\n", TooLargeNote(r.Count()))
	}
	return bw.Flush()
}

// TooLargeNote is the sentence for a transcript cut at MaxUnpacked.
func TooLargeNote(shown int) string {
	return fmt.Sprintf("Too large: showing the first %d messages (the session unpacks to more than %s).", shown, fsread.Size(maxUnpacked))
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
