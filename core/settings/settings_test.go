package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRoundTripAndDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "settings.toml")
	s, err := LoadFile(path)
	if err != nil {
		t.Fatalf("missing file: %v", err)
	}
	if s.Policy() != PolicyAsk || s.Timeout() != DefaultTimeout || !s.Warm() || s.ACPVersion() != DefaultCodexACPVersion {
		t.Fatalf("defaults: policy %s timeout %v warm %v version %s", s.Policy(), s.Timeout(), s.Warm(), s.ACPVersion())
	}
	off := false
	if s.Scheme() != "" {
		t.Fatalf("default scheme %q, want the OS's", s.Scheme())
	}
	want := Settings{PermissionPolicy: PolicyDeny, TurnTimeoutSeconds: 90, EnterSends: true, WarmConnection: &off, Language: "de", Appearance: AppearanceDark}
	if err := SaveFile(path, want); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || !private(info) {
		t.Fatalf("settings file mode: %v %v", info.Mode(), err)
	}
	got, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Policy() != PolicyDeny || got.Timeout() != 90*time.Second || got.Warm() || !got.EnterSends || got.Language != "de" || got.Scheme() != "dark" {
		t.Fatalf("round trip: %+v", got)
	}
}

func TestValidateAndCorrupt(t *testing.T) {
	cases := []struct {
		name string
		s    Settings
		want string
	}{
		{"bad policy", Settings{PermissionPolicy: "yolo"}, "permission policy"},
		{"negative timeout", Settings{TurnTimeoutSeconds: -1}, "turn timeout"},
		{"relative codex home", Settings{CodexHome: "rel/dir"}, "absolute"},
		{"unknown appearance", Settings{Appearance: "sepia"}, "appearance"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SaveFile(filepath.Join(t.TempDir(), "s.toml"), c.s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want error containing %q", err, c.want)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(path, []byte("permission_policy = [broken"), 0o600)
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), "parse settings") {
		t.Fatalf("corrupt file: %v", err)
	}
}
