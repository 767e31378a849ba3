package agent

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"cdxtheme/core/jsonc"
)

// lockedPackage is one entry of Bun's text lockfile (bun.lock) that Bun
// will download on this machine.
type lockedPackage struct {
	Name    string // the real package name (an alias's target)
	Version string
	URL     string // registry base the lockfile names ("" = the default one)
}

// parseBunLock reads the packages of a bun.lock (JSON with trailing commas)
// and keeps those whose os/cpu fit this machine: the ones Bun fetches.
func parseBunLock(b []byte) ([]lockedPackage, error) {
	var lock struct {
		Packages map[string][]json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(jsonc.Strip(b), &lock); err != nil {
		return nil, fmt.Errorf("read bun.lock: %w", err)
	}
	var out []lockedPackage
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
			if !fits(meta.OS, npmOS()) || !fits(meta.CPU, npmCPU()) {
				continue
			}
		}
		out = append(out, lockedPackage{Name: spec[:at], Version: spec[at+1:], URL: reg})
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

func npmOS() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

func npmCPU() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}
