// Command tsgen writes frontend/src/lib/gen/events.ts: the TypeScript
// shapes of every payload the app emits to the UI (chat.Event and what it
// reaches, the turn batches, artifacts, checkpoints, theme and index
// notices), the event type values and the error codes as string-literal
// unions. The UI imports them from there, so no hand copy can drift from
// Go. Run by `make types` (and `make bindings`); TestGeneratedFileIsCurrent
// fails when the committed file differs.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// out is the generated file, relative to the module root.
const out = "frontend/src/lib/gen/events.ts"

func main() {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	b, err := generate(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	path := filepath.Join(root, out)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}

// moduleRoot is the nearest directory up from here with a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}
