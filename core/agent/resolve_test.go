package agent

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// layout is a fake machine: which executables exist where.
type layout struct {
	pathExes    []string // on PATH
	exeDirFiles []string // relative to ExeDir; "-x" suffix = not executable
	codexDir    bool     // a ChatGPT-bundled codex exists
	// installs are sidecar adapter dirs in the cache: "2.6.0" is a finished
	// install, "2.6.0-nomarker" one without installed.json, "2.6.0-nobin"
	// one whose marker names a missing file.
	installs []string
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name       string
		layout     layout
		override   string
		version    string
		wantSource string
		wantPath   string // relative to the temp root
		wantArgs   []string
		wantErr    []string // substrings of the error
		wantCodex  bool     // PATH env prepended with the codex dir
		// wantInstall: a *NotInstalledError for this bun (relative to the
		// temp root) and the pinned version.
		wantInstall string
	}{
		{
			name:       "override wins over PATH",
			layout:     layout{pathExes: []string{"codex-acp", "my-agent"}},
			override:   `my-agent --flag 'two words'`,
			wantSource: SourceOverride, wantPath: "path/my-agent", wantArgs: []string{"--flag", "two words"},
		},
		{
			name:       "override by absolute path with spaces",
			layout:     layout{exeDirFiles: []string{"My Agent/agent"}},
			override:   `'{{root}}/exe/My Agent/agent' -v`,
			wantSource: SourceOverride, wantPath: "exe/My Agent/agent", wantArgs: []string{"-v"},
		},
		{
			name:     "override not found names the command",
			layout:   layout{pathExes: []string{"codex-acp"}},
			override: "no-such-agent --acp",
			wantErr:  []string{"cannot run no-such-agent --acp", "\"no-such-agent\" is not on PATH (looked in ", "Settings"},
		},
		{
			name:     "override path not found says where",
			layout:   layout{pathExes: []string{"codex-acp"}},
			override: "/no/such/dir/agent --acp",
			wantErr:  []string{"cannot run /no/such/dir/agent --acp", "there is no program at /no/such/dir/agent"},
		},
		{
			name:     "override with a broken quote",
			override: `agent "oops`,
			wantErr:  []string{"unterminated quote"},
		},
		{
			name:       "codex-acp on PATH",
			layout:     layout{pathExes: []string{"codex-acp"}, exeDirFiles: []string{"bun"}},
			wantSource: SourcePath, wantPath: "path/codex-acp",
		},
		{
			name:       "bun beside the executable runs the installed adapter",
			layout:     layout{exeDirFiles: []string{"bun"}, installs: []string{"2.6.0"}},
			version:    "2.6.0",
			wantSource: SourceSidecar, wantPath: "exe/bun", wantArgs: sidecarWant,
		},
		{
			name:       "bun in sidecar dir, no version set: the pinned one",
			layout:     layout{exeDirFiles: []string{"sidecar/bun"}, installs: []string{"2.6.0"}},
			wantSource: SourceSidecar, wantPath: "exe/sidecar/bun", wantArgs: sidecarWant,
		},
		{
			name:       "non-executable bun is skipped",
			layout:     layout{exeDirFiles: []string{"bun-x", "sidecar/bun"}, installs: []string{"2.6.0"}},
			wantSource: SourceSidecar, wantPath: "exe/sidecar/bun", wantArgs: sidecarWant,
		},
		{
			name:       "system sidecar dir",
			layout:     layout{exeDirFiles: []string{"../system/bun"}, installs: []string{"2.6.0"}},
			wantSource: SourceSidecar, wantPath: "system/bun", wantArgs: sidecarWant,
		},
		{
			name:        "bun without the adapter: install first",
			layout:      layout{exeDirFiles: []string{"bun"}},
			version:     "2.6.0",
			wantInstall: "exe/bun",
		},
		{
			name:        "another version installed does not count",
			layout:      layout{exeDirFiles: []string{"bun"}, installs: []string{"2.5.0"}},
			wantInstall: "exe/bun",
		},
		{
			name:        "a folder without installed.json is no install",
			layout:      layout{exeDirFiles: []string{"bun"}, installs: []string{"2.6.0-nomarker"}},
			wantInstall: "exe/bun",
		},
		{
			name:        "installed.json naming a missing program is no install",
			layout:      layout{exeDirFiles: []string{"bun"}, installs: []string{"2.6.0-nobin"}},
			wantInstall: "exe/bun",
		},
		{
			name:    "a version range is refused",
			layout:  layout{exeDirFiles: []string{"bun"}},
			version: "^2.6.0",
			wantErr: []string{`"^2.6.0"`, "not an exact version"},
		},
		{
			name:    "nothing found lists what was tried and the fix",
			layout:  layout{exeDirFiles: []string{"bun-x"}},
			wantErr: []string{"`codex-acp` on PATH: not found", "bundled Bun sidecar", "{{root}}/exe/sidecar", "npm install -g @agentclientprotocol/codex-acp", "agent command in Settings"},
		},
		{
			name:       "ChatGPT codex goes first on the agent's PATH",
			layout:     layout{pathExes: []string{"codex-acp"}, codexDir: true},
			wantSource: SourcePath, wantPath: "path/codex-acp", wantCodex: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			pathDir := filepath.Join(root, "path")
			exeDir := filepath.Join(root, "exe")
			systemDir := filepath.Join(root, "system")
			codexDir := filepath.Join(root, "chatgpt", "Resources", "codex")
			for _, d := range []string{pathDir, exeDir, systemDir} {
				mkdir(t, d)
			}
			for _, name := range tt.layout.pathExes {
				writeExe(t, filepath.Join(pathDir, name), true)
			}
			for _, name := range tt.layout.exeDirFiles {
				exe := !strings.HasSuffix(name, "-x")
				writeExe(t, filepath.Join(exeDir, strings.TrimSuffix(name, "-x")), exe)
			}
			if tt.layout.codexDir {
				writeExe(t, filepath.Join(codexDir, "codex"), true)
			}
			cache := filepath.Join(root, "cache")
			for _, v := range tt.layout.installs {
				version, kind, _ := strings.Cut(v, "-")
				fakeInstall(t, filepath.Join(cache, "codex-acp@"+version), kind != "nomarker", kind != "nobin")
			}
			t.Setenv("PATH", pathDir)
			swap(t, &systemSidecarDirs, func() []string { return []string{systemDir} })
			swap(t, &codexDirs, func(func(string) string) []string {
				return []string{filepath.Join(root, "nowhere"), codexDir}
			})

			got, err := Resolve(ResolveOptions{
				Override:       strings.ReplaceAll(tt.override, "{{root}}", root),
				SidecarVersion: tt.version,
				ExeDir:         exeDir,
				CacheDir:       cache,
			})
			if tt.wantInstall != "" {
				var ni *NotInstalledError
				if !errors.As(err, &ni) || !errors.Is(err, ErrNotInstalled) {
					t.Fatalf("Resolve = %+v, %v; want NotInstalledError", got, err)
				}
				want := Install{Bun: filepath.Join(root, tt.wantInstall), Package: SidecarPackage, Version: "2.6.0", Dir: filepath.Join(cache, "codex-acp@2.6.0")}
				if ni.Install.Bun != want.Bun || ni.Install.Package != want.Package || ni.Install.Version != want.Version || ni.Install.Dir != want.Dir {
					t.Errorf("Install = %+v, want %+v", ni.Install, want)
				}
				return
			}
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("Resolve = %+v, want error", got)
				}
				if !strings.Contains(tt.name, "quote") && !errors.Is(err, ErrNotFound) {
					t.Errorf("error %v does not wrap ErrNotFound", err)
				}
				for _, s := range tt.wantErr {
					if s = strings.ReplaceAll(s, "{{root}}", root); !strings.Contains(err.Error(), s) {
						t.Errorf("error %q lacks %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if got.Source != tt.wantSource {
				t.Errorf("Source = %q, want %q", got.Source, tt.wantSource)
			}
			if want := filepath.Join(root, tt.wantPath); got.Path != want {
				t.Errorf("Path = %q, want %q", got.Path, want)
			}
			var wantArgs []string
			for _, a := range tt.wantArgs {
				wantArgs = append(wantArgs, strings.ReplaceAll(a, "{{cache}}", cache))
			}
			if !reflect.DeepEqual(got.Args, wantArgs) && !(len(got.Args) == 0 && len(wantArgs) == 0) {
				t.Errorf("Args = %q, want %q", got.Args, wantArgs)
			}
			if got.Reason == "" {
				t.Error("Reason is empty")
			}
			var wantEnv []string
			if tt.wantCodex {
				wantEnv = []string{"PATH=" + codexDir + string(os.PathListSeparator) + pathDir}
				if !strings.Contains(got.Reason, codexDir) {
					t.Errorf("Reason %q does not mention %s", got.Reason, codexDir)
				}
			}
			if !reflect.DeepEqual(got.Env, wantEnv) {
				t.Errorf("Env = %q, want %q", got.Env, wantEnv)
			}
		})
	}
}

