package paths

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/adrg/xdg"
)

func TestDirsFollowXDGAndOverrides(t *testing.T) {
	base := t.TempDir()
	for _, v := range []string{"CDXTHEME_CONFIG_DIR", "CDXTHEME_DATA_DIR", "CDXTHEME_CACHE_DIR", "CDXTHEME_RUNTIME_DIR"} {
		t.Setenv(v, "")
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(base, "data"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(base, "run"))
	os.Mkdir(filepath.Join(base, "run"), 0o700)
	xdg.Reload()
	t.Cleanup(xdg.Reload)

	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" { // where xdg reads these variables
		for name, c := range map[string]struct{ got, want string }{
			"config":  {ConfigDir(), filepath.Join(base, "config", AppName)},
			"data":    {DataDir(), filepath.Join(base, "data", AppName)},
			"cache":   {CacheDir(), filepath.Join(base, "cache", AppName)},
			"runtime": {RuntimeDir(), filepath.Join(base, "run", AppName)},
		} {
			if c.got != c.want {
				t.Errorf("%s dir = %s, want %s", name, c.got, c.want)
			}
		}
	}

	// A runtime dir the system names but never made: a per-user temp folder.
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(base, "no-such-run"))
	xdg.Reload()
	if got, want := RuntimeDir(), filepath.Join(os.TempDir(), AppName+"-"+strconv.Itoa(os.Getuid())); got != want {
		t.Errorf("runtime dir without one = %s, want %s", got, want)
	}

	for env, f := range map[string]func() string{
		"CDXTHEME_CONFIG_DIR": ConfigDir, "CDXTHEME_DATA_DIR": DataDir,
		"CDXTHEME_CACHE_DIR": CacheDir, "CDXTHEME_RUNTIME_DIR": RuntimeDir,
	} {
		want := filepath.Join(base, "override", env)
		t.Setenv(env, want)
		if got := f(); got != want {
			t.Errorf("with %s set: %s, want %s", env, got, want)
		}
	}
}
