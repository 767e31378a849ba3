// Package codexhome reads Codex's own files under $CODEX_HOME (default
// ~/.codex): config.toml, models_cache.json, session_index.jsonl and the
// rollout transcripts. It only ever reads: nothing here writes into the
// folder, because it belongs to Codex and may be in use by it.
package codexhome

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Where the home folder came from.
const (
	SourceSettings = "settings"
	SourceEnv      = "env"
	SourceDefault  = "default"
)

// Home is one Codex home folder.
type Home struct {
	Dir    string // absolute path ("" when no home directory could be found)
	Source string // SourceSettings, SourceEnv or SourceDefault
}

// Locate finds the Codex home: the settings override wins, then $CODEX_HOME,
// then ~/.codex (%USERPROFILE%\.codex on Windows).
func Locate(override string) Home { return LocateEnv(override, os.Getenv) }

// LocateEnv is Locate with the environment given, for tests.
func LocateEnv(override string, getenv func(string) string) Home {
	if override != "" {
		return Home{Dir: filepath.Clean(override), Source: SourceSettings}
	}
	if d := getenv("CODEX_HOME"); d != "" {
		return Home{Dir: filepath.Clean(d), Source: SourceEnv}
	}
	user := getenv("HOME")
	if runtime.GOOS == "windows" {
		user = getenv("USERPROFILE")
	}
	if user == "" {
		user, _ = os.UserHomeDir()
	}
	if user == "" {
		return Home{Source: SourceDefault}
	}
	return Home{Dir: filepath.Join(user, ".codex"), Source: SourceDefault}
}

// Exists reports whether the folder is there (a missing one is normal
// before Codex first ran).
func (h Home) Exists() bool {
	if h.Dir == "" {
		return false
	}
	fi, err := os.Stat(h.Dir)
	return err == nil && fi.IsDir()
}

// Hint codes name the sentence in a Hint, so a front end can say it in the
// user's language (HintDir fills in the folder); the CLI prints Hint.
const (
	HintNoHome               = "no_home"
	HintHomeUnreadable       = "home_unreadable"
	HintNoModelCache         = "no_model_cache"
	HintModelCacheUnreadable = "model_cache_unreadable"
)

// Dir names the folder for hints ("~/.codex" when unset).
func (h Home) hintDir() string {
	if h.Dir == "" {
		return "~/.codex"
	}
	return h.Dir
}

// Hint is a sentence for the user when the folder is missing, else "".
func (h Home) Hint() string {
	if h.Exists() {
		return ""
	}
	dir := h.Dir
	if dir == "" {
		dir = "~/.codex"
	}
	return fmt.Sprintf("No Codex home at %s; run Codex once or set CODEX_HOME", dir)
}

// path joins parts under the home folder.
func (h Home) path(parts ...string) string {
	return filepath.Join(append([]string{h.Dir}, parts...)...)
}
