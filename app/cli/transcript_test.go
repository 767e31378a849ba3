package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/codexhome"
)

func TestTranscriptJSON(t *testing.T) {
	home := codexTestHome(t)
	tests := []struct {
		id        string
		wantTitle string
		wantRoles string
	}{
		{sampleNewID, "Sunset Theme v2", "user assistant user tool assistant user assistant"},
		{sampleOldID, "Theme please", "user assistant user tool assistant user tool assistant"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			// ID before and after the flag both work.
			for _, args := range [][]string{{"transcript", tt.id, "--json"}, {"transcript", "--json", tt.id}} {
				stdout, stderr, code := runCodexCLI(t, home, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				var v struct {
					ID       string `json:"id"`
					Title    string `json:"title"`
					Cwd      string `json:"cwd"`
					Messages []struct {
						Role string    `json:"role"`
						Text string    `json:"text"`
						Time time.Time `json:"time"`
						Tool *struct {
							Name     string `json:"name"`
							Command  string `json:"command"`
							ExitCode *int   `json:"exitCode"`
							Output   string `json:"output"`
						} `json:"tool"`
					} `json:"messages"`
				}
				if err := json.Unmarshal([]byte(stdout), &v); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, stdout)
				}
				if v.ID != tt.id || v.Title != tt.wantTitle || v.Cwd != "/home/dev/themes/work" {
					t.Errorf("header %q %q %q", v.ID, v.Title, v.Cwd)
				}
				var roles []string
				for _, m := range v.Messages {
					roles = append(roles, m.Role)
					if m.Time.IsZero() || m.Text == "" {
						t.Errorf("message %+v", m)
					}
					if m.Role == "tool" && (m.Tool == nil || m.Tool.Command != "echo hello-from-shell" && !strings.HasPrefix(m.Tool.Command, "apply_patch") || m.Tool.ExitCode == nil) {
						t.Errorf("tool message %+v", m.Tool)
					}
				}
				if strings.Join(roles, " ") != tt.wantRoles {
					t.Errorf("roles %v, want %s", roles, tt.wantRoles)
				}
			}
		})
	}
}

func TestTranscriptMarkdownAndText(t *testing.T) {
	home := codexTestHome(t)
	md, _, code := runCodexCLI(t, home, "transcript", sampleOldID, "--markdown")
	if code != 0 || !strings.HasPrefix(md, "# Theme please\n") || !strings.Contains(md, "## Assistant") || !strings.Contains(md, "```sh\necho hello-from-shell\n```") {
		t.Errorf("exit %d, markdown:\n%s", code, md)
	}
	text, _, code := runCodexCLI(t, home, "transcript", sampleNewID)
	for _, w := range []string{"Sunset Theme v2\n", "[user ", "Are you still there?", "exec_command (exit 0)\n  $ echo hello-from-shell\n  hello-from-shell\n"} {
		if code != 0 || !strings.Contains(text, w) {
			t.Errorf("exit %d, text lacks %q:\n%s", code, w, text)
		}
	}
	if strings.Contains(text, "environment_context") {
		t.Error("injected context shown")
	}
}

func TestTranscriptSettingsOverride(t *testing.T) {
	t.Setenv("CODEX_HOME", filepath.Join(t.TempDir(), "absent"))
	stdout, stderr, code := runWithSettings(t, runTranscript, codexTestHome(t), sampleOldID, "--json")
	if code != 0 || !strings.Contains(stdout, `"id": "`+sampleOldID+`"`) {
		t.Errorf("exit %d: %s %s", code, stdout, stderr)
	}
}

func TestTranscriptErrors(t *testing.T) {
	home := codexTestHome(t)
	missing := filepath.Join(t.TempDir(), "absent")
	tests := []struct {
		name     string
		home     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no id", home, []string{"transcript", "--json"}, ExitUsage, "missing session ID"},
		{"two ids", home, []string{"transcript", "a", "b"}, ExitUsage, "unexpected argument \"b\""},
		{"both formats", home, []string{"transcript", sampleOldID, "--json", "--markdown"}, ExitUsage, "exclude each other"},
		{"unknown id", home, []string{"transcript", "01a2360f-0000-0000-0000-000000000000"}, ExitError, "session not found"},
		{"missing home", missing, []string{"transcript", sampleOldID}, ExitError, "No Codex home at " + missing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCodexCLI(t, tt.home, tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// The streamed --json is byte for byte what encoding the whole transcript
// gives (as the command did before it streamed).
func TestTranscriptJSONStreamsSameBytes(t *testing.T) {
	home := codexTestHome(t)
	for _, id := range []string{sampleNewID, sampleOldID} {
		stdout, stderr, code := runCodexCLI(t, home, "transcript", id, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		tr, err := codexhome.Locate(home).Transcript(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(tr); err != nil {
			t.Fatal(err)
		}
		if stdout != want.String() {
			t.Errorf("%s: streamed JSON differs:\n got %s\nwant %s", id, stdout, want.String())
		}
	}
	// An empty session and a damaged one.
	dir := t.TempDir()
	sess := filepath.Join(dir, "sessions", "2026", "12", "02")
	os.MkdirAll(sess, 0o755)
	empty := "01a2360f-0000-7000-8000-000000000001"
	os.WriteFile(filepath.Join(sess, "rollout-2026-12-02T09-00-00-"+empty+".jsonl"), []byte("not json\n"), 0o644)
	stdout, _, code := runCodexCLI(t, dir, "transcript", empty, "--json")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || v["skipped"] != float64(1) || len(v["messages"].([]any)) != 0 {
		t.Errorf("exit %d, %s", code, stdout)
	}
}
