package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/workspace"
)

type sessionsJSON struct {
	Sessions []struct {
		ID        string    `json:"id"`
		Title     string    `json:"title"`
		UpdatedAt time.Time `json:"updatedAt"`
		Cwd       string    `json:"cwd"`
		Path      string    `json:"path"`
		Archived  *bool     `json:"archived"`
	} `json:"sessions"`
	Hint *string `json:"hint"`
}

func TestSessionsJSON(t *testing.T) {
	home := codexTestHome(t)
	tests := []struct {
		name    string
		args    []string
		wantIDs []string
	}{
		{"all, newest first", nil, []string{sampleNewID, sampleOldID}},
		{"search on title", []string{"--search", "sunset"}, []string{sampleNewID}},
		{"search in the messages", []string{"--search", "edit the theme"}, []string{sampleOldID}},
		{"phrase", []string{"--search", `"still there"`}, []string{sampleNewID}},
		{"prefix", []string{"--search", "stil*"}, []string{sampleNewID}},
		{"a word of both", []string{"--search", "hello"}, []string{sampleNewID, sampleOldID}},
		{"limit", []string{"--limit", "1"}, []string{sampleNewID}},
		{"flags after --json", []string{"--limit=1", "--search=edit"}, []string{sampleOldID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCodexCLI(t, home, append([]string{"sessions", "--json"}, tt.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var v sessionsJSON
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, stdout)
			}
			if v.Hint == nil {
				t.Error("no hint field")
			}
			var got []string
			for _, s := range v.Sessions {
				got = append(got, s.ID)
				if s.Title == "" || s.Cwd != "/home/dev/themes/work" || !strings.HasPrefix(s.Path, home) || s.UpdatedAt.IsZero() || s.Archived == nil {
					t.Errorf("session %+v", s)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.wantIDs, ",") {
				t.Errorf("ids %v, want %v", got, tt.wantIDs)
			}
		})
	}
}

func TestSessionsMissingHome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "absent")
	stdout, _, code := runCodexCLI(t, dir, "sessions", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var v sessionsJSON
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Sessions) != 0 || v.Hint == nil || !strings.Contains(*v.Hint, "No Codex home at "+dir) {
		t.Errorf("got %s", stdout)
	}
	if !strings.Contains(stdout, `"sessions": []`) {
		t.Errorf("sessions must be an empty array, not null: %s", stdout)
	}
}

func TestSessionsText(t *testing.T) {
	stdout, _, code := runCodexCLI(t, codexTestHome(t), "sessions")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "UPDATED") || !strings.Contains(lines[1], "Sunset Theme v2") || !strings.Contains(lines[2], "Theme please") {
		t.Errorf("table:\n%s", stdout)
	}
}

func TestSessionsSettingsOverride(t *testing.T) {
	t.Setenv("CODEX_HOME", filepath.Join(t.TempDir(), "absent"))
	stdout, stderr, code := runWithSettings(t, runSessions, codexTestHome(t), "--json")
	if code != ExitOK || !strings.Contains(stdout, sampleNewID) {
		t.Errorf("exit %d: %s %s", code, stdout, stderr)
	}
}

func TestSessionsErrors(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"sessions", "--limit", "-1"}, ExitUsage, "--limit -1"},
		{[]string{"sessions", "--limit", "x"}, ExitUsage, "invalid value"},
		{[]string{"sessions", "stray"}, ExitUsage, "unexpected argument"},
		{[]string{"sessions", "--acp", "--agent", "/nonexistent/agent"}, ExitError, "asking the agent"},
	}
	t.Setenv("CDXTHEME_AGENT", "") // --agent decides
	for _, tt := range tests {
		_, stderr, code := runCodexCLI(t, codexTestHome(t), tt.args...)
		if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, stderr)
		}
	}
}

