package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/bunlock"
)

// Install is the sidecar's adapter as the bundled Bun installs it into the
// app's cache: Dir holds a package.json that depends on Package@Version,
// Bun's lockfile and node_modules, and installed.json, written last. Only
// a Dir with installed.json naming an existing entry point counts as
// installed, and Dir only ever appears by renaming a finished temporary
// folder, so an interrupted install is never taken for a finished one.
type Install struct {
	Bun     string              // the bundled Bun that installs and runs the adapter
	Package string              // npm name, e.g. @agentclientprotocol/codex-acp
	Version string              // exact version
	Dir     string              // e.g. ~/.cache/cdxtheme/agents/codex-acp@2.6.0
	Getenv  func(string) string // the registry configuration; nil = os.Getenv
	// Lock is the bun.lock installed from, frozen: exactly its packages,
	// each checked against its integrity hash (nil = none ships for this
	// version, and the install is refused). LockFrom says where it came from.
	Lock     []byte
	LockFrom string
}

// Spec is name@version, as npm writes it.
func (in Install) Spec() string { return in.Package + "@" + in.Version }

// Install phases, in order.
const (
	PhaseWaiting     = "waiting"     // another window or command is installing the same adapter
	PhaseResolving   = "resolving"   // asking the registry what to download
	PhaseDownloading = "downloading" // Bun fetches the packages; Done/Total count their bytes
	PhaseFinishing   = "finishing"   // checking the result and moving it into place
	PhaseDone        = "done"
)

// InstallProgress is one step of an install, reported to the user.
type InstallProgress struct {
	Package string `json:"package"` // name@version
	Phase   string `json:"phase"`
	Done    int64  `json:"done"`  // bytes of the packages' tarballs received
	Total   int64  `json:"total"` // their size from the registry; 0 while unknown
}

// ErrNotInstalled is wrapped by Resolve when the sidecar's adapter still has
// to be installed (see NotInstalledError).
var ErrNotInstalled = errors.New("the agent is not installed yet")

// NotInstalledError is Resolve's answer when the sidecar would run an adapter
// that is not installed: EnsureInstalled(Install) makes it so.
type NotInstalledError struct{ Install Install }

func (e *NotInstalledError) Error() string {
	return fmt.Sprintf("%s is not installed yet for the bundled Bun (%s); it is installed into %s before the first turn",
		e.Install.Spec(), e.Install.Bun, e.Install.Dir)
}

func (e *NotInstalledError) Unwrap() error { return ErrNotInstalled }

// InstallError is a failed install: why, and what to do instead.
type InstallError struct {
	Spec     string
	Registry string
	Err      error
}

func (e *InstallError) Error() string {
	return fmt.Sprintf("Could not install the agent %s from %s: %v. Install it yourself with `npm install -g %s` (it is then found on PATH), or set an agent command in Settings (or --agent / CDXTHEME_AGENT).",
		e.Spec, redact(e.Registry), e.Err, e.Spec)
}

func (e *InstallError) Unwrap() error { return e.Err }

// redact drops credentials from a registry URL for messages.
func redact(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Redacted()
	}
	return u
}

// markerName is the file whose presence makes an install count.
const markerName = "installed.json"

type marker struct {
	Package     string    `json:"package"`
	Version     string    `json:"version"`
	Bin         string    `json:"bin"` // the adapter's entry point, relative to the install dir
	InstalledAt time.Time `json:"installedAt"`
}

// installedBin returns the adapter's entry point when dir is a finished install.
func installedBin(dir string) (string, bool) {
	b, err := readSmall(filepath.Join(dir, markerName))
	if err != nil {
		return "", false
	}
	var m marker
	if json.Unmarshal(b, &m) != nil || !filepath.IsLocal(filepath.FromSlash(m.Bin)) {
		return "", false
	}
	p := filepath.Join(dir, filepath.FromSlash(m.Bin))
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return p, true
}

