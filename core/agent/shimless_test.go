//go:build unix

package agent

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
)

// Without the shim (it cannot be found) the agent leads its own group: a
// child it leaves behind when it exits on stdin close is still ended by
// Stop, as the shim would have ended it.
func TestShimlessStopEndsTheChildrenTheAgentLeft(t *testing.T) {
	old := shimPath
	shimPath = func() string { return "" }
	defer func() { shimPath = old }()
	// The child lets go of the pipes, so the agent is done (and reaped)
	// as soon as it exits: only the kill after that can end the child.
	p := start(t, sh(`sleep 300 </dev/null >/dev/null 2>&1 & echo "ready $!"; read x`))
	line := readLineFrom(t, bufio.NewReader(p.Stdout()))
	grandchild, err := strconv.Atoi(strings.TrimPrefix(line, "ready "))
	if err != nil {
		t.Fatalf("stdout %q", line)
	}
	if p.AgentPid() != p.Pid() {
		t.Fatalf("agent %d, group %d: the shim ran", p.AgentPid(), p.Pid())
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if groupExists(p.Pid()) {
		t.Errorf("the agent's group %d outlived Stop", p.Pid())
	}
	waitGone(t, grandchild)
}
