package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		{"search in transcripts", []string{"--search", "edit the theme", "--transcripts"}, []string{sampleOldID}},
		{"limit", []string{"--limit", "1"}, []string{sampleNewID}},
		{"flags after --json", []string{"--limit=1", "--search=theme please"}, []string{sampleOldID}},
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
		{[]string{"sessions", "--acp"}, ExitError, "--acp is not available"},
	}
	for _, tt := range tests {
		_, stderr, code := runCodexCLI(t, codexTestHome(t), tt.args...)
		if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, stderr)
		}
	}
}
