package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/app/cli"
	"cdxtheme/core/chat"
	"cdxtheme/core/procfs"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
)

// TestCLIFaults runs agent faults through `cdxtheme chat`, where the agent
// comes from CDXTHEME_AGENT and the user reads stderr and the exit code.
func TestCLIFaults(t *testing.T) {
	runMatrix(t, []matrixCase{
		{"CLI: CDXTHEME_AGENT names a missing program", caseCLIMissing},
		{"CLI: agent dies mid-stream", caseCLICrash},
		{"CLI: agent hangs past --timeout", caseCLIHang},
	})
}

type cliRun struct {
	code           int
	stdout, stderr string
}

// runCLI runs `cdxtheme chat ARGS` in-process with a fresh config folder,
// CODEX_HOME guarded, and the given agent command in CDXTHEME_AGENT; it
// checks no agent process is left afterwards.
func runCLI(t *testing.T, agentCmd, scenario string, args ...string) cliRun {
	t.Helper()
	if err := procfs.Available(); err != nil {
		skipCase(t, "the leftover-process checks cannot look here: %v", err)
	}
	root := t.TempDir()
	marker := fmt.Sprintf("CDXTHEME_FAULTS_CASE=%d-%d", os.Getpid(), caseSeq.Add(1))
	k, v, _ := strings.Cut(marker, "=")
	t.Setenv(k, v) // the agent inherits our environment
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(root, "data"))
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	t.Setenv("CDXTHEME_AGENT", agentCmd)
	t.Setenv("FAKE_AGENT_SCENARIO", scenario)
	t.Setenv("FAKE_AGENT_STATE", filepath.Join(root, "agent-state"))
	guardHome(t, filepath.Join(root, "codex-home"))
	cwd := filepath.Join(root, "workspace")
	os.MkdirAll(cwd, 0o755)

	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"chat", "--cwd", cwd}, args...), &out, &errb)
	if live, err := Marked(marker); err != nil {
		t.Errorf("cannot look for leftover agent processes: %v", err)
	} else if len(live) > 0 {
		t.Errorf("agent processes left behind by the CLI: %v", live)
	}
	r := cliRun{code: code, stdout: out.String(), stderr: errb.String()}
	t.Logf("exit %d\nstdout: %.300q\nstderr: %s", r.code, r.stdout, r.stderr)
	return r
}

func caseCLIMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bin", "codex-acp")
	r := runCLI(t, strconv.Quote(p), "normal", "--json", "hello")
	if r.code != cli.ExitError {
		t.Errorf("exit code %d, want %d", r.code, cli.ExitError)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var last chat.Event
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("the last NDJSON line is not an event: %q", lines[len(lines)-1])
	}
	if last.Type() != chat.EventError || last.Payload.(chat.ErrorEvent).Code != chat.CodeAgentMissing || !strings.Contains(last.Payload.(chat.ErrorEvent).Text, p) || !strings.Contains(last.Payload.(chat.ErrorEvent).Text, "Fix:") {
		t.Errorf("last event %+v; want an agent_missing error naming %s with a fix", last, p)
	}
}

func caseCLICrash(t *testing.T) {
	r := runCLI(t, strconv.Quote(fakeagenttest.Build(t)), "crash", "hello")
	if r.code != cli.ExitError {
		t.Errorf("exit code %d, want %d", r.code, cli.ExitError)
	}
	if r.stdout != "Starting work... almost there \n" {
		t.Errorf("the partial answer on stdout: %q", r.stdout)
	}
	for _, want := range []string{"error (agent_exit)", "exit status 3", "fatal: simulated crash", "--session "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not tell the user %q", want)
		}
	}
}

func caseCLIHang(t *testing.T) {
	start := time.Now()
	r := runCLI(t, strconv.Quote(fakeagenttest.Build(t)), "hang", "--timeout", "2s", "hello")
	// The cancel grace lies inside the budget: a generous bound, which the
	// old grace on top (2 s + 5 s) broke.
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("--timeout 2s took %s to end the command", took.Round(time.Millisecond))
	}
	if r.code != cli.ExitTimeout {
		t.Errorf("exit code %d, want %d (timeout)", r.code, cli.ExitTimeout)
	}
	if !strings.HasPrefix(r.stdout, "Hanging (grandchild pid ") || !strings.Contains(r.stderr, "error (timeout)") {
		t.Errorf("stdout %q / stderr %q: want the streamed text and a timeout error", r.stdout, r.stderr)
	}
	if m := grandchildRe.FindStringSubmatch(r.stdout); m != nil {
		pid, _ := strconv.Atoi(m[1])
		if p, ok := Lookup(pid); ok && !p.Zombie() {
			t.Errorf("the hung agent's grandchild survived: %v", p)
		}
	}
}
