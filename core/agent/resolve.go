package agent

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// SidecarPackage is the npm package the bundled Bun sidecar runs, and
// SidecarVersion the version the app is tested with (settings.toml's
// codex_acp_version may name another).
const (
	SidecarPackage = "@agentclientprotocol/codex-acp"
	SidecarVersion = "2.6.0"
)

// ErrNotFound is wrapped by Resolve when no agent command could be found.
var ErrNotFound = errors.New("no ACP agent found")

// ResolveOptions says where to look for the agent.
type ResolveOptions struct {
	Override       string                       // --agent / CDXTHEME_AGENT: a command line, split once into words; wins over all
	Argv           []string                     // the agent's stored command as words (agents.toml); wins over the search
	Unset          []string                     // inherited environment variables the agent must not get
	SidecarVersion string                       // exact npm version of @agentclientprotocol/codex-acp the bundled Bun runs ("" = SidecarVersion)
	CacheDir       string                       // where the sidecar's adapter is installed (the app's cache dir + "agents"; required for the sidecar)
	ExeDir         string                       // directory of the running cdxtheme binary ("" = os.Executable's dir)
	Getenv         func(string) string          // nil = os.Getenv
	LookPath       func(string) (string, error) // nil = exec.LookPath
	// Package is name@version of an adapter the bundled Bun runs for an
	// agent kind of the app's own (Claude Code, Codex's Rust adapter): it
	// is installed first from the lockfile the app ships for it, exactly
	// the tested tree, as the sidecar's adapter is. Argv wins over it.
	Package string
}

// Platform-specific search lists, variables so tests can point them at temp dirs.
var (
	// systemSidecarDirs are install locations of packaged builds, searched
	// after the directories beside the executable.
	systemSidecarDirs = defaultSystemSidecarDirs
	// codexDirs lists where a ChatGPT desktop install may ship its own
	// `codex` binary; the first that holds one is put on the agent's PATH.
	codexDirs = defaultCodexDirs
)

func defaultSystemSidecarDirs() []string {
	if runtime.GOOS == "linux" {
		return []string{"/usr/lib/cdxtheme", "/usr/lib/cdxtheme/sidecar"}
	}
	return nil
}

func defaultCodexDirs(getenv func(string) string) []string {
	switch runtime.GOOS {
	case "darwin":
		var dirs []string
		roots := []string{"/Applications"}
		if home := getenv("HOME"); home != "" {
			roots = append(roots, filepath.Join(home, "Applications"))
		}
		for _, root := range roots {
			for _, app := range []string{"ChatGPT.app", "Codex.app"} {
				res := filepath.Join(root, app, "Contents", "Resources")
				dirs = append(dirs, filepath.Join(res, "codex"), filepath.Join(res, "codex", "bin"), res)
			}
		}
		return dirs
	case "windows":
		var dirs []string
		if lad := getenv("LOCALAPPDATA"); lad != "" {
			for _, app := range []string{"ChatGPT", "Codex"} {
				res := filepath.Join(lad, "Programs", app, "resources")
				dirs = append(dirs, filepath.Join(res, "codex"), filepath.Join(res, "codex", "bin"), res)
			}
		}
		return dirs
	}
	return nil
}

// Resolve picks the agent command: the override if set, else `codex-acp` on
// PATH, else the Bun sidecar shipped beside the app running the adapter it
// installed. The error, wrapping ErrNotFound, lists everything tried and how
// to fix it; a *NotInstalledError (ErrNotInstalled) means the sidecar is
// there but its adapter must be installed first (EnsureInstalled).
func Resolve(opts ResolveOptions) (Command, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	lookPath := opts.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	cmd, err := resolve(opts, getenv, lookPath)
	if err != nil {
		return Command{}, err
	}
	cmd.Unset = append(cmd.Unset, opts.Unset...)
	if dir := findCodexDir(getenv); dir != "" {
		path := dir
		if old := getenv("PATH"); old != "" {
			path += string(os.PathListSeparator) + old
		}
		cmd.Env = append(cmd.Env, "PATH="+path)
		cmd.Reason += fmt.Sprintf(" The ChatGPT-bundled codex in %s is put first on its PATH.", dir)
	}
	return cmd, nil
}

