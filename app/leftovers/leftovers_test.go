package leftovers

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"cdxtheme/core/workspace"
)

// What a crash left in the app's folders and in a build goes at start;
// the user's files and a write still under way stay.
func TestStartSweepsWhatACrashLeft(t *testing.T) {
	base := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(base, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(base, "data"))
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(base, "cache"))
	build := filepath.Join(workspace.Root(), "20261203-dusk")
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // path → swept
		filepath.Join(base, "config", ".settings.toml.tmp-8812"):    true,
		filepath.Join(base, "data", ".chat-settings.json.tmp-12ab"): true,
		filepath.Join(build, ".theme.json.tmp-77ff"):                true,
		filepath.Join(build, "theme.json"):                          false,
		filepath.Join(build, "export", ".kitty.conf.tmp-1"):         false, // below the top: the checkpoint skips it
	}
	for p := range files {
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	young := filepath.Join(base, "config", ".agents.toml.tmp-99")
	os.WriteFile(young, []byte("{"), 0o600)
	if n := Sweep(); n != 3 {
		t.Errorf("swept %d, want 3", n)
	}
	for p, swept := range files {
		if _, err := os.Stat(p); swept != os.IsNotExist(err) {
			t.Errorf("%s: swept %v, want %v", p, os.IsNotExist(err), swept)
		}
	}
	if _, err := os.Stat(young); err != nil {
		t.Error("a write still under way was swept")
	}
}
