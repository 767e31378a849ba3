package fakeagenttest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildOnceAndRuns(t *testing.T) {
	bin := Build(t)
	if again := Build(t); again != bin {
		t.Errorf("second Build = %s, want the cached %s", again, bin)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "FAKE_AGENT_STATE="+t.TempDir())
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run %s: %v", bin, err)
	}
	if !bytes.Contains(out, []byte(`"protocolVersion":1`)) {
		t.Errorf("initialize answer %s", out)
	}
}

func TestHashSourcesFollowsTheSources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hash := func() string {
		h, err := hashSources(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	write("main.go", "package main\n")
	h1 := hash()
	write("main_test.go", "package main // tests do not change the binary\n")
	if hash() != h1 {
		t.Error("a _test.go file changed the hash")
	}
	write("main.go", "package main\n\nfunc init() {}\n")
	if hash() == h1 {
		t.Error("changed source kept the hash: a stale binary would be reused")
	}
}
