package peers

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// fakeInstall lays out node_modules like `npm ci` in peers/ does.
func fakeInstall(t *testing.T, rustMode os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"node_modules/@agentclientprotocol/codex-acp/dist/index.js":      "// bundle",
		"node_modules/@agentclientprotocol/codex-acp/package.json":       `{"name":"@agentclientprotocol/codex-acp","version":"2.6.0"}`,
		"node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp": "#!/bin/sh\n",
		"node_modules/@zed-industries/codex-acp-linux-x64/package.json":  `{"version":"0.16.0"}`,
	}
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, "bin/codex-acp") {
			mode = rustMode
		}
		if err := os.WriteFile(full, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFind(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH")
	}
	good := fakeInstall(t, 0o755)
	noExec := fakeInstall(t, 0o644)
	tests := []struct {
		name, dir, adapter string
		wantErr            error
		wantVersion        string
		wantArgSuffix      string
	}{
		{"ts", good, TS, nil, "2.6.0", "dist/index.js"},
		{"rust", good, Rust, nil, "0.16.0", ""},
		{"rust not executable", noExec, Rust, ErrMissing, "", ""},
		{"nothing installed ts", t.TempDir(), TS, ErrMissing, "", ""},
		{"nothing installed rust", t.TempDir(), Rust, ErrMissing, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Find(tt.dir, tt.adapter)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "make peers") {
					t.Errorf("error does not say how to fix it: %v", err)
				}
				return
			}
			if a.Name != tt.adapter || a.Version != tt.wantVersion {
				t.Errorf("adapter = %+v", a)
			}
			if tt.wantArgSuffix != "" && (len(a.Args) != 1 || !strings.HasSuffix(a.Args[0], tt.wantArgSuffix)) {
				t.Errorf("args = %q", a.Args)
			}
		})
	}
	if _, err := Find(good, "codex-acp"); err == nil || errors.Is(err, ErrMissing) {
		t.Errorf("unknown name: err = %v", err)
	}
}

func TestDirHonoursEnv(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/peers")
	if d, err := Dir(); err != nil || d != "/somewhere/peers" {
		t.Errorf("Dir() = %q, %v", d, err)
	}
	t.Setenv(EnvDir, "")
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(d), "go.mod")); err != nil {
		t.Errorf("default Dir %s is not <repo>/peers: %v", d, err)
	}
}

func TestWordsRoundTrip(t *testing.T) {
	a := Adapter{Path: "/opt/my node/node", Args: []string{"/x/it's/index.js", "-c", `model="gpt-5.5"`}}
	got := a.Words()
	want := `'/opt/my node/node' '/x/it'\''s/index.js' -c 'model="gpt-5.5"'`
	if got != want {
		t.Errorf("Words() = %s, want %s", got, want)
	}
	cmd := a.Command([]string{"A=1"})
	if cmd.Path != a.Path || len(cmd.Args) != 3 || cmd.Env[0] != "A=1" || cmd.Source != "override" {
		t.Errorf("Command() = %+v", cmd)
	}
}

