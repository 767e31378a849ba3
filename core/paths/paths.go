// Package paths names the app's own folders under the xdg base dirs and
// writes the app's own files there atomically and durably. Files the agent
// can reach (workspaces, exports, the programs a theme is applied to) are
// written with core/fswrite instead, which never follows a link: here the
// folder is the app's or the user's choice and is taken as given.
package paths

import (
	"os"
	"path/filepath"
	"strconv"

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

// RuntimeDir is the app's folder under the xdg runtime dir, for what must
// not outlive the login (sockets, locks). CDXTHEME_RUNTIME_DIR overrides
// it. Where the system has no runtime dir (containers, some macOS and
// Windows setups) it is a per-user folder in the temp dir, as the xdg spec
// asks; the caller creates it with mode 0700.
func RuntimeDir() string {
	if d := os.Getenv("CDXTHEME_RUNTIME_DIR"); d != "" {
		return d
	}
	if fi, err := os.Stat(xdg.RuntimeDir); err == nil && fi.IsDir() {
		return filepath.Join(xdg.RuntimeDir, AppName)
	}
	return filepath.Join(os.TempDir(), AppName+"-"+strconv.Itoa(os.Getuid()))
}

func dir(env, base string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	return filepath.Join(base, AppName)
}
