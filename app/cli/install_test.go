package cli

import (
	"bufio"
	"bytes"
	"cdxtheme/internal/testrig/testbin"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cdxtheme/core/agent"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/npmstub"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// headless builds the CLI as users get it, into a folder of its own where the
// pinned Bun is put beside it, as `make sidecar` and the packages do.
func headless(t *testing.T, bun string) string {
	t.Helper()
	bin := testbin.CLI(t)
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "cdxtheme-cli-install-"); binErr != nil {
			return
		}
		// A hard link, not a symlink: the app finds its sidecar beside the
		// executable it really is.
		if binErr = os.Link(bin, filepath.Join(binDir, "cdxtheme")); binErr != nil {
			return
		}
		binErr = os.Symlink(bun, filepath.Join(binDir, "bun"))
	})
	if binErr != nil {
		t.Fatalf("build cdxtheme: %v", binErr)
	}
	return filepath.Join(binDir, "cdxtheme")
}

// installEnv is a machine that needs the sidecar: no agent command, nothing
// on PATH, the stub registry configured for Bun.
func installEnv(t *testing.T, stub *npmstub.Server) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CDXTHEME_AGENT", "PATH", "NPM_CONFIG_REGISTRY", "npm_config_registry":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PATH="+t.TempDir(),
		"BUN_CONFIG_REGISTRY="+stub.URL,
		agent.EnvAdapterLock+"="+stub.AdapterLockFile(t),
		"CDXTHEME_CACHE_DIR="+t.TempDir(),
		"CDXTHEME_CONFIG_DIR="+t.TempDir(),
		"CDXTHEME_DATA_DIR="+t.TempDir(),
		"CDXTHEME_NO_KEYRING=1",
		"FAKE_AGENT_STATE="+t.TempDir(),
		"FAKE_AGENT_SCENARIO=normal",
	)
}

var percent = regexp.MustCompile(`\((\d+)%\)`)

func percents(t *testing.T, s string) []int {
	var out []int
	for _, m := range percent.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// checkJSON fails unless stdout is NDJSON chat events only, ending in done.
func checkJSON(t *testing.T, stdout []byte) {
	t.Helper()
	var last map[string]any
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		if last["type"] == "install" {
			t.Errorf("install progress on stdout: %s", sc.Text())
		}
	}
	if last == nil || last["type"] != "done" || last["stopReason"] != "end_turn" {
		t.Fatalf("last stdout event %v, want done", last)
	}
}

// `cdxtheme chat` on a first run installs the agent with its progress on
// stderr, plain lines when stderr is no terminal, and stdout holds only the
// turn's JSON; the next call uses the installed agent without the registry.
func TestChatInstallsTheAgentWithProgressOnStderr(t *testing.T) {
	bun := npmstub.Bun(t)
	stub, err := npmstub.Start(npmstub.Options{
		Packages: []npmstub.Package{npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0"), npmstub.Filler(3 << 20)},
		Rate:     2 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stub.Close()
	bin := headless(t, bun)
	env := installEnv(t, stub)
	run := func() (string, string) {
		t.Helper()
		cmd := exec.Command(bin, "chat", "--json", "--cwd", t.TempDir(), "hi")
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chat: %v\nstderr:\n%s", err, errb.String())
		}
		checkJSON(t, out.Bytes())
		return out.String(), errb.String()
	}

	_, stderr := run()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if strings.Contains(stderr, "\r") || strings.Contains(stderr, "\x1b") {
		t.Errorf("terminal controls in plain stderr: %q", stderr)
	}
	if !strings.HasPrefix(lines[0], "Installing the agent @agentclientprotocol/codex-acp@2.6.0: asking the registry") {
		t.Errorf("first stderr line %q", lines[0])
	}
	ps := percents(t, stderr)
	for i := 1; i < len(ps); i++ {
		if ps[i] < ps[i-1] {
			t.Errorf("percent went back: %v", ps)
		}
	}
	inner := 0
	for _, p := range ps {
		if p > 0 && p < 100 {
			inner++
		}
	}
	if inner < 3 || len(ps) == 0 || ps[len(ps)-1] != 100 {
		t.Errorf("percents %v: want several steps ending at 100\n%s", ps, stderr)
	}
	size := stub.TarballSize(npmstub.AgentPackage, "2.6.0") + stub.TarballSize(npmstub.FillerPackage, "1.0.0")
	if want := "Installed the agent @agentclientprotocol/codex-acp@2.6.0 (" + bytesText(size) + ")."; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}

	asked := len(stub.Requests())
	_, stderr = run()
	if strings.Contains(stderr, "Install") {
		t.Errorf("second run installed again:\n%s", stderr)
	}
	if got := stub.Requests(); len(got) != asked {
		t.Errorf("second run asked the registry: %v", got[asked:])
	}
}

// On a terminal the progress is one line rewritten in place, ended once.
func TestChatInstallProgressOnATerminal(t *testing.T) {
	bun := npmstub.Bun(t)
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("script(1) from util-linux is needed to give the CLI a terminal: %v", err)
	}
	stub, err := npmstub.Start(npmstub.Options{
		Packages: []npmstub.Package{npmstub.FakeAgent(fakeagenttest.Build(t), "2.6.0"), npmstub.Filler(3 << 20)},
		Rate:     2 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stub.Close()
	bin := headless(t, bun)
	dir := t.TempDir()
	outFile, typescript := filepath.Join(dir, "out.json"), filepath.Join(dir, "typescript")
	line := strconv.Quote(bin) + " chat --json --cwd " + strconv.Quote(t.TempDir()) + " hi > " + strconv.Quote(outFile)
	cmd := exec.Command(script, "-q", "-e", "-c", line, typescript)
	cmd.Env = append(installEnv(t, stub), "TERM=xterm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	stdout, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	checkJSON(t, stdout)
	tty, err := os.ReadFile(typescript)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(tty), "\r\n", "\n") // the terminal's own newline translation
	start, end := strings.Index(s, "Installing the agent"), strings.Index(s, "Installed the agent")
	if start < 0 || end < start {
		t.Fatalf("no install progress on the terminal: %q", s)
	}
	progress := s[start:end]
	if strings.Contains(progress, "\n") {
		t.Errorf("the progress line was ended before the install finished: %q", progress)
	}
	if n := strings.Count(progress, "\r\x1b[K"); n < 4 {
		t.Errorf("the line was rewritten %d times: %q", n, progress)
	}
	ps := percents(t, progress)
	for i := 1; i < len(ps); i++ {
		if ps[i] < ps[i-1] {
			t.Errorf("percent went back: %v", ps)
		}
	}
	if len(ps) == 0 || ps[len(ps)-1] != 100 {
		t.Errorf("percents %v, want an end at 100", ps)
	}
	if rest := s[end:]; !strings.Contains(rest, ".\n") {
		t.Errorf("the finished line is not ended: %q", rest)
	}
}
