package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cdxtheme/core/agent"
	"cdxtheme/core/bunlock"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/npmstub"
)

// installRig is a cache folder, the pinned Bun and a stub registry that
// serves the fake agent as the adapter.
type installRig struct {
	stub  *npmstub.Server
	cache string
	env   map[string]string
	bun   string
	total int64
}

func newInstallRig(t *testing.T, opts npmstub.Options) *installRig {
	t.Helper()
	bun := npmstub.Bun(t)
	if opts.Packages == nil {
		opts.Packages = []npmstub.Package{npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0"), npmstub.Filler(2 << 20)}
	}
	stub, err := npmstub.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stub.Close)
	r := &installRig{stub: stub, cache: t.TempDir(), bun: bun, env: map[string]string{"BUN_CONFIG_REGISTRY": stub.URL, "HOME": t.TempDir()}}
	r.total = stub.TarballSize(npmstub.AgentPackage, "2.6.0") + stub.TarballSize(npmstub.FillerPackage, "1.0.0")
	// The tested tree: the adapter and the dependency it was published
	// with, locked as the app ships the real adapter's.
	var tree []npmstub.Package
	for _, p := range opts.Packages {
		if p.Name == npmstub.AgentPackage && p.Version == "2.6.0" || p.Name == npmstub.FillerPackage && p.Version == "1.0.0" {
			tree = append(tree, p)
		}
	}
	lock, err := bunlock.FromNPM(stub.PackageLock(tree...), npmstub.AgentPackage, "2.6.0")
	if err != nil {
		t.Fatal(err)
	}
	r.env[agent.EnvAdapterLock] = filepath.Join(t.TempDir(), "tested.bun.lock")
	if err := os.WriteFile(r.env[agent.EnvAdapterLock], lock, 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// installedVersion is the version of name the install put in node_modules.
func installedVersion(t *testing.T, in agent.Install, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(in.Dir, "node_modules", filepath.FromSlash(name), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pj struct{ Version string }
	if err := json.Unmarshal(b, &pj); err != nil {
		t.Fatal(err)
	}
	return pj.Version
}

func fetched(stub *npmstub.Server, suffix string) bool {
	for _, req := range stub.Requests() {
		if strings.HasPrefix(req, "GET ") && strings.HasSuffix(req, suffix) {
			return true
		}
	}
	return false
}

// A registry that has since published a newer dependency inside the
// adapter's range (^1.0.0) does not get it installed: the install takes the
// locked tree, never resolves afresh, and never downloads the newer one.
// When the registry no longer has the locked version, the install fails
// rather than take another.
func TestInstallTakesTheLockedTreeNotTheNewest(t *testing.T) {
	agentPkg := npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0")
	pkgs := []npmstub.Package{agentPkg, npmstub.Filler(64 << 10), npmstub.FillerVersion("1.0.1", 64<<10)}
	r := newInstallRig(t, npmstub.Options{Packages: pkgs})
	in := r.pending(t, "2.6.0")
	if err := agent.EnsureInstalled(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
	if v := installedVersion(t, in, npmstub.FillerPackage); v != "1.0.0" {
		t.Errorf("installed %s %s, want the locked 1.0.0", npmstub.FillerPackage, v)
	}
	if fetched(r.stub, "cdx-filler-1.0.1.tgz") {
		t.Errorf("the newer dependency was downloaded: %v", r.stub.Requests())
	}

	only := newInstallRig(t, npmstub.Options{Packages: pkgs})
	only.stub.Unpublish(npmstub.FillerPackage, "1.0.0")
	err := agent.EnsureInstalled(context.Background(), only.pending(t, "2.6.0"), nil)
	var ie *agent.InstallError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "cdx-filler") {
		t.Fatalf("with only the newer dependency published, EnsureInstalled = %v, want an InstallError naming cdx-filler", err)
	}
	if left := only.leftovers(t); len(left) != 0 {
		t.Errorf("left in the cache: %v", left)
	}
}

// A tarball whose bytes differ from the lockfile's integrity hash (the same
// version republished, or changed on the way) is refused: nothing is
// installed and the error names the package and the hash.
func TestInstallRefusesATamperedTarball(t *testing.T) {
	agentPkg := npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0")
	r := newInstallRig(t, npmstub.Options{Packages: []npmstub.Package{agentPkg, npmstub.Filler(64 << 10)}})
	tampered := npmstub.Filler(64 << 10)
	tampered.Files = append(tampered.Files, npmstub.File{Path: "postinstall.js", Body: []byte("require('child_process').execSync('id')")})
	if err := r.stub.Replace(tampered); err != nil {
		t.Fatal(err)
	}
	in := r.pending(t, "2.6.0")
	err := agent.EnsureInstalled(context.Background(), in, nil)
	var ie *agent.InstallError
	if !errors.As(err, &ie) {
		t.Fatalf("EnsureInstalled = %v, want an InstallError", err)
	}
	for _, s := range []string{"cdx-filler@1.0.0", "integrity", "refused"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q:\n%v", s, err)
		}
	}
	if left := r.leftovers(t); len(left) != 0 {
		t.Errorf("left in the cache: %v", left)
	}
	r.pending(t, "2.6.0")
}

func (r *installRig) resolveOpts(version string) agent.ResolveOptions {
	return agent.ResolveOptions{
		SidecarVersion: version,
		ExeDir:         filepath.Dir(r.bun),
		CacheDir:       r.cache,
		Getenv:         func(k string) string { return r.env[k] },
		LookPath:       func(string) (string, error) { return "", exec.ErrNotFound },
	}
}

// pending is what Resolve says must be installed first.
func (r *installRig) pending(t *testing.T, version string) agent.Install {
	t.Helper()
	_, err := agent.Resolve(r.resolveOpts(version))
	var ni *agent.NotInstalledError
	if !errors.As(err, &ni) {
		t.Fatalf("Resolve = %v, want NotInstalledError", err)
	}
	return ni.Install
}

// leftovers lists what is in the cache folder besides the lock files.
func (r *installRig) leftovers(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(r.cache)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			out = append(out, e.Name())
		}
	}
	return out
}

