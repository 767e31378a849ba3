//go:build linux

package faults

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/app/cli"
	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/npmstub"
)

// TestInstallFaults runs the first-run install of the sidecar's adapter
// through the real headless binary, with the pinned Bun beside it, no agent
// command and nothing on PATH.
func TestInstallFaults(t *testing.T) {
	runMatrix(t, []matrixCase{
		{"install: the registry cannot be reached on the first run", caseInstallOffline},
		{"install: the CLI killed (SIGKILL) mid-download", caseInstallKilled},
	})
}

// sidecarCLI is the headless binary with the pinned Bun beside it.
func sidecarCLI(t *testing.T) string {
	t.Helper()
	bun := npmstub.Bun(t)
	bin, _ := cdxtheme(t)
	link := filepath.Join(filepath.Dir(bin), "bun")
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(bun, link); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// installCase is one run's machine: a marker every child inherits, a cache,
// a config, a guarded CODEX_HOME, the registry given.
type installCase struct {
	bin, marker, cache, cwd string
	env                     []string
}

func newInstallCase(t *testing.T, registry string) *installCase {
	t.Helper()
	root := t.TempDir()
	c := &installCase{
		bin:    sidecarCLI(t),
		marker: fmt.Sprintf("CDXTHEME_FAULTS_CASE=%d-%d", os.Getpid(), caseSeq.Add(1)),
		cache:  filepath.Join(root, "cache"),
		cwd:    filepath.Join(root, "workspace"),
	}
	os.MkdirAll(c.cwd, 0o755)
	home := guardHome(t, filepath.Join(root, "codex-home"))
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "CDXTHEME_AGENT", "PATH", "NPM_CONFIG_REGISTRY", "npm_config_registry", "CODEX_HOME":
			continue
		}
		c.env = append(c.env, kv)
	}
	c.env = append(c.env, c.marker,
		"PATH="+t.TempDir(),
		"BUN_CONFIG_REGISTRY="+registry,
		"CDXTHEME_CACHE_DIR="+c.cache,
		"CDXTHEME_CONFIG_DIR="+filepath.Join(root, "config"),
		"CDXTHEME_DATA_DIR="+filepath.Join(root, "data"),
		"CDXTHEME_NO_KEYRING=1",
		"CODEX_HOME="+home,
		"FAKE_AGENT_STATE="+filepath.Join(root, "agent-state"),
		"FAKE_AGENT_SCENARIO=normal",
	)
	t.Cleanup(func() {
		// The CLI lets its agent wind down after it exits (the shim gives
		// it at most 10 s, then kills the group); past that, anything left
		// is a leak.
		deadline := time.Now().Add(11 * time.Second)
		for live, _ := Marked(c.marker); len(live) > 0; live, _ = Marked(c.marker) {
			if time.Now().After(deadline) {
				t.Errorf("processes left behind: %v", live)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return c
}

func (c *installCase) command(args ...string) *exec.Cmd {
	cmd := exec.Command(c.bin, append([]string{"chat", "--cwd", c.cwd}, args...)...)
	cmd.Env = c.env
	return cmd
}

// installed lists the cache's adapter folders (temporary ones included).
func (c *installCase) installed(t *testing.T) []string {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(c.cache, "agents"))
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func caseInstallOffline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	registry := "http://" + ln.Addr().String() + "/"
	ln.Close()
	c := newInstallCase(t, registry)
	var out, errb bytes.Buffer
	cmd := c.command("--json", "hello")
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	t.Logf("exit %d in %s\nstdout: %s\nstderr: %s", code, took, out.String(), errb.String())
	if code != cli.ExitError {
		t.Errorf("exit %d, want %d", code, cli.ExitError)
	}
	if took > 20*time.Second {
		t.Errorf("failing took %s", took)
	}
	var last chat.Event
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
	}
	if last.Type() != chat.EventError || last.Payload.(chat.ErrorEvent).Code != chat.CodeInstall {
		t.Fatalf("last event %+v, want an install error", last)
	}
	// Without --json the same message goes to stderr.
	var plain bytes.Buffer
	cmd = c.command("hello")
	cmd.Stderr = &plain
	cmd.Run()
	for _, want := range []string{"cannot be reached", registry, "npm install -g @agentclientprotocol/codex-acp@2.6.0", "agent command in Settings"} {
		if !strings.Contains(last.Payload.(chat.ErrorEvent).Text, want) {
			t.Errorf("the error event lacks %q", want)
		}
		if !strings.Contains(plain.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, plain.String())
		}
	}
	if left := c.installed(t); len(left) != 0 {
		t.Errorf("left in the cache: %v", left)
	}
}

func caseInstallKilled(t *testing.T) {
	stub, err := npmstub.Start(npmstub.Options{
		Packages: []npmstub.Package{npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0"), npmstub.Filler(8 << 20)},
		Rate:     512 << 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stub.Close()
	c := newInstallCase(t, stub.URL)
	c.env = append(c.env, agent.EnvAdapterLock+"="+stub.AdapterLockFile(t))
	cmd := c.command("hello")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once bytes arrive: Bun is downloading into a temporary folder.
	sc := bufio.NewScanner(stderr)
	downloading := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), "kB of") || strings.Contains(sc.Text(), "MB of") {
			downloading = true
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !downloading {
		t.Fatal("the CLI never reported the download")
	}
	// Bun dies with the CLI (Pdeathsig; without it Bun gives up a few
	// seconds later, its proxy gone): no download runs on into the cache.
	deadline := time.Now().Add(5 * time.Second)
	for live, _ := Marked(c.marker); len(live) > 0; live, _ = Marked(c.marker) {
		if time.Now().After(deadline) {
			t.Fatalf("still running after the CLI was killed: %v", live)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, d := range c.installed(t) {
		if d == "codex-acp@2.6.0" {
			t.Fatalf("the killed install left %s, which counts as installed", d)
		}
	}

	stub.SetRate(0)
	var out, errb bytes.Buffer
	again := c.command("hello")
	again.Stdout, again.Stderr = &out, &errb
	if err := again.Run(); err != nil {
		t.Fatalf("the run after the kill: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "Hello from the fake agent.") || !strings.Contains(errb.String(), "Installed the agent") {
		t.Errorf("stdout %q, stderr %q: want a fresh install and the answer", out.String(), errb.String())
	}
	if left := c.installed(t); len(left) != 1 || left[0] != "codex-acp@2.6.0" {
		t.Errorf("the cache holds %v, want only the finished install", left)
	}
}
