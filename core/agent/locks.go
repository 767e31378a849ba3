package agent

import (
	"embed"
	"fmt"
	"strings"
)

// The bun.lock of every adapter version the app is tested with, derived from
// peers/package-lock.json (go run ./internal/tools/adapterlock). The install takes
// exactly these packages, each checked against its integrity hash.
//
//go:embed locks/*.bun.lock
var shippedLocks embed.FS

// EnvAdapterLock names a bun.lock to install the adapter from instead of
// the shipped one: for a codex_acp_version the app ships no lockfile for,
// and for tests whose registry serves another package under the name.
const EnvAdapterLock = "CDXTHEME_ADAPTER_LOCK"

// ShippedLockPath is where the lockfile of version lives below core/agent.
func ShippedLockPath(version string) string {
	return "locks/" + SidecarPackage[strings.LastIndex(SidecarPackage, "/")+1:] + "@" + version + ".bun.lock"
}

// PackageLockPath is where the lockfile of an adapter package the agents
// list runs (ResolveOptions.Package) lives below core/agent: the scope and
// name both, since two adapters are called codex-acp.
func PackageLockPath(name, version string) string {
	return "locks/" + packageDirName(name, version) + ".bun.lock"
}

// packageDirName is name@version as one file name: "@zed-industries/codex-acp"
// becomes "zed-industries+codex-acp".
func packageDirName(name, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "+") + "@" + version
}

// adapterLock is the lockfile to install version from, and where it came from.
func adapterLock(version string, getenv func(string) string) ([]byte, string, error) {
	if p := getenv(EnvAdapterLock); p != "" {
		b, err := readSmall(p)
		if err != nil {
			return nil, "", fmt.Errorf("the adapter lockfile %s (%s) cannot be read: %w", p, EnvAdapterLock, err)
		}
		return b, p, nil
	}
	b, err := shippedLocks.ReadFile(ShippedLockPath(version))
	if err != nil {
		return nil, "", nil
	}
	return b, "the app's tested lockfile", nil
}