func TestUnderTemp(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/tmp", true},
		{"/tmp/x/codex", true},
		{filepath.Join(os.TempDir(), "a"), true},
		{"/tmpfoo/codex", false},
		{"/work/main/.cache/peers/home-1/codex", os.TempDir() == "/work/main/.cache"},
		{"/home/u/.cache/cdxtheme", false},
	}
	for _, tt := range tests {
		if got := underTemp(tt.path); got != tt.want {
			t.Errorf("underTemp(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestNewHome(t *testing.T) {
	h := TestHome(t, HomeOptions{BaseURL: "http://127.0.0.1:4321/v1"})
	if underTemp(h.Dir) || underTemp(h.Tmp) || underTemp(h.Outside) {
		t.Fatalf("home under the temp dir: %+v", h)
	}
	b, err := os.ReadFile(filepath.Join(h.Dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Model          string `toml:"model"`
		ModelProvider  string `toml:"model_provider"`
		ModelProviders map[string]struct {
			Name    string `toml:"name"`
			BaseURL string `toml:"base_url"`
			WireAPI string `toml:"wire_api"`
		} `toml:"model_providers"`
		Features map[string]bool `toml:"features"`
	}
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("config.toml does not parse: %v\n%s", err, b)
	}
	mock := cfg.ModelProviders["mock"]
	if cfg.Model != "gpt-5.5" || cfg.ModelProvider != "mock" || mock.BaseURL != "http://127.0.0.1:4321/v1" ||
		mock.WireAPI != "responses" || mock.Name == "" || cfg.Features["shell_snapshot"] {
		t.Errorf("config = %+v", cfg)
	}
	env := strings.Join(h.Env(), "\n")
	for _, want := range []string{"CODEX_HOME=" + h.Dir, "TMPDIR=" + h.Tmp, "OPENAI_API_KEY="} {
		if !strings.Contains(env, want) {
			t.Errorf("Env() lacks %s: %s", want, env)
		}
	}
	for _, d := range []string{h.Dir, h.Tmp, h.Outside} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("%s missing: %v", d, err)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(h.Dir)); !os.IsNotExist(err) {
		t.Errorf("Close left %s behind", filepath.Dir(h.Dir))
	}
}

func TestNewHomeNeedsURL(t *testing.T) {
	if _, err := NewHome(HomeOptions{}); err == nil {
		t.Error("NewHome without a base URL succeeded")
	}
}

func TestConfigModel(t *testing.T) {
	c := Config(HomeOptions{BaseURL: "http://x/v1", Model: "gpt-5.4"})
	if !strings.Contains(c, `model = "gpt-5.4"`) {
		t.Errorf("config ignores the model:\n%s", c)
	}
}

// Processes must find exactly the processes started with this home's
// CODEX_HOME, so a leaked adapter is caught and other tests' are not.
func TestProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process scan reads /proc")
	}
	h := TestHome(t, HomeOptions{BaseURL: "http://127.0.0.1:1/v1"})
	other := TestHome(t, HomeOptions{BaseURL: "http://127.0.0.1:1/v1"})
	if pids := h.Processes(); len(pids) != 0 {
		t.Fatalf("fresh home has processes %v", pids)
	}
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), h.Env()...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if pids := h.Processes(); len(pids) != 1 || pids[0] != cmd.Process.Pid {
		t.Errorf("Processes() = %v, want [%d]", pids, cmd.Process.Pid)
	}
	if pids := other.Processes(); len(pids) != 0 {
		t.Errorf("another home sees %v", pids)
	}
	// A helper the agent started is one of its processes but not a root.
	child := exec.Command("sh", "-c", "sleep 60 & echo $!; wait")
	child.Env = append(os.Environ(), h.Env()...)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	var grandchild int
	if _, err := fmt.Fscan(out, &grandchild); err != nil {
		t.Fatal(err)
	}
	if pids := h.Processes(); len(pids) != 3 {
		t.Errorf("Processes() = %v, want the sleep, the shell and its child", pids)
	}
	roots := h.Roots()
	slices.Sort(roots)
	want := []int{cmd.Process.Pid, child.Process.Pid}
	slices.Sort(want)
	if !slices.Equal(roots, want) {
		t.Errorf("Roots() = %v, want %v (not the shell's child %d)", roots, want, grandchild)
	}
	if p, err := os.FindProcess(grandchild); err == nil {
		_ = p.Kill()
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if left := h.WaitGone(10 * time.Second); len(left) != 0 {
		t.Errorf("killed process still listed: %v", left)
	}
}

type recordTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recordTB) Helper()                   {}
func (r *recordTB) Skipf(f string, a ...any)  { r.skipped = true; r.msg = f }
func (r *recordTB) Fatalf(f string, a ...any) { r.failed = true; r.msg = f }

func TestRequire(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		require             string
		wantSkip, wantFatal bool
	}{
		{"", true, false},
		{"0", true, false},
		{"1", false, true},
	}
	for _, tt := range tests {
		t.Run("require="+tt.require, func(t *testing.T) {
			t.Setenv(EnvDir, empty)
			t.Setenv(EnvRequire, tt.require)
			rec := &recordTB{TB: t}
			if got := Require(rec); got != nil {
				t.Errorf("Require returned %v with nothing installed", got)
			}
			if rec.skipped != tt.wantSkip || rec.failed != tt.wantFatal {
				t.Errorf("skipped=%v failed=%v, want %v %v", rec.skipped, rec.failed, tt.wantSkip, tt.wantFatal)
			}
		})
	}
}

// The pinned adapters from peers/package-lock.json, when installed.
func TestInstalledPeers(t *testing.T) {
	for _, a := range Require(t) {
		want := map[string]string{TS: "2.6.0", Rust: "0.16.0"}[a.Name]
		if a.Version != want {
			t.Errorf("%s is version %s, the lock file pins %s (run `make peers`)", a.Name, a.Version, want)
		}
	}
}