// sidecarCommand runs an installed adapter with the bundled Bun. Bun reads
// `.env` and `bunfig.toml` (whose preload runs code) from its working
// directory, and the adapter starts codex through Bun again: so Bun starts in
// the install dir, never in the agent-written workspace, with the install's
// own empty bunfig and no env file.
func sidecarArgs(dir, bin string) []string {
	return []string{"--cwd=" + dir, "--no-env-file", "--config=" + filepath.Join(dir, "bunfig.toml"), bin}
}

// progressEvery is how often a running download reports.
const progressEvery = 100 * time.Millisecond

// lockPoll is how often a waiting install checks the lock again.
const lockPoll = 200 * time.Millisecond

// EnsureInstalled installs in.Package@in.Version into in.Dir unless it is
// there already, reporting progress. It is cancelled with ctx (nothing is
// left that counts as installed), and waits while another process or
// goroutine installs the same adapter. Errors other than ctx's are
// *InstallError.
func EnsureInstalled(ctx context.Context, in Install, progress func(InstallProgress)) error {
	if progress == nil {
		progress = func(InstallProgress) {}
	}
	if in.Getenv == nil {
		in.Getenv = os.Getenv
	}
	registry := Registry(in.Getenv)
	fail := func(err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("install of %s cancelled: %w", in.Spec(), ctx.Err())
		}
		return &InstallError{Spec: in.Spec(), Registry: registry, Err: err}
	}
	parent, name := filepath.Dir(in.Dir), filepath.Base(in.Dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fail(fmt.Errorf("the cache folder cannot be created: %w", err))
	}
	unlock, err := lockPath(ctx, filepath.Join(parent, "."+name+".lock"), func() {
		progress(InstallProgress{Package: in.Spec(), Phase: PhaseWaiting})
	})
	if err != nil {
		return fail(err)
	}
	defer unlock()
	if _, ok := installedBin(in.Dir); ok {
		progress(InstallProgress{Package: in.Spec(), Phase: PhaseDone})
		return nil
	}
	// Under the lock, whatever is left of earlier attempts is stale.
	stale, _ := filepath.Glob(filepath.Join(parent, ".tmp-"+name+"-*"))
	for _, d := range stale {
		os.RemoveAll(d)
	}
	if err := os.RemoveAll(in.Dir); err != nil {
		return fail(fmt.Errorf("the unfinished install in %s cannot be removed: %w", in.Dir, err))
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-"+name+"-")
	if err != nil {
		return fail(fmt.Errorf("the cache folder is not writable: %w", err))
	}
	defer func() {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
	}()
	total, err := in.run(ctx, tmp, registry, progress)
	if err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, in.Dir); err != nil {
		return fail(fmt.Errorf("the finished install cannot be moved to %s: %w", in.Dir, err))
	}
	tmp = ""
	progress(InstallProgress{Package: in.Spec(), Phase: PhaseDone, Done: total, Total: total})
	return nil
}