type recorder struct {
	mu  sync.Mutex
	all []agent.InstallProgress
}

func (r *recorder) add(p agent.InstallProgress) {
	r.mu.Lock()
	r.all = append(r.all, p)
	r.mu.Unlock()
}

func (r *recorder) list() []agent.InstallProgress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]agent.InstallProgress(nil), r.all...)
}

// Cancelling mid-download stops Bun at once, leaves no folder behind (least
// of all one that counts as installed), and a later install succeeds.
func TestInstallCancelledMidDownloadLeavesNothing(t *testing.T) {
	r := newInstallRig(t, npmstub.Options{Rate: 256 << 10})
	in := r.pending(t, "2.6.0")
	ctx, cancel := context.WithCancel(context.Background())
	var rec recorder
	start := time.Now()
	err := agent.EnsureInstalled(ctx, in, func(p agent.InstallProgress) {
		rec.add(p)
		if p.Phase == agent.PhaseDownloading && p.Done > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("EnsureInstalled = %v, want cancelled", err)
	}
	var ie *agent.InstallError
	if errors.As(err, &ie) {
		t.Errorf("a cancel reported as a failed install: %v", err)
	}
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("the cancel took until %s (the download takes 8 s)", took)
	}
	if left := r.leftovers(t); len(left) != 0 {
		t.Errorf("left in the cache after the cancel: %v", left)
	}
	r.pending(t, "2.6.0")

	r.stub.SetRate(0)
	if err := agent.EnsureInstalled(context.Background(), in, nil); err != nil {
		t.Fatalf("install after the cancel: %v", err)
	}
	cmd, err := agent.Resolve(r.resolveOpts("2.6.0"))
	if err != nil || cmd.Source != agent.SourceSidecar {
		t.Fatalf("after the install Resolve = %s, %v", cmd, err)
	}
	if left := r.leftovers(t); len(left) != 1 || left[0] != "codex-acp@2.6.0" {
		t.Errorf("cache holds %v, want only the install", left)
	}
	if _, err := os.Stat(filepath.Join(in.Dir, ".bun-cache")); err == nil {
		t.Error("Bun's download cache was kept beside the installed packages")
	}
}