func resolve(opts ResolveOptions, getenv func(string) string, lookPath func(string) (string, error)) (Command, error) {
	if strings.TrimSpace(opts.Override) != "" {
		words, err := SplitCommand(opts.Override)
		if err != nil {
			return Command{}, fmt.Errorf("agent command from --agent or CDXTHEME_AGENT: %w", err)
		}
		return resolveWords(words, "--agent or CDXTHEME_AGENT", lookPath)
	}
	if len(opts.Argv) > 0 {
		return resolveWords(opts.Argv, "the agents list in Settings", lookPath)
	}
	if opts.Package != "" {
		return pinnedPackage(opts)
	}

	var tried []string
	if p, err := lookPath("codex-acp"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return Command{
			Path:   p,
			Source: SourcePath,
			Reason: fmt.Sprintf("No agent command is set, and codex-acp was found on PATH at %s.", p),
		}, nil
	}
	tried = append(tried, "`codex-acp` on PATH: not found")

	exeDir := opts.ExeDir
	if exeDir == "" {
		exeDir = executableDir()
	}
	dirs := sidecarDirs(exeDir)
	bun := "bun"
	if runtime.GOOS == "windows" {
		bun = "bun.exe"
	}
	for _, d := range dirs {
		p := filepath.Join(d, bun)
		if isExecutable(p) {
			return sidecar(opts, p, getenv)
		}
	}
	tried = append(tried, fmt.Sprintf("bundled Bun sidecar (%s in %s): not found", bun, strings.Join(dirs, ", ")))

	return Command{}, fmt.Errorf("%w; tried: %s. Fix: install codex-acp so it is on PATH (npm install -g %s), or set an agent command in Settings (or --agent / CDXTHEME_AGENT)",
		ErrNotFound, strings.Join(tried, "; "), SidecarPackage)
}

