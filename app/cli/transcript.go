package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/notes"
	"cdxtheme/core/workspace"
)

func init() {
	register(command{
		name:    "transcript",
		summary: "print a saved Codex session's transcript (text, --json or --markdown)",
		run:     runTranscript,
	})
}

func runTranscript(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("transcript", "cdxtheme transcript ID [--json | --markdown] [--raw]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	asMD := fs.Bool("markdown", false, "print a Markdown export")
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	switch {
	case len(pos) == 0:
		return codexUsage(env, fs, "missing session ID (see `cdxtheme sessions`)")
	case len(pos) > 1:
		return codexUsage(env, fs, "unexpected argument %q", pos[1])
	case *asJSON && *asMD:
		return codexUsage(env, fs, "--json and --markdown exclude each other")
	}
	home := codexHomeFor(env)
	r, err := home.OpenTranscript(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme transcript: %v\n", err)
		if errors.Is(err, codexhome.ErrNotFound) {
			if hint := home.Hint(); hint != "" {
				fmt.Fprintf(env.Stderr, "note: %s\n", hint)
			}
		}
		return ExitError
	}
	defer r.Close()
	if h, err := r.Header(); err == nil {
		// The name the app shows: its build's, else the one the user gave it.
		n, _ := notes.Open(notes.DefaultPath()).Get()
		if title := workspace.SessionTitles(workspace.Root(), n.Titles)[h.ID]; title != "" {
			r.SetTitle(title)
		}
	}
	// Every form streams: a session of any size costs one message of memory.
	switch {
	case *asJSON:
		err = writeTranscriptJSON(env.exact(), r)
	case *asMD:
		// To a file or a pipe the export is exact; a terminal gets it cleaned.
		w := env.exact()
		if env.terminal {
			w = env.Stdout
		}
		err = codexhome.WriteMarkdown(w, r)
	default:
		err = printTranscriptText(env.Stdout, r)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme transcript: %v\n", err)
		return ExitError
	}
	if n := r.Skipped(); n > 0 {
		fmt.Fprintf(env.Stderr, "warning: %d unreadable lines skipped\n", n)
	}
	if r.Truncated() {
		fmt.Fprintf(env.Stderr, "warning: %s\n", codexhome.TooLargeNote(r.Count()))
	}
	return ExitOK
}

// writeTranscriptJSON writes {"id", "title", "cwd", "messages": [...]}
// (then "skipped" and "truncated" when they apply) as `--json` always
// has, one message at a time.
func writeTranscriptJSON(out io.Writer, r *codexhome.TranscriptReader) error {
	h, err := r.Header()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	field := func(name string, v any, last bool) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "  %q: %s", name, b)
		if !last {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("{\n")
	field("id", h.ID, false)
	field("title", h.Title, false)
	field("cwd", h.Cwd, false)
	w.WriteString(`  "messages": [`)
	for n := 0; ; n++ {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			if n > 0 {
				w.WriteString("\n  ")
			}
			break
		}
		if err != nil {
			w.Flush()
			return err
		}
		if n > 0 {
			w.WriteString(",")
		}
		b, err := json.MarshalIndent(m, "    ", "  ")
		if err != nil {
			return err
		}
		w.WriteString("\n    ")
		w.Write(b)
	}
	w.WriteString("]")
	var tail []func(bool)
	if n := r.Skipped(); n > 0 {
		tail = append(tail, func(last bool) { field("skipped", n, last) })
	}
	if r.Truncated() {
		tail = append(tail, func(last bool) { field("truncated", true, last) })
	}
	if len(tail) == 0 {
		w.WriteString("\n")
	} else {
		w.WriteString(",\n")
	}
	for i, f := range tail {
		f(i == len(tail)-1)
	}
	w.WriteString("}\n")
	return w.Flush()
}

func printTranscriptText(out io.Writer, r *codexhome.TranscriptReader) error {
	h, err := r.Header()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	title := h.Title
	if title == "" {
		title = "(no title)"
	}
	fmt.Fprintf(w, "%s\n%s  %s\n", title, h.ID, h.Cwd)
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			w.Flush()
			return err
		}
		fmt.Fprintf(w, "\n[%s %s]\n", m.Role, timeLabel(m.Time))
		if m.Tool == nil {
			fmt.Fprintln(w, strings.TrimSpace(m.Text))
			continue
		}
		status := ""
		if m.Tool.ExitCode != nil {
			status = fmt.Sprintf(" (exit %d)", *m.Tool.ExitCode)
		}
		fmt.Fprintf(w, "%s%s\n", m.Tool.Name, status)
		if m.Tool.Command != "" {
			fmt.Fprintln(w, indent("$ "+strings.TrimRight(m.Tool.Command, "\n")))
		}
		if out := strings.TrimRight(m.Tool.Output, "\n"); out != "" {
			fmt.Fprintln(w, indent(out))
		}
	}
	if r.Truncated() {
		fmt.Fprintf(w, "\n%s\n", codexhome.TooLargeNote(r.Count()))
	}
	return w.Flush()
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
