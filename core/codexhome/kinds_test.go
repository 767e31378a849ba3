package codexhome

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/fixtures"
)

// The kinds of rollout a listing meets: real sessions, sub-agent sessions
// Codex starts itself, and files that are no rollout at all.
func TestSessionKinds(t *testing.T) {
	sample := fixtures.Read(fixtures.RolloutNew)
	// A guardian review: the real 0.166 sample with a sub-agent source.
	guardian := bytes.Replace(sample, []byte(`"source":"vscode"`), []byte(`"source":{"subagent":{"other":"guardian"}}`), 1)
	guardian = bytes.ReplaceAll(guardian, []byte(idNew), []byte("01a20000-0000-7000-8000-0000000000g1"))
	review := bytes.Replace(fixtures.Read(fixtures.RolloutOld), []byte(`"source":"unknown"`), []byte(`"source":{"subagent":"review"}`), 1)
	review = bytes.ReplaceAll(review, []byte(idOld), []byte("01a20000-0000-7000-8000-0000000000r1"))
	if bytes.Equal(guardian, sample) || !bytes.Contains(review, []byte(`{"subagent":"review"}`)) {
		t.Fatal("the samples no longer have the source fields this test rewrites")
	}
	tests := []struct {
		name       string
		data       []byte
		internal   bool
		unreadable string // a substring of the reason; "" = readable
	}{
		{"real 0.166 session", sample, false, ""},
		{"guardian sub-agent", guardian, true, ""},
		{"review sub-agent", review, true, ""},
		{"garbage", []byte("\x00\x01PK\x03\x04 not json\nstill not json\n"), false, "2 lines that are not JSON"},
		{"empty file", nil, false, "empty"},
		{"JSON but no rollout", []byte(`{"hello":"world"}` + "\n"), false, "no session_meta"},
		{"zst that is not zstd", []byte("plain text"), false, "zstd"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Home{Dir: t.TempDir()}
			id := "01a20000-0000-7000-8000-00000000000" + string(rune('a'+i))
			name := "rollout-2026-12-03T10-00-00-" + id + ".jsonl"
			if strings.Contains(tt.name, "zst") {
				name += ".zst"
			}
			writeFile(t, filepath.Join(h.Dir, "sessions", "2026", "12", "03", name), tt.data)
			hidden, err := h.Sessions(context.Background(), ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			all, err := h.Sessions(context.Background(), ListOptions{ShowInternal: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Sessions) != 1 {
				t.Fatalf("with internal sessions: %d listed, want 1 (%+v)", len(all.Sessions), all)
			}
			s := all.Sessions[0]
			if s.Internal != tt.internal {
				t.Errorf("internal = %v, want %v", s.Internal, tt.internal)
			}
			if tt.internal == (len(hidden.Sessions) == 1) {
				t.Errorf("default listing has %d sessions; internal sessions must be left out, others kept", len(hidden.Sessions))
			}
			if tt.unreadable == "" && s.Unreadable != "" {
				t.Errorf("readable file listed as unreadable: %q", s.Unreadable)
			}
			if tt.unreadable != "" && !strings.Contains(s.Unreadable, tt.unreadable) {
				t.Errorf("unreadable = %q, want it to say %q", s.Unreadable, tt.unreadable)
			}
		})
	}
}

// A stopped turn and a compaction, as Codex records them, become one
// notice each in the transcript (the event and the compacted line of one
// compaction are shown once).
func TestTranscriptNotices(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"timestamp":"2026-12-03T10:00:00Z","type":"session_meta","payload":{"id":"01a20000-0000-7000-8000-0000000000n1","cwd":"/w","source":"cli"}}`,
		`{"timestamp":"2026-12-03T10:00:01Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-12-03T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"make it purple"}}`,
		`{"timestamp":"2026-12-03T10:00:02Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}`,
		`{"timestamp":"2026-12-03T10:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>"}]}}`,
		`{"timestamp":"2026-12-03T10:00:03Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"timestamp":"2026-12-03T10:00:03Z","type":"event_msg","payload":{"type":"user_message","message":"no, green"}}`,
		`{"timestamp":"2026-12-03T10:00:04Z","type":"event_msg","payload":{"type":"agent_message","message":"Green it is."}}`,
		`{"timestamp":"2026-12-03T10:00:05Z","type":"compacted","payload":{"message":"summary","replacement_history":[]}}`,
		`{"timestamp":"2026-12-03T10:00:05Z","type":"event_msg","payload":{"type":"context_compacted"}}`,
		`{"timestamp":"2026-12-03T10:00:06Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"review_ended"}}`,
	}
	path := filepath.Join(dir, "rollout-2026-12-03T10-00-00-01a20000-0000-7000-8000-0000000000n1.jsonl")
	writeFile(t, path, []byte(strings.Join(lines, "\n")+"\n"))
	tr, err := ReadRollout(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range tr.Messages {
		got = append(got, m.Role+":"+firstNonEmpty(m.Notice, m.Text))
	}
	want := []string{"user:make it purple", "notice:stopped", "user:no, green", "assistant:Green it is.", "notice:compacted"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages\n got %v\nwant %v", got, want)
	}
	var md bytes.Buffer
	r, err := OpenRollout(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteMarkdown(&md, r); err != nil || !strings.Contains(md.String(), "_Stopped by you_") || !strings.Contains(md.String(), "_Conversation compacted_") {
		t.Errorf("markdown misses the notices (%v):\n%s", err, md.String())
	}
	// The paged reader agrees message for message.
	pg, err := ReadRolloutPage(context.Background(), path, 1, 3)
	if err != nil || len(pg.Messages) != 3 || pg.Messages[0].Notice != NoticeStopped || pg.Messages[2].Text != "Green it is." {
		t.Errorf("page = %+v, %v", pg.Messages, err)
	}
}
