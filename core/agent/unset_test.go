package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

func TestUnsetKeepsSecretsFromTheAgent(t *testing.T) {
	cmd, err := Resolve(ResolveOptions{
		Argv:     []string{"agent"},
		Unset:    []string{"OPENAI_API_KEY"},
		LookPath: func(string) (string, error) { return "/bin/agent", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{"EXTRA=1"}
	env := cmd.environ([]string{"PATH=/bin", "OPENAI_API_KEY=sk-secret", "OPENAI_API_KEY_FILE=x"})
	if !reflect.DeepEqual(env, []string{"PATH=/bin", "OPENAI_API_KEY_FILE=x", "EXTRA=1"}) {
		t.Fatalf("environment = %q", env)
	}
}

// The Bun beside the given executable folder is the one used (the app
// ships it there), not whatever the running binary's folder or PATH holds.
func TestFindBunLooksBesideTheGivenFolder(t *testing.T) {
	dir := t.TempDir()
	bun := filepath.Join(dir, "bun")
	if runtime.GOOS == "windows" {
		bun += ".exe"
	}
	if err := os.WriteFile(bun, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	if got := FindBun(dir); got != bun {
		t.Fatalf("FindBun(%s) = %q, want %q", dir, got, bun)
	}
}
