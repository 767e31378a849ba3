// Package paths names the app's own folders under the xdg base dirs and
// writes the app's own files there atomically and durably. Files the agent
// can reach (workspaces, exports, the programs a theme is applied to) are
// written with core/fswrite instead, which never follows a link: here the
// folder is the app's or the user's choice and is taken as given.
package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/adrg/xdg"
)

// AppName names the app's folders under the xdg dirs (and its Windows
// Terminal fragment folder).
const AppName = "cdxtheme"

// ConfigDir is the app's folder under the xdg config dir (settings, agents,
// the window's state, the log). CDXTHEME_CONFIG_DIR overrides it so tests
// and side-by-side installs never share state.
func ConfigDir() string { return dir("CDXTHEME_CONFIG_DIR", xdg.ConfigHome) }

// DataDir is the app's folder under the xdg data dir (workspaces, session
// notes). CDXTHEME_DATA_DIR overrides it.
func DataDir() string { return dir("CDXTHEME_DATA_DIR", xdg.DataHome) }

// CacheDir is the app's folder under the xdg cache dir: what can be
// rebuilt, like the search index. CDXTHEME_CACHE_DIR overrides it.
func CacheDir() string { return dir("CDXTHEME_CACHE_DIR", xdg.CacheHome) }

func dir(env, base string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	return filepath.Join(base, AppName)
}

// tempPattern is the name of a temporary file WriteFileAtomic and
// core/fswrite write before renaming it into place (".NAME.tmp-RANDOM").
var tempPattern = regexp.MustCompile(`^\..+\.tmp-[0-9a-zA-Z]+$`)

// IsTemp reports whether a file name is one of those temporary files: a
// crash between writing and renaming leaves one, which nothing should keep
// (a snapshot, a listing).
func IsTemp(name string) bool { return tempPattern.MatchString(name) }

// SweepTemps removes the temporary files a crash left directly in dir,
// older than age (a younger one may be another process's write under way).
// It returns how many went.
func SweepTemps(dir string, age time.Duration) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTemp(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) < age {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}

// Usable says why the app's folders cannot be placed, or nil. Without HOME
// (a service, `env -i`) the xdg defaults would put them at the filesystem
// root (/.config/cdxtheme); the user is asked for a home instead.
func Usable() error {
	if runtime.GOOS == "windows" || os.Getenv("HOME") != "" {
		return nil
	}
	for _, d := range []struct{ env, xdg, dir string }{
		{"CDXTHEME_CONFIG_DIR", "XDG_CONFIG_HOME", ConfigDir()},
		{"CDXTHEME_DATA_DIR", "XDG_DATA_HOME", DataDir()},
		{"CDXTHEME_CACHE_DIR", "XDG_CACHE_HOME", CacheDir()},
	} {
		if os.Getenv(d.env) == "" && os.Getenv(d.xdg) == "" {
			return fmt.Errorf("HOME is not set, so there is no place for the app's files (it would use %s); set HOME, or %s and the other CDXTHEME_*_DIR variables", d.dir, d.env)
		}
	}
	return nil
}
