//go:build !windows

package app

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"cdxtheme/core/agent"
)

// testAgent is the agent command of a test app: the fake agent itself
// (this test's agents are told apart by their FAKE_AGENT_STATE).
func testAgent(t *testing.T, bin, _ string) string {
	t.Setenv(envTestAgent, bin)
	return bin
}

// fakeAgents lists the pids of live fake agents of this test (they carry
// its FAKE_AGENT_STATE), read from /proc.
func fakeAgents(t *testing.T) []int {
	t.Helper()
	want := []byte("FAKE_AGENT_STATE=" + os.Getenv("FAKE_AGENT_STATE") + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to look for agent processes in: %v", err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		// The agent's shim shares its environment.
		if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && strings.TrimSpace(string(comm)) == agent.ShimComm {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && len(st) > i+2 && st[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}
