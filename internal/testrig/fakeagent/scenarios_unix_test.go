//go:build unix

// The grandchild test is Unix-only: it checks the grandchild shares the
// agent's process group, which is what a group kill reaches.

package main

import (
	"regexp"
	"strconv"
	"syscall"
	"testing"
)

func TestHangStartsAGrandchild(t *testing.T) {
	c, sid, _ := startSession(t)
	c.send(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#hang"}}}})
	var text string
	for text == "" {
		m, _ := c.next()
		if u := m.update(); u != nil && u["sessionUpdate"] == "agent_message_chunk" {
			text = u["content"].(map[string]any)["text"].(string)
		}
	}
	mm := regexp.MustCompile(`grandchild pid (\d+)`).FindStringSubmatch(text)
	if mm == nil {
		t.Fatalf("chunk %q names no grandchild", text)
	}
	pid, _ := strconv.Atoi(mm[1])
	if pid == 0 {
		t.Fatal("grandchild did not start")
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("grandchild %d: %v", pid, err)
	}
	// Same process group as the agent, so a group kill reaches it.
	gp, _ := syscall.Getpgid(pid)
	ap, _ := syscall.Getpgid(c.cmd.Process.Pid)
	if gp != ap {
		t.Errorf("grandchild pgid %d, agent pgid %d", gp, ap)
	}
	// (That it survives stdin close and SIGTERM is checked by core/agent's
	// Stop test, which must escalate to SIGKILL.)
}
