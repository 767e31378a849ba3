// Command adapterlock writes the bun.lock the app installs the pinned
// adapter from (core/agent/locks), derived from the tree the integration
// tests run: peers/package-lock.json. Run it from the repository root
// after changing the pinned adapter (make adapter-lock).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cdxtheme/core/agent"
	"cdxtheme/core/bunlock"
	"cdxtheme/core/settings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "adapterlock:", err)
		os.Exit(1)
	}
}

func run() error {
	npm, err := os.ReadFile(filepath.Join("peers", "package-lock.json"))
	if err != nil {
		return err
	}
	lock, err := bunlock.FromNPM(npm, agent.SidecarPackage, agent.SidecarVersion)
	if err != nil {
		return err
	}
	out := filepath.Join("core", "agent", agent.ShippedLockPath(agent.SidecarVersion))
	if err := os.WriteFile(out, lock, 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", out)
	// The packages the Bun-run agent kinds install, each from its own lock.
	for _, spec := range settings.PinnedPackages() {
		at := strings.LastIndex(spec, "@")
		name, version := spec[:at], spec[at+1:]
		lock, err := bunlock.FromNPM(npm, name, version)
		if err != nil {
			return fmt.Errorf("%s: %w", spec, err)
		}
		out := filepath.Join("core", "agent", agent.PackageLockPath(name, version))
		if err := os.WriteFile(out, lock, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", out)
	}
	return nil
}
