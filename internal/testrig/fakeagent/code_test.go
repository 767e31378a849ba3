package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCodeShowsEveryContentKind(t *testing.T) {
	c, sid, e := startSession(t)
	r := c.prompt(sid, "#code")
	if r.stopReason != "end_turn" || r.text != codeReply {
		t.Fatalf("stop %q, text %q", r.stopReason, r.text)
	}
	kinds := map[string]bool{}
	for _, u := range r.updates {
		if u["sessionUpdate"] == "tool_call" {
			kinds[u["kind"].(string)] = true
		}
	}
	if !kinds["edit"] || !kinds["execute"] {
		t.Errorf("tool calls %v, want an edit and an execute", kinds)
	}
	if _, err := os.Stat(filepath.Join(e.cwd, "theme.json")); err != nil {
		t.Errorf("theme.json not written: %v", err)
	}
	if strings.Count(r.text, "```") != 4 {
		t.Errorf("want two fenced blocks in %q", r.text)
	}
}
