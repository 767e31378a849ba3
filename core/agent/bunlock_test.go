package agent

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/bunlock"
)

// The lockfile the app installs the adapter from is the tree the
// integration tests run (peers/package-lock.json): the same versions, each
// with its integrity hash, none with an address of its own. A change of the
// pinned adapter that forgets `go run ./internal/tools/adapterlock` fails here.
func TestShippedLockIsTheTestedTree(t *testing.T) {
	npm, err := os.ReadFile("../../peers/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := bunlock.FromNPM(npm, SidecarPackage, SidecarVersion)
	if err != nil {
		t.Fatal(err)
	}
	got, from, err := adapterLock(SidecarVersion, func(string) string { return "" })
	if err != nil || got == nil {
		t.Fatalf("no lockfile ships for %s (%s, %v)", SidecarVersion, from, err)
	}
	if string(got) != string(want) {
		t.Fatalf("core/agent/%s is not peers/package-lock.json's tree: run go run ./internal/tools/adapterlock", ShippedLockPath(SidecarVersion))
	}
	in := Install{Package: SidecarPackage, Version: SidecarVersion, Lock: got, LockFrom: from}
	pkgs, err := in.lockedPackages()
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, p := range pkgs {
		specs = append(specs, p.Name+"@"+p.Version)
	}
	// cross-spawn 7.1.2 is what a fresh resolve took on the day 7.0.6 was tested.
	for _, s := range []string{"cross-spawn@7.0.6", "@openai/codex@0.166.0", SidecarPackage + "@" + SidecarVersion} {
		if !slices.Contains(specs, s) {
			t.Errorf("the shipped lock lacks %s: %v", s, specs)
		}
	}
	if slices.Contains(specs, "@zed-industries/codex-acp@0.16.0") {
		t.Error("the shipped lock holds the other adapter of the tested tree")
	}
	if _, _, err := adapterLock("9.9.9", func(string) string { return "" }); err != nil {
		t.Error(err)
	}
	none := Install{Package: SidecarPackage, Version: "9.9.9"}
	if _, err := none.lockedPackages(); err == nil || !strings.Contains(err.Error(), "no tested lockfile") {
		t.Errorf("a version without a lockfile: %v, want refused", err)
	}
}

// The Bun-run agent kinds install from lockfiles the app ships too, each
// the tree peers/ tests: `bun x` of the package pinned only the top one, and
// a real run took cross-spawn 7.1.2 and newer hono, ip-address, jose and
// pkce-challenge than Claude Code's adapter was tested with.
func TestShippedPackageLocksAreTheTestedTree(t *testing.T) {
	npm, err := os.ReadFile("../../peers/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"@zed-industries/claude-code-acp@0.16.2", "@zed-industries/codex-acp@0.16.0"} {
		at := strings.LastIndex(spec, "@")
		name, version := spec[:at], spec[at+1:]
		want, err := bunlock.FromNPM(npm, name, version)
		if err != nil {
			t.Fatal(err)
		}
		got, err := shippedLocks.ReadFile(PackageLockPath(name, version))
		if err != nil || string(got) != string(want) {
			t.Fatalf("core/agent/%s is not peers/package-lock.json's tree of %s (%v): run go run ./internal/tools/adapterlock", PackageLockPath(name, version), spec, err)
		}
		// Resolving the package names its install from exactly that lock,
		// in a folder of its own (two adapters are called codex-acp).
		exe, _ := filepath.Abs(filepath.Join("..", "..", "build", "bin")) // the sidecar's Bun (make sidecar)
		_, err = Resolve(ResolveOptions{Package: spec, CacheDir: t.TempDir(), ExeDir: exe, LookPath: func(string) (string, error) { return "", errors.New("none") }})
		ni, ok := errors.AsType[*NotInstalledError](err)
		if !ok {
			if errors.Is(err, ErrNotFound) && strings.Contains(err.Error(), "Bun") {
				t.Skipf("no Bun here: %v", err)
			}
			t.Fatalf("Resolve(%s) = %v, want NotInstalledError", spec, err)
		}
		if string(ni.Install.Lock) != string(want) || ni.Install.Spec() != spec || filepath.Base(ni.Install.Dir) != packageDirName(name, version) {
			t.Errorf("%s installs %s into %s from another lock", spec, ni.Install.Spec(), ni.Install.Dir)
		}
	}
}

// Claude Code's adapter installed for real, from the npm registry, through
// the first-run install the engine runs (Resolve, then EnsureInstalled):
// every package in its node_modules is one the shipped lock names at that
// version. `bun x` had taken cross-spawn 7.1.2 here. About 80 MB; skipped
// with -short or when the registry cannot be reached.
func TestClaudeInstallTakesExactlyTheLockedTree(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: downloads about 80 MB from the npm registry")
	}
	const spec = "@zed-industries/claude-code-acp@0.16.2"
	exe, _ := filepath.Abs(filepath.Join("..", "..", "build", "bin"))
	_, err := Resolve(ResolveOptions{Package: spec, CacheDir: t.TempDir(), ExeDir: exe, LookPath: func(string) (string, error) { return "", errors.New("none") }})
	ni, ok := errors.AsType[*NotInstalledError](err)
	if !ok {
		t.Skipf("cannot install here: %v", err)
	}
	if err := EnsureInstalled(t.Context(), ni.Install, nil); err != nil {
		if strings.Contains(err.Error(), "cannot be reached") {
			t.Skipf("the npm registry cannot be reached: %v", err)
		}
		t.Fatal(err)
	}
	pkgs, err := bunlock.Parse(ni.Install.Lock)
	if err != nil {
		t.Fatal(err)
	}
	locked := map[string]bool{}
	for _, p := range pkgs {
		locked[p.Name+"@"+p.Version] = true
	}
	var installed []string
	err = filepath.WalkDir(filepath.Join(ni.Install.Dir, "node_modules"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "package.json" {
			return err
		}
		// A package's own package.json sits right below node_modules/<name>
		// (or node_modules/@scope/<name>); others are its files.
		rel := filepath.ToSlash(path)
		i := strings.LastIndex(rel, "/node_modules/")
		name := strings.TrimSuffix(rel[i+len("/node_modules/"):], "/package.json")
		if strings.Count(name, "/") > 1 || strings.Count(name, "/") == 1 && !strings.HasPrefix(name, "@") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var pj struct{ Name, Version string }
		if json.Unmarshal(b, &pj) != nil || pj.Name != name {
			return nil
		}
		installed = append(installed, pj.Name+"@"+pj.Version)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(installed) < 20 {
		t.Fatalf("only %d packages installed: %v", len(installed), installed)
	}
	for _, p := range installed {
		if !locked[p] {
			t.Errorf("installed %s, which the shipped lock does not name", p)
		}
	}
	for _, want := range []string{"cross-spawn@7.0.6", spec} {
		if !slices.Contains(installed, want) {
			t.Errorf("%s is not installed: %v", want, installed)
		}
	}
	bin, ok := installedBin(ni.Install.Dir)
	if !ok || !strings.Contains(bin, "claude-code-acp") {
		t.Errorf("the install runs %q", bin)
	}
}