// What a killed app leaves (a temporary folder, a folder without
// installed.json) never counts as installed and is cleared by the next
// install.
func TestInstallReplacesWhatAKilledInstallLeft(t *testing.T) {
	r := newInstallRig(t, npmstub.Options{})
	in := r.pending(t, "2.6.0")
	for _, d := range []string{
		filepath.Join(r.cache, ".tmp-codex-acp@2.6.0-123", "node_modules", "x"),
		filepath.Join(in.Dir, "node_modules", "@agentclientprotocol", "codex-acp", "dist"),
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(in.Dir, "node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.pending(t, "2.6.0") // a folder without installed.json is no install
	if err := agent.EnsureInstalled(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
	if left := r.leftovers(t); len(left) != 1 || left[0] != "codex-acp@2.6.0" {
		t.Errorf("cache holds %v, want only the install", left)
	}
	b, err := os.ReadFile(filepath.Join(in.Dir, "node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js"))
	if err != nil || string(b) == "half" {
		t.Errorf("the half-written entry point survived: %q, %v", b, err)
	}
}

// Offline, refused, or a version the registry lacks: a clear error naming
// the cause and what to install instead, fast, leaving nothing behind.
func TestInstallFailuresSayWhatToDo(t *testing.T) {
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/"
	}
	tests := []struct {
		name    string
		version string
		setup   func(r *installRig)
		want    []string
	}{
		{"registry unreachable", "2.6.0", func(r *installRig) { r.env["BUN_CONFIG_REGISTRY"] = closed() }, []string{"cannot be reached", "connection refused"}},
		{"registry refuses", "2.6.0", func(r *installRig) { r.stub.Refuse(403) }, []string{"refused", "403"}},
		{"version not published", "9.9.9", func(*installRig) {}, []string{"has no version 9.9.9 of @agentclientprotocol/codex-acp"}},
		{"a dependency is missing", "2.6.0", func(r *installRig) {}, []string{"cdx-filler"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newInstallRig(t, npmstub.Options{})
			if tt.name == "a dependency is missing" {
				r.stub.Unpublish(npmstub.FillerPackage, "1.0.0")
			}
			tt.setup(r)
			in := r.pending(t, tt.version)
			start := time.Now()
			err := agent.EnsureInstalled(context.Background(), in, nil)
			var ie *agent.InstallError
			if !errors.As(err, &ie) {
				t.Fatalf("EnsureInstalled = %v, want an InstallError", err)
			}
			msg := err.Error()
			spec := "@agentclientprotocol/codex-acp@" + tt.version
			for _, s := range append(tt.want, "Could not install the agent "+spec, "npm install -g "+spec, "set an agent command in Settings") {
				if !strings.Contains(msg, s) {
					t.Errorf("error lacks %q:\n%s", s, msg)
				}
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("failing took %s", took)
			}
			if left := r.leftovers(t); len(left) != 0 {
				t.Errorf("left in the cache: %v", left)
			}
		})
	}
}

// A registry that does not answer HEAD: the total is learnt from each
// download's Content-Length, and progress still only grows to 100 %.
func TestInstallProgressWithoutHead(t *testing.T) {
	r := newInstallRig(t, npmstub.Options{NoHead: true, Rate: 2 << 20})
	var rec recorder
	if err := agent.EnsureInstalled(context.Background(), r.pending(t, "2.6.0"), rec.add); err != nil {
		t.Fatal(err)
	}
	all := rec.list()
	last := all[len(all)-1]
	if last.Phase != agent.PhaseDone || last.Done != r.total || last.Total != r.total {
		t.Errorf("last %+v, want done at %d", last, r.total)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Done < all[i-1].Done || all[i].Total < all[i-1].Total {
			t.Errorf("progress went back: %+v after %+v", all[i], all[i-1])
		}
	}
}

// With a registry that answers HEAD, the download's first progress already
// shows the whole size: the bar does not start at an unknown total and
// jump as each download begins.
func TestInstallProgressKnowsTheTotalFromTheStart(t *testing.T) {
	r := newInstallRig(t, npmstub.Options{})
	var rec recorder
	if err := agent.EnsureInstalled(context.Background(), r.pending(t, "2.6.0"), rec.add); err != nil {
		t.Fatal(err)
	}
	for _, p := range rec.list() {
		if p.Phase == agent.PhaseDownloading {
			if p.Done != 0 || p.Total != r.total {
				t.Fatalf("first download progress %+v, want 0 of %d", p, r.total)
			}
			return
		}
	}
	t.Fatalf("no download progress in %+v", rec.list())
}

// Two installs of the same adapter at once (two windows, the app and the
// CLI): one downloads, the other waits, both end installed, every tarball is
// fetched once.
func TestConcurrentInstallsDownloadOnce(t *testing.T) {
	r := newInstallRig(t, npmstub.Options{Rate: 4 << 20})
	in := r.pending(t, "2.6.0")
	var wg sync.WaitGroup
	recs := make([]recorder, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = agent.EnsureInstalled(context.Background(), in, recs[i].add)
		}()
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("install %d: %v", i, err)
		}
	}
	waited := 0
	for i := range recs {
		all := recs[i].list()
		if all[len(all)-1].Phase != agent.PhaseDone {
			t.Errorf("install %d did not end done: %+v", i, all)
		}
		if all[0].Phase == agent.PhaseWaiting {
			waited++
		}
	}
	if waited != 1 {
		t.Errorf("%d installs waited, want 1", waited)
	}
	gets := 0
	for _, req := range r.stub.Requests() {
		if strings.HasPrefix(req, "GET ") && strings.HasSuffix(req, ".tgz") {
			gets++
		}
	}
	if gets != 2 {
		t.Errorf("%d tarball downloads, want 2 (one per package): %v", gets, r.stub.Requests())
	}
}
