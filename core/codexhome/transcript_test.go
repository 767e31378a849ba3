package codexhome

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/fixtures"
)

type wantMsg struct {
	role, text string
	tool       *ToolCall
}

var (
	wantNew = []wantMsg{
		{RoleUser, "Theme please", nil},
		{RoleAssistant, "Hello from the mock model! You said: Theme please", nil},
		{RoleUser, "now run it", nil},
		{RoleTool, "echo hello-from-shell", &ToolCall{Name: "exec_command", Command: "echo hello-from-shell", ExitCode: ptr(0), Output: "hello-from-shell\n"}},
		{RoleAssistant, "The command ran. Output: Chunk ID: f8d01c\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\nhello-from-shell", nil},
		{RoleUser, "Are you still there?", nil},
		{RoleAssistant, "Hello from the mock model! You said: Are you still there?", nil},
	}
	patchCmd = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: theme.css\n+:root { --accent: #ff6600; }\n*** End Patch\nEOF\n"
	wantOld  = []wantMsg{
		{RoleUser, "Theme please", nil},
		{RoleAssistant, "Hello from the mock model! You said: Theme please", nil},
		{RoleUser, "now run it", nil},
		{RoleTool, "echo hello-from-shell", &ToolCall{Name: "exec_command", Command: "echo hello-from-shell", ExitCode: ptr(0), Output: "hello-from-shell\n"}},
		{RoleAssistant, "The command ran. Output: Chunk ID: a9efd1\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\nhello-from-shell", nil},
		{RoleUser, "please edit the theme", nil},
		{RoleTool, patchCmd, &ToolCall{Name: "exec_command", Command: patchCmd, ExitCode: ptr(0), Output: "Success. Updated the following files:\nA theme.css\n"}},
		{RoleAssistant, "The command ran. Output: Wall time: 0.0000 seconds\nOutput:\nExit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA theme.css", nil},
	}
)

func checkMessages(t *testing.T, got []Message, want []wantMsg) {
	t.Helper()
	if len(got) != len(want) {
		var roles []string
		for _, m := range got {
			roles = append(roles, m.Role+":"+ShortTitle(m.Text))
		}
		t.Fatalf("got %d messages %q, want %d", len(got), roles, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Role != w.role || g.Text != w.text {
			t.Errorf("message %d = %s %q, want %s %q", i, g.Role, g.Text, w.role, w.text)
		}
		if g.Time.IsZero() {
			t.Errorf("message %d has no time", i)
		}
		if !reflect.DeepEqual(g.Tool, w.tool) {
			t.Errorf("message %d tool = %+v, want %+v", i, g.Tool, w.tool)
		}
	}
}

// sampleVariants writes each real sample as .jsonl and as .jsonl.zst.
func sampleVariants(t *testing.T) []struct {
	name, path, id string
	want           []wantMsg
} {
	dir := t.TempDir()
	var out []struct {
		name, path, id string
		want           []wantMsg
	}
	for _, s := range []struct {
		name, rel, id string
		want          []wantMsg
	}{{"0.166 paginated", relNew, idNew, wantNew}, {"0.137 classic", relOld, idOld, wantOld}} {
		b := fixtures.Read(filepath.ToSlash(s.rel))
		plain := filepath.Join(dir, filepath.Base(s.rel))
		writeFile(t, plain, b)
		zst := plain + ".zst"
		writeFile(t, zst, zstdBytes(t, b))
		out = append(out,
			struct {
				name, path, id string
				want           []wantMsg
			}{s.name, plain, s.id, s.want},
			struct {
				name, path, id string
				want           []wantMsg
			}{s.name + " zst", zst, s.id, s.want})
	}
	return out
}

func TestReadRolloutSamples(t *testing.T) {
	for _, tt := range sampleVariants(t) {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadRollout(context.Background(), tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if tr.ID != tt.id || tr.Cwd != "/home/dev/themes/work" || tr.Title != "Theme please" || tr.Skipped != 0 {
				t.Errorf("header = id %q cwd %q title %q skipped %d", tr.ID, tr.Cwd, tr.Title, tr.Skipped)
			}
			if tr.Started.IsZero() {
				t.Error("no start time")
			}
			checkMessages(t, tr.Messages, tt.want)
		})
	}
}

func TestReadRolloutDamage(t *testing.T) {
	b := fixtures.Read(fixtures.RolloutOld)
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:len(lines)-1] // drop the empty tail after the last newline
	// Cut the file in the middle of the last assistant response_item
	// (line 32): a writer caught mid-line.
	truncated := strings.Join(lines[:31], "") + lines[31][:len(lines[31])/2]
	garbage := strings.Join(lines[:5], "") + "not json at all\n{\"timestamp\":\n\x00\x01binary\n" + strings.Join(lines[5:], "")
	crlf := strings.ReplaceAll(string(b), "\n", "\r\n")
	tests := []struct {
		name        string
		data        string
		wantN       int
		wantSkipped int
		wantLast    string
	}{
		{"truncated last line", truncated, len(wantOld), 1, wantOld[len(wantOld)-1].text},
		{"garbage lines skipped and counted", garbage, len(wantOld), 3, wantOld[len(wantOld)-1].text},
		{"windows line ends", crlf, len(wantOld), 0, wantOld[len(wantOld)-1].text},
		{"empty file", "", 0, 0, ""},
		{"only garbage", "}{\n[\n", 0, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "rollout-2026-12-02T09-25-18-"+idOld+".jsonl")
			writeFile(t, p, []byte(tt.data))
			tr, err := ReadRollout(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Messages) != tt.wantN || tr.Skipped != tt.wantSkipped {
				t.Fatalf("got %d messages, %d skipped; want %d, %d", len(tr.Messages), tr.Skipped, tt.wantN, tt.wantSkipped)
			}
			if tt.wantN > 0 && tr.Messages[tt.wantN-1].Text != tt.wantLast {
				t.Errorf("last message = %q", tr.Messages[tt.wantN-1].Text)
			}
			if tr.ID != idOld {
				t.Errorf("id = %q, want it from the file name at least", tr.ID)
			}
		})
	}
}

