package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/settings"
)

// hostileHome is the sample CODEX_HOME with the newer session renamed to a
// title full of control sequences, as an agent's auto-title could be.
func hostileHome(t *testing.T) string {
	t.Helper()
	home := codexTestHome(t)
	line, _ := json.Marshal(map[string]string{"id": sampleNewID, "thread_name": "Sunset" + hostile, "updated_at": "2026-12-03T10:00:00Z"})
	f, err := os.OpenFile(filepath.Join(home, "session_index.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()
	return home
}

func TestSessionsAndTranscriptStripControlSequences(t *testing.T) {
	home := hostileHome(t)
	table, _, code := runCodexCLI(t, home, "sessions")
	if code != ExitOK || !strings.Contains(table, "Sunsetred") || controlIn(table) != "" {
		t.Errorf("exit %d, table %q", code, table)
	}
	js, _, _ := runCodexCLI(t, home, "sessions", "--json")
	var list sessionsJSON
	if err := json.Unmarshal([]byte(js), &list); err != nil || len(list.Sessions) == 0 || list.Sessions[0].Title != "Sunset"+hostile {
		t.Errorf("--json must keep the title exactly: %v %+v", err, list.Sessions)
	}
	if raw, _, _ := runCodexCLI(t, home, "sessions", "--raw"); !strings.Contains(raw, "Sunset\x1b]52;") {
		t.Errorf("--raw must keep the bytes: %q", raw)
	}

	text, _, code := runCodexCLI(t, home, "transcript", sampleNewID)
	if code != ExitOK || !strings.HasPrefix(text, "Sunsetred\n") || controlIn(text) != "" {
		t.Errorf("exit %d, transcript text %q", code, text[:min(len(text), 200)])
	}
	// --markdown to a file keeps the bytes; to a terminal it is cleaned.
	md, _, _ := runCodexCLI(t, home, "transcript", sampleNewID, "--markdown")
	if !strings.Contains(md, "Sunset\x1b]52;") {
		t.Errorf("--markdown to a file must keep the bytes: %q", md[:min(len(md), 200)])
	}
	var out, errb bytes.Buffer
	env := newEnv(&out, &errb, settings.Settings{CodexHome: home})
	env.terminal = true
	if code := runTranscript(context.Background(), env, []string{sampleNewID, "--markdown"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	env.flush()
	if s := out.String(); !strings.Contains(s, "Sunsetred") || controlIn(s) != "" {
		t.Errorf("--markdown to a terminal: %q", s[:min(len(s), 200)])
	}
}