// sidecarWant is how the sidecar runs an installed adapter: Bun started in
// the install dir, with its own config and no env file.
var sidecarWant = []string{
	"--cwd={{cache}}/codex-acp@2.6.0", "--no-env-file", "--config={{cache}}/codex-acp@2.6.0/bunfig.toml",
	"{{cache}}/codex-acp@2.6.0/node_modules/@agentclientprotocol/codex-acp/dist/index.js",
}

// fakeInstall lays out an adapter install dir as EnsureInstalled leaves it.
func fakeInstall(t *testing.T, dir string, withMarker, withBin bool) {
	t.Helper()
	bin := "node_modules/@agentclientprotocol/codex-acp/dist/index.js"
	if withBin {
		writeExe(t, filepath.Join(dir, filepath.FromSlash(bin)), true)
	}
	mkdir(t, dir)
	if withMarker {
		b, _ := json.Marshal(marker{Package: SidecarPackage, Version: filepath.Base(dir), Bin: bin})
		if err := os.WriteFile(filepath.Join(dir, markerName), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestResolveUsesInjectedLookups(t *testing.T) {
	swap(t, &systemSidecarDirs, func() []string { return nil })
	swap(t, &codexDirs, defaultCodexDirs)
	var asked []string
	got, err := Resolve(ResolveOptions{
		ExeDir: t.TempDir(),
		Getenv: func(k string) string { asked = append(asked, k); return "" },
		LookPath: func(name string) (string, error) {
			if name == "codex-acp" {
				return "/opt/agents/codex-acp", nil
			}
			return "", errors.New("not found")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != "/opt/agents/codex-acp" || got.Source != SourcePath {
		t.Fatalf("Resolve = %+v, want the injected codex-acp", got)
	}
	if len(got.Env) != 0 {
		t.Fatalf("Env = %q, want none (no ChatGPT install on this machine)", got.Env)
	}
}

func mkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeExe(t *testing.T, p string, executable bool) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	mode := os.FileMode(0o644)
	if executable {
		mode = 0o755
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), mode); err != nil {
		t.Fatal(err)
	}
}

func swap[T any](t *testing.T, v *T, with T) {
	old := *v
	*v = with
	t.Cleanup(func() { *v = old })
}

// Stored arguments are words, never re-parsed: a tab, quotes, a dollar
// sign or a backslash reach the agent exactly (the old string round trip
// turned "a\tb" into a literal `a\tb`).
func TestArgvReachesTheAgentVerbatim(t *testing.T) {
	args := []string{"a\tb", `say "hi"`, "it's", `C:\x`, "$HOME", ""}
	cmd, err := Resolve(ResolveOptions{
		Argv:     append([]string{"my-agent"}, args...),
		LookPath: func(string) (string, error) { return "/opt/agents/my-agent", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != "/opt/agents/my-agent" || !reflect.DeepEqual(cmd.Args, args) || cmd.Source != SourceOverride {
		t.Fatalf("resolved %q %q (%s)", cmd.Path, cmd.Args, cmd.Source)
	}
	// The command line from --agent or CDXTHEME_AGENT still wins, split once.
	cmd, err = Resolve(ResolveOptions{
		Override: `other --flag 'two words'`,
		Argv:     []string{"my-agent"},
		LookPath: func(p string) (string, error) { return "/bin/" + p, nil },
	})
	if err != nil || cmd.Path != "/bin/other" || !reflect.DeepEqual(cmd.Args, []string{"--flag", "two words"}) {
		t.Fatalf("override: %q %q %v", cmd.Path, cmd.Args, err)
	}
}

func TestUnsetKeepsSecretsFromTheAgent(t *testing.T) {
	cmd, err := Resolve(ResolveOptions{
		Argv:     []string{"agent"},
		Unset:    []string{"OPENAI_API_KEY"},
		LookPath: func(string) (string, error) { return "/bin/agent", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{"EXTRA=1"}
	env := cmd.environ([]string{"PATH=/bin", "OPENAI_API_KEY=sk-secret", "OPENAI_API_KEY_FILE=x"})
	if !reflect.DeepEqual(env, []string{"PATH=/bin", "OPENAI_API_KEY_FILE=x", "EXTRA=1"}) {
		t.Fatalf("environment = %q", env)
	}
}

// The Bun beside the given executable folder is the one used (the app
// ships it there), not whatever the running binary's folder or PATH holds.
func TestFindBunLooksBesideTheGivenFolder(t *testing.T) {
	dir := t.TempDir()
	bun := filepath.Join(dir, "bun")
	if runtime.GOOS == "windows" {
		bun += ".exe"
	}
	if err := os.WriteFile(bun, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	if got := FindBun(dir); got != bun {
		t.Fatalf("FindBun(%s) = %q, want %q", dir, got, bun)
	}
}
