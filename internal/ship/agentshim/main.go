//go:build unix

// Command cdxtheme-agent-shim is the agent shim (core/agent) as a program of
// its own, shipped beside the desktop app: the app re-executing itself as
// the shim would load GTK and WebKit first (~60 ms and ~12 MB per agent);
// this starts in a few milliseconds. The app falls back to itself when the
// program is missing. Never run by hand. Unix only: on Windows a Job
// Object does the shim's work (core/agent).
package main

import (
	"os"

	"cdxtheme/core/agent"
)

func main() {
	// agent's init has already taken over when started as the shim.
	os.Exit(agent.RunShim(os.Args[1:]))
}