func TestUnfinishedToolCallStillShown(t *testing.T) {
	b := fixtures.Read(fixtures.RolloutOld)
	lines := strings.SplitAfter(string(b), "\n")
	// Stop right after the first function_call (line 16): no output yet.
	p := filepath.Join(t.TempDir(), "rollout-x-"+idOld+".jsonl")
	writeFile(t, p, []byte(strings.Join(lines[:16], "")))
	tr, err := ReadRollout(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Messages[len(tr.Messages)-1]
	if last.Role != RoleTool || last.Tool.Command != "echo hello-from-shell" || last.Tool.ExitCode != nil || last.Tool.Output != "" {
		t.Errorf("last = %+v tool %+v", last, last.Tool)
	}
}

func TestReadRolloutMissingFile(t *testing.T) {
	_, err := ReadRollout(context.Background(), filepath.Join(t.TempDir(), "nope.jsonl"))
	if err == nil {
		t.Fatal("want an error for a missing file")
	}
}

// Paging through a transcript gives exactly the messages of a full read,
// in order, whatever the page size, and says when it is done.
func TestReadRolloutPage(t *testing.T) {
	for _, tt := range sampleVariants(t) {
		for _, size := range []int{1, 2, 3, 100} {
			t.Run(fmt.Sprintf("%s/limit %d", tt.name, size), func(t *testing.T) {
				full, err := ReadRollout(context.Background(), tt.path)
				if err != nil {
					t.Fatal(err)
				}
				var got []Message
				off := 0
				for pages := 0; ; pages++ {
					if pages > len(full.Messages)+2 {
						t.Fatal("paging does not end")
					}
					pg, err := ReadRolloutPage(context.Background(), tt.path, off, size)
					if err != nil {
						t.Fatal(err)
					}
					if pg.Offset != off || pg.NextOffset != off+len(pg.Messages) || pg.ID != tt.id || pg.Title != "Theme please" || pg.Cwd == "" {
						t.Fatalf("page header %+v", pg)
					}
					if len(pg.Messages) > size {
						t.Fatalf("page has %d messages, limit %d", len(pg.Messages), size)
					}
					got = append(got, pg.Messages...)
					off = pg.NextOffset
					if pg.Done {
						break
					}
				}
				checkMessages(t, got, tt.want)
				// Going back to an earlier page (served from checkpoints)
				// gives the same messages again.
				again, err := ReadRolloutPage(context.Background(), tt.path, 2, 2)
				if err != nil {
					t.Fatal(err)
				}
				checkMessages(t, again.Messages, tt.want[2:4])
			})
		}
	}
}

func TestReadRolloutPageBeyondEnd(t *testing.T) {
	path := filepath.Join(copyHome(t).Dir, relNew)
	pg, err := ReadRolloutPage(context.Background(), path, 50, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !pg.Done || len(pg.Messages) != 0 || pg.NextOffset != 50 {
		t.Errorf("got %+v", pg)
	}
	if _, err := ReadRolloutPage(context.Background(), path, -1, 10); err == nil {
		t.Error("negative offset accepted")
	}
}

// A rollout that grows between pages (Codex still writing) is read on from
// the remembered point; the new messages appear.
func TestReadRolloutPageGrowingFile(t *testing.T) {
	b := fixtures.Read(fixtures.RolloutNew)
	lines := strings.SplitAfter(string(b), "\n")
	p := filepath.Join(t.TempDir(), "rollout-x-"+idNew+".jsonl")
	writeFile(t, p, []byte(strings.Join(lines[:14], ""))) // first turn only
	pg, err := ReadRolloutPage(context.Background(), p, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkMessages(t, pg.Messages, wantNew[:2])
	if !pg.Done {
		t.Error("first turn alone should be done")
	}
	writeFile(t, p, b)
	pg, err = ReadRolloutPage(context.Background(), p, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkMessages(t, pg.Messages, wantNew[2:])
}

func TestFindRolloutAndTranscript(t *testing.T) {
	h := copyHome(t)
	zst := filepath.Join(h.Dir, "archived_sessions", "rollout-2026-11-01T10-00-00-"+strings.Replace(idOld, "9865", "0000", 1)+".jsonl.zst")
	writeFile(t, zst, zstdBytes(t, readFile(t, filepath.Join(h.Dir, relOld))))
	tests := []struct {
		id        string
		wantPath  string
		wantTitle string
		wantErr   error
	}{
		{idNew, filepath.Join(h.Dir, relNew), "Sunset Theme v2", nil}, // the later rename wins
		{idOld, filepath.Join(h.Dir, relOld), "Theme please", nil},    // unnamed: first user message
		{strings.Replace(idOld, "9865", "0000", 1), zst, "Theme please", nil},
		{"01a2360f-0000-0000-0000-000000000000", "", "", ErrNotFound},
		{"../../etc/passwd", "", "", nil},
		{"", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			path, err := h.FindRollout(tt.id)
			if tt.wantPath == "" {
				if err == nil {
					t.Fatalf("want an error, got %s", path)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil || path != tt.wantPath {
				t.Fatalf("FindRollout = %q, %v; want %q", path, err, tt.wantPath)
			}
			tr, err := h.Transcript(context.Background(), tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Title != tt.wantTitle || len(tr.Messages) == 0 {
				t.Errorf("title %q with %d messages, want %q", tr.Title, len(tr.Messages), tt.wantTitle)
			}
			pg, err := h.TranscriptPage(context.Background(), tt.id, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if pg.Title != tt.wantTitle || len(pg.Messages) != 1 || pg.Done {
				t.Errorf("page = %+v", pg)
			}
		})
	}
}

func TestShortTitle(t *testing.T) {
	long := strings.Repeat("colour ", 30)
	tests := []struct{ in, want string }{
		{"  Theme\n please  ", "Theme please"},
		{"", ""},
		{long, strings.TrimSpace(strings.Repeat("colour ", 11)) + "…"},
	}
	for _, tt := range tests {
		got := ShortTitle(tt.in)
		if got != tt.want {
			t.Errorf("ShortTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if len([]rune(got)) > 80 {
			t.Errorf("title longer than 80: %q", got)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("title has a newline: %q", got)
		}
	}
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var big bytes.Buffer
	line := fixtures.Read(fixtures.RolloutOld)
	for i := 0; i < 200; i++ {
		big.Write(line)
	}
	p := filepath.Join(t.TempDir(), "rollout-x-"+idOld+".jsonl")
	writeFile(t, p, big.Bytes())
	if _, err := ReadRollout(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// A call id used again in a later turn is a new call: the earlier turn's
// call, which never got its output, is still shown (unfinished), and the
// output pairs with the new one.
func TestCallIDUsedAgainInALaterTurn(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-12-01T00:00:00Z","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-12-01T00:00:01Z","type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"call_0","arguments":"{\"cmd\":\"ls\"}"}}`,
		`{"timestamp":"2026-12-01T00:00:02Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}`,
		`{"timestamp":"2026-12-01T00:01:00Z","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-12-01T00:01:01Z","type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"call_0","arguments":"{\"cmd\":\"cat theme.json\"}"}}`,
		`{"timestamp":"2026-12-01T00:01:02Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_0","output":"{}"}}`,
	}
	p := newParser()
	var tools []string
	for _, l := range lines {
		if m := p.feed([]byte(l)); m != nil && m.Role == RoleTool {
			tools = append(tools, m.Tool.Command+" → "+m.Tool.Output)
		}
	}
	for _, m := range p.flush() {
		tools = append(tools, m.Tool.Command+" → "+m.Tool.Output+" (flushed)")
	}
	if want := []string{"ls → ", "cat theme.json → {}"}; !slices.Equal(tools, want) {
		t.Fatalf("tool messages %q, want %q", tools, want)
	}
}

// A custom tool call (Codex's apply_patch) shows its input as the command,
// so the transcript says what the patch was; a local shell call shows its
// action's command.
func TestCustomAndLocalShellCallsShowWhatRan(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-12-01T00:00:01Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c1","input":"*** Begin Patch\n*** Update File: theme.json\n*** End Patch"}}`,
		`{"timestamp":"2026-12-01T00:00:02Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c1","output":"Done!"}}`,
		`{"timestamp":"2026-12-01T00:00:03Z","type":"response_item","payload":{"type":"local_shell_call","call_id":"c2","action":{"type":"exec","command":["ls","-la"]}}}`,
		`{"timestamp":"2026-12-01T00:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"ok"}}`,
	}
	p := newParser()
	var tools []string
	for _, l := range lines {
		if m := p.feed([]byte(l)); m != nil && m.Role == RoleTool {
			tools = append(tools, m.Tool.Name+": "+m.Tool.Command)
		}
	}
	if want := []string{"apply_patch: *** Begin Patch\n*** Update File: theme.json\n*** End Patch", "shell: ls -la"}; !slices.Equal(tools, want) {
		t.Fatalf("tool messages %q, want %q", tools, want)
	}
}

// A long first message without spaces (a pasted URL or hash) still makes a
// title of at most 80 characters, the ellipsis included.
func TestShortTitleOfOneLongWord(t *testing.T) {
	got := ShortTitle(strings.Repeat("é", 200))
	if n := len([]rune(got)); n != 80 || !strings.HasSuffix(got, "…") {
		t.Fatalf("title of %d characters: %q, want 80 ending in …", n, got)
	}
}
