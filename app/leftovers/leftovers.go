// Package leftovers clears away at start what a crash or a killed Apply
// left behind: the temporary files of atomic writes, Apply's unsaved
// record folders.
package leftovers

import (
	"os"
	"path/filepath"
	"time"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
	"cdxtheme/core/workspace"
)

// staleTemp is how old a temporary file of an atomic write must be before
// the start-up sweep takes it for a crash's leftover: far longer than any
// write of ours takes, so another process's write under way is left alone.
const staleTemp = 10 * time.Minute

// Sweep removes the ".NAME.tmp-…" files a crash between an atomic
// write and its rename left in the app's own folders and at the top of
// each build's folder (checkpoints skip them too), and a killed Apply's
// leftovers; it returns how many went. Only names of that shape go, never
// a folder or a link.
func Sweep() int {
	n := 0
	for _, d := range []string{paths.ConfigDir(), paths.DataDir(), paths.CacheDir(), workspace.Root()} {
		n += paths.SweepTemps(d, staleTemp)
	}
	entries, _ := os.ReadDir(workspace.Root())
	for _, e := range entries {
		if e.IsDir() {
			n += paths.SweepTemps(filepath.Join(workspace.Root(), e.Name()), staleTemp)
		}
	}
	// A killed Apply's leftovers: its unsaved record folders and the
	// temporaries beside the program files it was writing.
	if p, err := install.DefaultPaths(); err == nil {
		n += apply.Sweep(p, staleTemp)
	}
	return n
}
