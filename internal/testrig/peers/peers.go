// Package peers finds the real ACP adapters installed by `make peers` and
// prepares an offline Codex home for them that points at a loopback mock.
package peers

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"cdxtheme/core/agent"
)

// Names of the two pinned adapters.
const (
	TS   = "@agentclientprotocol/codex-acp@2.6.0" // Node bundle driving `codex app-server` 0.166
	Rust = "@zed-industries/codex-acp@0.16.0"     // Rust binary with codex-core 0.137 inside
)

// EnvDir overrides where the peers' node_modules live (the directory that
// holds node_modules, default <repo>/peers).
const EnvDir = "CDXTHEME_PEERS_DIR"

// EnvRequire, when "1", turns a missing adapter from a skipped test into a
// failure (make test sets it, so CI cannot pass by skipping).
const EnvRequire = "CDXTHEME_REQUIRE_PEERS"

// Adapter is one runnable adapter, shaped like agent.Command.
type Adapter struct {
	Name string
	Path string   // executable
	Args []string // arguments before any per-run ones
	// Version is the installed package's version from its package.json.
	Version string
	// StdinEOFExits tells whether closing stdin ends the process (the Node
	// adapter does; the Rust one needs a signal).
	StdinEOFExits bool
}

// Command is the adapter as the agent package runs it; env (e.g. Home.Env)
// is added on top of the inherited environment.
func (a Adapter) Command(env []string) agent.Command {
	return agent.Command{
		Path: a.Path, Args: append([]string(nil), a.Args...), Env: env,
		Source: agent.SourceOverride, Reason: "the pinned test peer " + a.Name,
	}
}

// Words is the command line as shell-style words, the form
// agent.ResolveOptions.Override takes.
func (a Adapter) Words() string { return a.Command(nil).String() }

// Dir returns the directory holding the adapters' node_modules:
// $CDXTHEME_PEERS_DIR, else <repo root>/peers.
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return filepath.Abs(d)
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "peers"), nil
}

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find repo root: %w", err)
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("find repo root: no go.mod above %s", wd)
		}
		dir = parent
	}
}

// ErrMissing marks an adapter that is not installed.
var ErrMissing = errors.New("adapter not installed (run `make peers`)")

// Find locates one adapter by name (TS or Rust) under dir (see Dir).
func Find(dir, name string) (Adapter, error) {
	nm := filepath.Join(dir, "node_modules")
	switch name {
	case TS:
		script := filepath.Join(nm, "@agentclientprotocol", "codex-acp", "dist", "index.js")
		if _, err := os.Stat(script); err != nil {
			return Adapter{}, fmt.Errorf("%s: %s: %w", name, script, ErrMissing)
		}
		node, err := exec.LookPath("node")
		if err != nil {
			return Adapter{}, fmt.Errorf("%s: node not on PATH: %w", name, ErrMissing)
		}
		v, err := packageVersion(filepath.Join(nm, "@agentclientprotocol", "codex-acp"))
		if err != nil {
			return Adapter{}, fmt.Errorf("%s: %w", name, err)
		}
		return Adapter{Name: name, Path: node, Args: []string{script}, Version: v, StdinEOFExits: true}, nil
	case Rust:
		bin := filepath.Join(nm, "@zed-industries", "codex-acp-linux-x64", "bin", "codex-acp")
		if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
			return Adapter{}, fmt.Errorf("%s: %s: %w", name, bin, ErrMissing)
		}
		v, err := packageVersion(filepath.Join(nm, "@zed-industries", "codex-acp-linux-x64"))
		if err != nil {
			return Adapter{}, fmt.Errorf("%s: %w", name, err)
		}
		return Adapter{Name: name, Path: bin, Version: v}, nil
	default:
		return Adapter{}, fmt.Errorf("unknown adapter %q (want %q or %q)", name, TS, Rust)
	}
}

// All locates both adapters; the error names every one that is missing.
func All() ([]Adapter, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	var out []Adapter
	var errs []error
	for _, name := range []string{TS, Rust} {
		a, err := Find(dir, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, a)
	}
	return out, errors.Join(errs...)
}

func packageVersion(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("read package version: %w", err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
		return "", fmt.Errorf("read package version from %s: not a package.json with a version", dir)
	}
	return pkg.Version, nil
}
