//go:build unix

package serve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/chat"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"

	"github.com/rs/zerolog"
)

func TestPoolKeepsOneAgentPerEnvironment(t *testing.T) {
	bin := fakeagenttest.Build(t)
	root := t.TempDir()
	logf := filepath.Join(root, "agent.log")
	env := []string{"FAKE_AGENT_STATE=" + filepath.Join(root, "state"), "FAKE_AGENT_LOG=" + logf, "PWD=/a"}
	a := Agent{Path: bin, Env: env, Timeout: time.Minute, Version: "t"}
	p := &Pool{Log: zerolog.Nop()}
	defer p.Close()
	cwd := t.TempDir()
	run := func(a Agent, sid, said string) chat.Result {
		t.Helper()
		var text strings.Builder
		res, err := p.Handle(context.Background(), chat.Turn{SessionID: sid, Cwd: cwd, Prompt: prompt.Text(said)}, a, func(ev chat.Event) {
			if ev.Type() == chat.EventText {
				text.WriteString(ev.Payload.(chat.TextChunk).Text)
			}
		})
		if err != nil || !strings.HasPrefix(text.String(), "You said: "+said) {
			t.Fatalf("%v %+v", err, res)
		}
		return res
	}
	inits := func() int {
		b, _ := os.ReadFile(logf)
		return bytes.Count(b, []byte(`"method":"initialize"`))
	}
	first := run(a, "", "one")
	// The next call from another shell folder (PWD differs): the same agent.
	b := a
	b.Env = append(append([]string(nil), env...), "PWD=/b", "SHLVL=3")
	run(b, first.SessionID, "two")
	if n := inits(); n != 1 || !p.Holding() {
		t.Fatalf("two calls with the same agent started %d agents (holding %v)", n, p.Holding())
	}
	// Another environment that matters (a different key): its own agent.
	c := a
	c.Env = append(append([]string(nil), env...), "OPENAI_API_KEY=sk-other")
	run(c, first.SessionID, "three")
	if n := inits(); n != 2 {
		t.Fatalf("a call with another environment reused an agent (%d started)", n)
	}
	p.Close()
	if p.Holding() {
		t.Fatal("agents still held after Close")
	}
}

func TestFingerprint(t *testing.T) {
	base := Fingerprint("/bin/codex-acp", nil, []string{"HOME=/home/u", "TERM=xterm", "PATH=/bin"})
	if Fingerprint("/bin/codex-acp", nil, []string{"HOME=/home/u", "CODEX_HOME=/home/u/.codex", "DISPLAY=:0"}) != base {
		t.Error("the desktop's and the shell's environment differ only in what the agent does not care about, yet the fingerprints differ")
	}
	for name, fp := range map[string]string{
		"another Codex home": Fingerprint("/bin/codex-acp", nil, []string{"HOME=/home/u", "CODEX_HOME=/srv/codex"}),
		"another API key":    Fingerprint("/bin/codex-acp", nil, []string{"HOME=/home/u", "OPENAI_API_KEY=sk-1"}),
		"another command":    Fingerprint("/usr/local/bin/codex-acp", nil, []string{"HOME=/home/u"}),
		"other arguments":    Fingerprint("/bin/codex-acp", []string{"--x"}, []string{"HOME=/home/u"}),
	} {
		if fp == base {
			t.Errorf("%s has the same fingerprint", name)
		}
	}
}
