package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// DefaultRegistry is npm's public registry, used when nothing else is configured.
const DefaultRegistry = "https://registry.npmjs.org/"

// maxManifestBytes bounds one package's metadata (the biggest the adapter
// needs, @openai/codex's, is ~0.5 MB abbreviated).
const maxManifestBytes = 64 << 20

// maxConfigBytes bounds reading .npmrc and bunfig.toml.
const maxConfigBytes = 1 << 20

// Registry returns the npm registry the user configured for Bun and npm, in
// Bun's order: BUN_CONFIG_REGISTRY, then NPM_CONFIG_REGISTRY (any case), then
// `install.registry` in ~/.bunfig.toml, then `registry=` in ~/.npmrc, else
// DefaultRegistry. The result always ends in "/".
func Registry(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, k := range []string{"BUN_CONFIG_REGISTRY", "NPM_CONFIG_REGISTRY", "npm_config_registry"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return withSlash(v)
		}
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		var dirs []string
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			dirs = append(dirs, x)
		}
		dirs = append(dirs, home)
		for _, d := range dirs {
			if v := bunfigRegistry(filepath.Join(d, ".bunfig.toml")); v != "" {
				return withSlash(v)
			}
		}
		if v := npmrcRegistry(filepath.Join(home, ".npmrc"), getenv); v != "" {
			return withSlash(v)
		}
	}
	return DefaultRegistry
}

func withSlash(u string) string {
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, maxConfigBytes))
}

// bunfigRegistry reads [install] registry, a URL string or {url = "…"}.
func bunfigRegistry(path string) string {
	b, err := readSmall(path)
	if err != nil {
		return ""
	}
	var cfg struct {
		Install struct {
			Registry any `toml:"registry"`
		} `toml:"install"`
	}
	if toml.Unmarshal(b, &cfg) != nil {
		return ""
	}
	switch r := cfg.Install.Registry.(type) {
	case string:
		return strings.TrimSpace(r)
	case map[string]any:
		if u, ok := r["url"].(string); ok {
			return strings.TrimSpace(u)
		}
	}
	return ""
}

// npmrcRegistry reads the unscoped `registry=` line, expanding ${VAR} as npm does.
func npmrcRegistry(path string, getenv func(string) string) string {
	b, err := readSmall(path)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, maxConfigBytes)
	reg := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "registry" {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		reg = os.Expand(v, getenv) // the last one wins, as in npm
	}
	return reg
}

// registryClient is how the app talks to the registry itself: the preflight,
// the size queries and the proxy. No overall timeout (a tarball may take
// minutes on a slow line); connecting and the first byte are bounded.
func registryClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   16,
		ForceAttemptHTTP2:     true,
	}}
}

// packumentURL is where a registry serves a package's metadata
// (@scope/name with the slash escaped, as npm requests it).
func packumentURL(registry, name string) string {
	return registry + strings.Replace(url.PathEscape(name), "%40", "@", 1)
}

// checkPublished asks the registry for the package's metadata: it fails
// fast, with the cause in words, when the registry cannot be reached, refuses,
// or does not have that version.
func checkPublished(ctx context.Context, client *http.Client, registry, name, version string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, packumentURL(registry, name), nil)
	if err != nil {
		return fmt.Errorf("the registry address %q is not usable: %w", registry, err)
	}
	req.Header.Set("Accept", "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8")
	resp, err := client.Do(req)
	if err != nil {
		return unreachable(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("the registry has no package %s", name)
	case resp.StatusCode >= 400:
		return refused(resp)
	}
	var doc struct {
		Versions map[string]json.RawMessage `json:"versions"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxManifestBytes)).Decode(&doc); err != nil {
		return fmt.Errorf("the registry sent unreadable metadata for %s: %w", name, err)
	}
	if _, ok := doc.Versions[version]; !ok {
		return fmt.Errorf("the registry has no version %s of %s", version, name)
	}
	return nil
}

func unreachable(err error) error {
	return fmt.Errorf("the registry cannot be reached (%w)", err)
}

func refused(resp *http.Response) error {
	return fmt.Errorf("the registry refused the request (HTTP %s for %s)", resp.Status, resp.Request.URL.Redacted())
}
