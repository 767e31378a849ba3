package codexhome

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	userVar := "HOME"
	if runtime.GOOS == "windows" {
		userVar = "USERPROFILE"
	}
	user := filepath.Join(string(filepath.Separator), "users", "ann")
	tests := []struct {
		name     string
		override string
		env      map[string]string
		wantDir  string
		wantSrc  string
	}{
		{"default under the user's home", "", map[string]string{userVar: user}, filepath.Join(user, ".codex"), SourceDefault},
		{"CODEX_HOME wins over default", "", map[string]string{userVar: user, "CODEX_HOME": filepath.Join(user, "alt")}, filepath.Join(user, "alt"), SourceEnv},
		{"settings override wins over CODEX_HOME", filepath.Join(user, "set"), map[string]string{userVar: user, "CODEX_HOME": filepath.Join(user, "alt")}, filepath.Join(user, "set"), SourceSettings},
		{"paths are cleaned", "", map[string]string{"CODEX_HOME": user + string(filepath.Separator) + "x" + string(filepath.Separator)}, filepath.Join(user, "x"), SourceEnv},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := LocateEnv(tt.override, func(k string) string { return tt.env[k] })
			if h.Dir != tt.wantDir || h.Source != tt.wantSrc {
				t.Errorf("got %+v, want dir %q source %q", h, tt.wantDir, tt.wantSrc)
			}
		})
	}
}

func TestHint(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name string
		home Home
		want string
	}{
		{"existing home has no hint", Home{Dir: t.TempDir()}, ""},
		{"missing home names the folder", Home{Dir: missing}, "No Codex home at " + missing + "; run Codex once or set CODEX_HOME"},
		{"a file is not a home", Home{Dir: "home_test.go"}, "No Codex home at home_test.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.home.Hint()
			if tt.want == "" && got != "" || !strings.HasPrefix(got, tt.want) {
				t.Errorf("Hint() = %q, want %q", got, tt.want)
			}
		})
	}
}
