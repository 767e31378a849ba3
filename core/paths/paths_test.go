package paths

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"
)

func TestDirsFollowXDGAndOverrides(t *testing.T) {
	base := t.TempDir()
	for _, v := range []string{"CDXTHEME_CONFIG_DIR", "CDXTHEME_DATA_DIR", "CDXTHEME_CACHE_DIR"} {
		t.Setenv(v, "")
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(base, "data"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	xdg.Reload()
	t.Cleanup(xdg.Reload)

	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" { // where xdg reads these variables
		for name, c := range map[string]struct{ got, want string }{
			"config": {ConfigDir(), filepath.Join(base, "config", AppName)},
			"data":   {DataDir(), filepath.Join(base, "data", AppName)},
			"cache":  {CacheDir(), filepath.Join(base, "cache", AppName)},
		} {
			if c.got != c.want {
				t.Errorf("%s dir = %s, want %s", name, c.got, c.want)
			}
		}
	}

	for env, f := range map[string]func() string{
		"CDXTHEME_CONFIG_DIR": ConfigDir, "CDXTHEME_DATA_DIR": DataDir,
		"CDXTHEME_CACHE_DIR": CacheDir,
	} {
		want := filepath.Join(base, "override", env)
		t.Setenv(env, want)
		if got := f(); got != want {
			t.Errorf("with %s set: %s, want %s", env, got, want)
		}
	}
}

func TestSweepTempsRemovesOnlyOldTempsOfAtomicWrites(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	mk := func(name string, mod time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mod, mod)
		return p
	}
	crashed := mk(".settings.toml.tmp-123456", old)
	young := mk(".agents.toml.tmp-abcdef", time.Now()) // another process's write under way
	user := mk("notes.tmp-123", old)                   // not ours: no leading dot
	kept := mk("settings.toml", old)
	os.Mkdir(filepath.Join(dir, ".folder.tmp-1"), 0o700)
	if n := SweepTemps(dir, 10*time.Minute); n != 1 {
		t.Errorf("swept %d files, want 1", n)
	}
	if _, err := os.Stat(crashed); !os.IsNotExist(err) {
		t.Error("the crashed write's temporary file is still there")
	}
	for _, p := range []string{young, user, kept, filepath.Join(dir, ".folder.tmp-1")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if SweepTemps(filepath.Join(dir, "missing"), 0) != 0 {
		t.Error("a missing folder swept something")
	}
}

func TestUsableWithoutHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no HOME; its folders come from the known-folder API")
	}
	for _, v := range []string{"HOME", "CDXTHEME_CONFIG_DIR", "CDXTHEME_DATA_DIR", "CDXTHEME_CACHE_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, "")
	}
	err := Usable()
	if err == nil || !strings.Contains(err.Error(), "HOME is not set") {
		t.Fatalf("Usable() = %v, want the HOME error", err)
	}
	base := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(base, "c"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(base, "d"))
	if err := Usable(); err == nil || !strings.Contains(err.Error(), "CDXTHEME_CACHE_DIR") {
		t.Errorf("with the cache folder unnamed: %v, want it named", err)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "x"))
	if err := Usable(); err != nil {
		t.Errorf("every folder named: %v", err)
	}
	t.Setenv("HOME", base)
	t.Setenv("CDXTHEME_CONFIG_DIR", "")
	if err := Usable(); err != nil {
		t.Errorf("with HOME: %v", err)
	}
}
