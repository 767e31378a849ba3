package agent

import (
	"reflect"
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