// lockPath holds an exclusive lock on path until the returned func is
// called; while another holder has it, it calls waiting once and polls.
func lockPath(ctx context.Context, path string, waiting func()) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("the install lock %s cannot be opened: %w", path, err)
	}
	told := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("the install lock %s cannot be taken: %w", path, err)
		}
		if ok {
			return func() { f.Close() }, nil
		}
		if !told {
			told = true
			waiting()
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// run installs into tmp: check the registry has the version, write the
// lockfile, size the tarballs Bun will fetch, install them frozen through the
// proxy counting their bytes, check the entry point, write the marker. It
// returns the bytes total.
func (in Install) run(ctx context.Context, tmp, registry string, progress func(InstallProgress)) (int64, error) {
	report := func(phase string, done, total int64) {
		progress(InstallProgress{Package: in.Spec(), Phase: phase, Done: done, Total: total})
	}
	report(PhaseResolving, 0, 0)
	client := registryClient()
	defer client.CloseIdleConnections()
	if err := checkPublished(ctx, client, registry, in.Package, in.Version); err != nil {
		return 0, err
	}
	pkgs, err := in.lockedPackages()
	if err != nil {
		return 0, err
	}
	pkg, _ := json.MarshalIndent(map[string]any{
		"name":         bunlock.RootName,
		"private":      true,
		"description":  "The ACP adapter the cdxtheme app runs with its bundled Bun (installed by the app; safe to delete).",
		"dependencies": map[string]string{in.Package: in.Version},
	}, "", "  ")
	for name, body := range map[string][]byte{"package.json": pkg, "bunfig.toml": nil, "bun.lock": in.Lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), body, 0o644); err != nil {
			return 0, fmt.Errorf("write %s: %w", name, err)
		}
	}
	proxy, err := startProxy(registry, client, pkgs)
	if err != nil {
		return 0, err
	}
	defer proxy.close()
	sizes := tarballSizes(ctx, client, proxy, pkgs)
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}

	meter := newMeter(sizes, proxy)
	report(PhaseDownloading, 0, meter.total())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if done, total, changed := meter.read(); changed {
					report(PhaseDownloading, done, total)
				}
			}
		}
	}()
	err = in.bun(ctx, tmp, proxy)
	close(stop)
	wg.Wait()
	if err != nil {
		return 0, err
	}
	done, total, _ := meter.read()
	report(PhaseFinishing, done, total)

	bin, err := entryPoint(tmp, in.Package, in.Version)
	if err != nil {
		return 0, err
	}
	// The packages are in node_modules (hard links or copies): Bun's cache
	// of them is not needed twice.
	os.RemoveAll(filepath.Join(tmp, ".bun-cache"))
	m, _ := json.MarshalIndent(marker{Package: in.Package, Version: in.Version, Bin: filepath.ToSlash(bin), InstalledAt: time.Now().UTC()}, "", "  ")
	if err := writeSynced(filepath.Join(tmp, markerName), m); err != nil {
		return 0, fmt.Errorf("write %s: %w", markerName, err)
	}
	return total, nil
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entryPoint checks that Bun installed the package at the version asked and
// returns its bin (relative to dir): the entry named like the package, or
// its only one.
func entryPoint(dir, name, version string) (string, error) {
	pkgDir := filepath.Join("node_modules", filepath.FromSlash(name))
	b, err := readSmall(filepath.Join(dir, pkgDir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("bun finished but %s is missing: %w", filepath.Join(pkgDir, "package.json"), err)
	}
	var pj struct {
		Version string `json:"version"`
		Bin     any    `json:"bin"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		return "", fmt.Errorf("the installed %s has an unreadable package.json: %w", name, err)
	}
	if pj.Version != version {
		return "", fmt.Errorf("bun installed %s %s instead of %s", name, pj.Version, version)
	}
	short := name[strings.LastIndex(name, "/")+1:]
	var rel string
	switch b := pj.Bin.(type) {
	case string:
		rel = b
	case map[string]any:
		if s, ok := b[short].(string); ok {
			rel = s
		} else if len(b) == 1 {
			for _, v := range b {
				rel, _ = v.(string)
			}
		}
	}
	rel = filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || rel == "." || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("the installed %s names no program to run (bin %v)", name, pj.Bin)
	}
	p := filepath.Join(pkgDir, rel)
	if fi, err := os.Stat(filepath.Join(dir, p)); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("the installed %s lacks its program %s", name, rel)
	}
	return p, nil
}

// bun runs `bun install` of the lockfile in dir through the proxy: frozen
// (a lockfile that does not fit package.json fails instead of being
// re-resolved) and with no package's install scripts.
func (in Install) bun(ctx context.Context, dir string, proxy *regProxy) error {
	args := []string{"install", "--frozen-lockfile",
		"--cache-dir=" + filepath.Join(dir, ".bun-cache"),
		"--linker=hoisted", "--ignore-scripts", "--no-env-file", "--no-progress", "--no-summary",
		"--config=" + filepath.Join(dir, "bunfig.toml"),
	}
	cmd := exec.CommandContext(ctx, in.Bun, args...)
	cmd.Dir = dir
	cmd.Env = installEnv(os.Environ(), proxy.base)
	cmd.SysProcAttr = installAttr()
	cmd.WaitDelay = 5 * time.Second
	var out tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Pdeathsig follows the thread that started the child: keep that thread
	// (and this goroutine on it) until Bun is done.
	runtime.LockOSThread()
	err := cmd.Run()
	runtime.UnlockOSThread()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil {
		return nil
	}
	if uerr := proxy.upstreamErr(); uerr != nil {
		return uerr
	}
	msg := strings.TrimSpace(out.String())
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("bun install failed: %s", msg)
}

// lockedPackages reads the install's lockfile: it must pin in.Package at
// in.Version, give every package an integrity hash and leave every address
// to the registry (an entry with its own URL would bypass the proxy).
func (in Install) lockedPackages() ([]bunlock.Package, error) {
	if in.Lock == nil {
		return nil, fmt.Errorf("this app ships no tested lockfile for version %s (only for %s); remove codex_acp_version from settings.toml, or name a lockfile you trust in %s", in.Version, SidecarVersion, EnvAdapterLock)
	}
	pkgs, err := bunlock.Parse(in.Lock)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.LockFrom, err)
	}
	root := false
	for _, p := range pkgs {
		switch {
		case p.URL != "":
			return nil, fmt.Errorf("%s fetches %s@%s from its own address %s; only registry packages are installed", in.LockFrom, p.Name, p.Version, redact(p.URL))
		case p.Integrity == "":
			return nil, fmt.Errorf("%s has no integrity hash for %s@%s", in.LockFrom, p.Name, p.Version)
		case p.Name == in.Package && p.Version == in.Version:
			root = true
		}
	}
	if !root {
		return nil, fmt.Errorf("%s does not pin %s", in.LockFrom, in.Spec())
	}
	return pkgs, nil
}

// installEnv is the environment for `bun install`: the proxy is its only
// registry, named in the environment because a command line is readable by
// every user of the machine (/proc/PID/cmdline) and the address holds the
// proxy's secret; and the loopback proxy must not be sent through an HTTP
// proxy.
func installEnv(env []string, registry string) []string {
	out := make([]string, 0, len(env)+3)
	noProxy := "127.0.0.1,localhost"
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "BUN_CONFIG_REGISTRY", "NPM_CONFIG_REGISTRY":
			continue
		}
		switch k {
		case "NO_PROXY", "no_proxy":
			if v != "" {
				noProxy += "," + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "BUN_CONFIG_REGISTRY="+registry, "NO_PROXY="+noProxy, "no_proxy="+noProxy)
}

// tarballSizes asks the registry (HEAD, in parallel) for the size of every
// tarball Bun will fetch; a size it does not say is learnt from the GET.
func tarballSizes(ctx context.Context, client *http.Client, proxy *regProxy, pkgs []bunlock.Package) map[string]int64 {
	sizes := map[string]int64{}
	var mu sync.Mutex
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, p := range pkgs {
		u := proxy.tarballURL(p.Name, p.Version)
		mu.Lock()
		sizes[u] = -1
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(hctx, http.MethodHead, u, nil)
			if err != nil {
				return
			}
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && resp.ContentLength >= 0 {
				mu.Lock()
				sizes[u] = resp.ContentLength
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return sizes
}

// meter turns the proxy's counts into progress that never goes backwards:
// the total is the registry's sizes, corrected by each GET's Content-Length.
type meter struct {
	sizes      map[string]int64 // tarball URL → size (-1 unknown)
	proxy      *regProxy
	done, tot  int64
	lastReport [2]int64
}

func newMeter(sizes map[string]int64, proxy *regProxy) *meter {
	return &meter{sizes: sizes, proxy: proxy}
}

func (m *meter) total() int64 {
	var t int64
	for _, n := range m.sizes {
		if n > 0 {
			t += n
		}
	}
	return t
}

func (m *meter) read() (done, total int64, changed bool) {
	for u, n := range m.proxy.contentLengths() {
		m.sizes[u] = n
	}
	total = max(m.total(), m.tot)
	done = min(max(m.proxy.received(), m.done), total)
	m.done, m.tot = done, total
	cur := [2]int64{done, total}
	changed = cur != m.lastReport
	m.lastReport = cur
	return done, total, changed
}

// tailBuffer keeps the last 8 KiB written: Bun's output for an error message.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

const tailMax = 8 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > tailMax {
		t.b = append(t.b[:0], t.b[len(t.b)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return strings.Join(lines, "\n")
}
