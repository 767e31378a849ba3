package agent

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// SidecarPackage is the npm package the bundled Bun sidecar runs.
const SidecarPackage = "@agentclientprotocol/codex-acp"

// ErrNotFound is wrapped by Resolve when no agent command could be found.
var ErrNotFound = errors.New("no ACP agent found")

// ResolveOptions says where to look for the agent.
type ResolveOptions struct {
	Override       string                       // settings agent command / --agent / CDXTHEME_AGENT (shell-style words); wins over all
	SidecarVersion string                       // npm version of @agentclientprotocol/codex-acp run by the bundled bun ("" = latest)
	ExeDir         string                       // directory of the running cdxtheme binary ("" = os.Executable's dir)
	Getenv         func(string) string          // nil = os.Getenv
	LookPath       func(string) (string, error) // nil = exec.LookPath
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
// PATH, else the Bun sidecar shipped beside the app. The error, wrapping
// ErrNotFound, lists everything tried and how to fix it.
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
		return resolveOverride(opts.Override, lookPath)
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
		if exe, err := os.Executable(); err == nil {
			// /usr/bin/cdxtheme is a symlink into /usr/lib/cdxtheme, where bun is.
			if real, err := filepath.EvalSymlinks(exe); err == nil {
				exe = real
			}
			exeDir = filepath.Dir(exe)
		}
	}
	dirs := sidecarDirs(exeDir)
	bun := "bun"
	if runtime.GOOS == "windows" {
		bun = "bun.exe"
	}
	for _, d := range dirs {
		p := filepath.Join(d, bun)
		if isExecutable(p) {
			version := opts.SidecarVersion
			if version == "" {
				version = "latest"
			}
			pkg := SidecarPackage + "@" + version
			return Command{
				Path:   p,
				Args:   []string{"x", pkg},
				Source: SourceSidecar,
				Reason: fmt.Sprintf("No agent command is set and codex-acp is not on PATH, so the bundled Bun at %s runs %s.", p, pkg),
			}, nil
		}
	}
	tried = append(tried, fmt.Sprintf("bundled Bun sidecar (%s in %s): not found", bun, strings.Join(dirs, ", ")))

	return Command{}, fmt.Errorf("%w; tried: %s. Fix: install codex-acp so it is on PATH (npm install -g %s), or set an agent command in Settings (or --agent / CDXTHEME_AGENT)",
		ErrNotFound, strings.Join(tried, "; "), SidecarPackage)
}

func resolveOverride(override string, lookPath func(string) (string, error)) (Command, error) {
	words, err := splitWords(override, runtime.GOOS == "windows")
	if err != nil {
		return Command{}, fmt.Errorf("agent command from settings/--agent/CDXTHEME_AGENT: %w", err)
	}
	if len(words) == 0 {
		return Command{}, fmt.Errorf("agent command from settings/--agent/CDXTHEME_AGENT is empty")
	}
	p, err := lookPath(words[0])
	if err != nil {
		return Command{}, fmt.Errorf("%w: the agent command %q (from settings, --agent or CDXTHEME_AGENT) names %q, which is not an executable file or not on PATH: %v. Fix: correct the agent command in Settings or install that program",
			ErrNotFound, override, words[0], err)
	}
	// The agent runs with cwd = the workspace, so a relative path must be
	// pinned to where the user meant it.
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return Command{
		Path:   p,
		Args:   words[1:],
		Source: SourceOverride,
		Reason: "The agent command was set explicitly (settings, --agent or CDXTHEME_AGENT).",
	}, nil
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