// --acp merges what the agent knows (session/list) into the disk listing:
// an agent-only session appears without a path, a session on disk keeps its
// file and gains nothing it should not.
func TestSessionsACPMerge(t *testing.T) {
	home := codexTestHome(t)
	c := newChatEnv(t, "normal")
	state := os.Getenv("FAKE_AGENT_STATE")
	onlyAgent := "0199aaaa-0000-7000-8000-0000000000a1"
	for _, s := range []map[string]any{
		{"sessionId": onlyAgent, "cwd": "/work/elsewhere", "title": "Only the agent knows", "updatedAt": "2030-01-01T00:00:00Z", "mode": "default", "config": map[string]any{}},
		{"sessionId": sampleOldID, "cwd": "/home/dev/themes/work", "title": "Agent title", "updatedAt": "2026-12-02T09:25:20Z", "mode": "default", "config": map[string]any{}},
	} {
		b, _ := json.Marshal(s)
		if err := os.MkdirAll(filepath.Join(state, "sessions"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(state, "sessions", s["sessionId"].(string)+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code := runCodexCLI(t, home, "sessions", "--json", "--acp")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got sessionsJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for i, s := range got.Sessions {
		byID[s.ID] = i
	}
	i, ok := byID[onlyAgent]
	if !ok || got.Sessions[i].Path != "" || got.Sessions[i].Title != "Only the agent knows" || i != 0 {
		t.Fatalf("the agent-only session is missing, has a path or is not the newest: %+v", got.Sessions)
	}
	j, ok := byID[sampleOldID]
	if !ok || got.Sessions[j].Path == "" {
		t.Fatalf("the session on disk lost its file: %+v", got.Sessions)
	}
	if _, ok := byID[sampleNewID]; !ok || len(got.Sessions) != 3 {
		t.Fatalf("merged listing = %+v", got.Sessions)
	}
	if m := c.methods(); len(m) == 0 || m[len(m)-1] != "session/list" {
		t.Fatalf("the agent was not asked for its sessions: %v", m)
	}
}

// --search uses the app's index (built on first use, in the cache dir),
// and every hit carries the matched message as "snippet".
func TestSessionsSearchSnippets(t *testing.T) {
	home := codexTestHome(t)
	cache := t.TempDir()
	t.Setenv("CDXTHEME_CACHE_DIR", cache)
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	stdout, stderr, code := runCodexCLI(t, home, "sessions", "--json", "--search", "still there")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Sessions []struct {
			ID      string                     `json:"id"`
			Title   string                     `json:"title"`
			Snippet *string                    `json:"snippet"`
			Marks   []struct{ Start, End int } `json:"marks"`
			Message int                        `json:"message"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if len(v.Sessions) != 1 || v.Sessions[0].ID != sampleNewID || v.Sessions[0].Snippet == nil ||
		*v.Sessions[0].Snippet != "Are you still there?" || len(v.Sessions[0].Marks) != 2 || v.Sessions[0].Message < 0 {
		t.Fatalf("got %s", stdout)
	}
	// A title match carries the key too, empty.
	stdout, _, _ = runCodexCLI(t, home, "sessions", "--json", "--search", "sunset")
	if !strings.Contains(stdout, `"snippet": ""`) {
		t.Errorf("title hit without a snippet key: %s", stdout)
	}
	dbs, _ := filepath.Glob(filepath.Join(cache, "search", "*.db"))
	if len(dbs) != 1 {
		t.Errorf("index files in the cache dir: %v", dbs)
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".db") {
			t.Errorf("index written into CODEX_HOME: %s", p)
		}
		return nil
	})
	// Human output shows the snippet under the session.
	stdout, _, _ = runCodexCLI(t, home, "sessions", "--search", "still there")
	if !strings.Contains(stdout, "“Are you still there?”") {
		t.Errorf("human output without the snippet:\n%s", stdout)
	}
}

// Sub-agent sessions are left out unless --all; garbage is listed as
// unreadable.
func TestSessionsAllAndUnreadable(t *testing.T) {
	home := codexTestHome(t)
	day := filepath.Join(home, "sessions", "2026", "12", "02")
	sample, err := os.ReadFile(filepath.Join(day, "rollout-2026-12-02T09-25-18-"+sampleOldID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const guardian = "01a20000-0000-7000-8000-0000000000g1"
	sub := strings.Replace(strings.ReplaceAll(string(sample), sampleOldID, guardian), `"source":"unknown"`, `"source":{"subagent":{"other":"guardian"}}`, 1)
	os.WriteFile(filepath.Join(day, "rollout-2026-12-02T09-25-18-"+guardian+".jsonl"), []byte(sub), 0o644)
	const garbage = "01a20000-0000-7000-8000-0000000000f1"
	os.WriteFile(filepath.Join(day, "rollout-2026-12-02T09-25-18-"+garbage+".jsonl"), []byte("\x00\x01garbage"), 0o644)

	ids := func(args ...string) string {
		stdout, stderr, code := runCodexCLI(t, home, append([]string{"sessions", "--json"}, args...)...)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var v struct {
			Sessions []struct {
				ID         string `json:"id"`
				Internal   bool   `json:"internal"`
				Unreadable string `json:"unreadable"`
			} `json:"sessions"`
		}
		json.Unmarshal([]byte(stdout), &v)
		var out []string
		for _, s := range v.Sessions {
			tag := s.ID
			if s.Internal {
				tag += "(internal)"
			}
			if s.Unreadable != "" {
				tag += "(unreadable)"
			}
			out = append(out, tag)
		}
		return strings.Join(out, ",")
	}
	if got := ids(); strings.Contains(got, guardian) || !strings.Contains(got, garbage+"(unreadable)") {
		t.Errorf("default: %s", got)
	}
	if got := ids("--all"); !strings.Contains(got, guardian+"(internal)") {
		t.Errorf("--all: %s", got)
	}
	if got := ids("--search", "theme please"); strings.Contains(got, guardian) {
		t.Errorf("search shows a sub-agent session without --all: %s", got)
	}
	if got := ids("--search", "theme please", "--all"); !strings.Contains(got, guardian) {
		t.Errorf("search --all: %s", got)
	}
	stdout, _, _ := runCodexCLI(t, home, "sessions")
	if !strings.Contains(stdout, "(unreadable: not a Codex rollout") {
		t.Errorf("human output:\n%s", stdout)
	}
}

// With no index to be had (the cache dir cannot hold it), --search says so
// on stderr and in the JSON, and still matches titles.
func TestSessionsSearchWithoutAnIndexSaysTitlesOnly(t *testing.T) {
	home := codexTestHome(t)
	blocker := filepath.Join(t.TempDir(), "cache-is-a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(blocker, "cache"))
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	stdout, stderr, code := runCodexCLI(t, home, "sessions", "--json", "--search", "sunset")
	if code != ExitOK || !strings.Contains(stderr, "matching titles and folders only") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var v struct {
		Sessions   []struct{ ID string } `json:"sessions"`
		TitlesOnly string                `json:"titlesOnly"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || len(v.Sessions) == 0 || !strings.Contains(v.TitlesOnly, "search index") {
		t.Fatalf("got %s (%v)", stdout, err)
	}
}

// A session a build recorded is listed, found and printed under the
// build's name, as the app shows it.
func TestSessionsAndTranscriptUseTheBuildsName(t *testing.T) {
	home := codexTestHome(t)
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	t.Setenv("CDXTHEME_CACHE_DIR", t.TempDir())
	ws, err := workspace.Create(workspace.Root(), "Harbour build", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := workspace.AddSession(workspace.Root(), ws.ID, sampleOldID); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCodexCLI(t, home, "sessions", "--json", "--search", "harbour")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v sessionsJSON
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Sessions) != 1 || v.Sessions[0].ID != sampleOldID || v.Sessions[0].Title != "Harbour build" {
		t.Errorf("sessions %+v, want the build's session under its name", v.Sessions)
	}
	stdout, stderr, code = runCodexCLI(t, home, "transcript", sampleOldID, "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var tr struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil || tr.Title != "Harbour build" {
		t.Errorf("transcript title %q (%v)", tr.Title, err)
	}
}