// exactVersion is what an install dir may be named after: no range, no tag.
var exactVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// sidecar runs the adapter installed for the bundled Bun at bun, or says
// (NotInstalledError) that it must be installed first: nothing is fetched
// while a turn runs.
func sidecar(opts ResolveOptions, bun string, getenv func(string) string) (Command, error) {
	version := opts.SidecarVersion
	if version == "" {
		version = SidecarVersion
	}
	if !exactVersion.MatchString(version) {
		return Command{}, fmt.Errorf("%w: the adapter version %q (codex_acp_version in settings.toml) is not an exact version like %s. Fix: set an exact version, or remove the setting to use the pinned one",
			ErrNotFound, version, SidecarVersion)
	}
	cache := opts.CacheDir
	if cache == "" {
		return Command{}, fmt.Errorf("%w: no folder to install the adapter in (ResolveOptions.CacheDir)", ErrNotFound)
	}
	dir := filepath.Join(cache, SidecarPackage[strings.LastIndex(SidecarPackage, "/")+1:]+"@"+version)
	lock, from, err := adapterLock(version, getenv)
	if err != nil {
		return Command{}, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	in := Install{Bun: bun, Package: SidecarPackage, Version: version, Dir: dir, Getenv: getenv, Lock: lock, LockFrom: from}
	bin, ok := installedBin(dir)
	if !ok {
		return Command{}, &NotInstalledError{Install: in}
	}
	return Command{
		Path:   bun,
		Args:   sidecarArgs(dir, bin),
		Source: SourceSidecar,
		Reason: fmt.Sprintf("No agent command is set and codex-acp is not on PATH, so the bundled Bun at %s runs %s, installed in %s.", bun, in.Spec(), dir),
	}, nil
}

// pinnedPackage runs opts.Package, installed from its shipped lockfile
// for the bundled Bun, or says (NotInstalledError) that it must be
// installed first. `bun x name@version` pinned only the top package: its
// dependencies floated to whatever the registry had that day.
func pinnedPackage(opts ResolveOptions) (Command, error) {
	at := strings.LastIndex(opts.Package, "@")
	if at <= 0 || !exactVersion.MatchString(opts.Package[at+1:]) {
		return Command{}, fmt.Errorf("%w: the agent package %q is not name@exact-version", ErrNotFound, opts.Package)
	}
	name, version := opts.Package[:at], opts.Package[at+1:]
	bun := FindBun(opts.ExeDir)
	if bun == "" {
		return Command{}, fmt.Errorf("%w: %s runs with Bun, and neither the app's bundled Bun nor one on PATH was found. Fix: reinstall the app, or install Bun", ErrNotFound, opts.Package)
	}
	if opts.CacheDir == "" {
		return Command{}, fmt.Errorf("%w: no folder to install %s in (ResolveOptions.CacheDir)", ErrNotFound, opts.Package)
	}
	lock, err := shippedLocks.ReadFile(PackageLockPath(name, version))
	if err != nil {
		return Command{}, fmt.Errorf("%w: this app ships no tested lockfile for %s", ErrNotFound, opts.Package)
	}
	dir := filepath.Join(opts.CacheDir, packageDirName(name, version))
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	in := Install{Bun: bun, Package: name, Version: version, Dir: dir, Getenv: getenv, Lock: lock, LockFrom: "the app's tested lockfile"}
	bin, ok := installedBin(dir)
	if !ok {
		return Command{}, &NotInstalledError{Install: in}
	}
	return Command{
		Path:   bun,
		Args:   sidecarArgs(dir, bin),
		Source: SourceSidecar,
		Reason: fmt.Sprintf("The agents list runs %s with Bun (%s), installed in %s from the app's tested lockfile.", in.Spec(), bun, dir),
	}, nil
}

// resolveWords pins an explicit command (from names where it came from).
func resolveWords(words []string, from string, lookPath func(string) (string, error)) (Command, error) {
	if len(words) == 0 || strings.TrimSpace(words[0]) == "" {
		return Command{}, fmt.Errorf("the agent command from %s is empty", from)
	}
	p, err := lookPath(words[0])
	if err != nil {
		return Command{}, fmt.Errorf("%w: cannot run %s (the agent command from %s): %s. Fix: correct the agent command (in Settings, or --agent / CDXTHEME_AGENT), or install that program",
			ErrNotFound, Command{Path: words[0], Args: words[1:]}, from, whereLooked(words[0]))
	}
	// The agent runs with cwd = the workspace, so a relative path must be
	// pinned to where the user meant it.
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return Command{
		Path:   p,
		Args:   append([]string(nil), words[1:]...),
		Source: SourceOverride,
		Reason: fmt.Sprintf("The agent command was set explicitly (%s).", from),
	}, nil
}

// whereLooked says where a program that was not found was looked for.
func whereLooked(prog string) string {
	if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, filepath.Separator) {
		abs, err := filepath.Abs(prog)
		if err != nil {
			abs = prog
		}
		if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
			return fmt.Sprintf("%s is not executable", abs)
		}
		return fmt.Sprintf("there is no program at %s", abs)
	}
	dirs := filepath.SplitList(os.Getenv("PATH"))
	if len(dirs) == 0 {
		return fmt.Sprintf("%q is not on PATH, which is empty", prog)
	}
	return fmt.Sprintf("%q is not on PATH (looked in %s)", prog, strings.Join(dirs, ", "))
}

// FindBun is the Bun the app ships (beside the executable, in its sidecar
// folder, or the packaged system dirs), else the one on PATH; "" if none.
func FindBun(exeDir string) string {
	name := "bun"
	if runtime.GOOS == "windows" {
		name = "bun.exe"
	}
	if exeDir == "" {
		exeDir = executableDir()
	}
	for _, d := range sidecarDirs(exeDir) {
		if p := filepath.Join(d, name); isExecutable(p) {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return ""
}

// executableDir is the running binary's folder, through symlinks
// (/usr/bin/cdxtheme points into /usr/lib/cdxtheme, where bun is).
func executableDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe)
}

func sidecarDirs(exeDir string) []string {
	var dirs []string
	if exeDir != "" {
		dirs = append(dirs, exeDir, filepath.Join(exeDir, "sidecar"))
		if runtime.GOOS == "darwin" {
			res := filepath.Join(exeDir, "..", "Resources")
			dirs = append(dirs, filepath.Clean(res), filepath.Join(res, "sidecar"))
		}
	}
	return append(dirs, systemSidecarDirs()...)
}

func findCodexDir(getenv func(string) string) string {
	name := "codex"
	if runtime.GOOS == "windows" {
		name = "codex.exe"
	}
	for _, d := range codexDirs(getenv) {
		if isExecutable(filepath.Join(d, name)) {
			return d
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
