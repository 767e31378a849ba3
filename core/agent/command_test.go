package agent

import (
	"errors"
	"reflect"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		windows bool
		want    []string
		wantErr bool
	}{
		{name: "plain", in: "codex-acp -c model=gpt-5.5", want: []string{"codex-acp", "-c", "model=gpt-5.5"}},
		{name: "extra blanks", in: "  a\t b  \n", want: []string{"a", "b"}},
		{name: "single quotes keep spaces", in: `'/opt/My Agent/bin' --x`, want: []string{"/opt/My Agent/bin", "--x"}},
		{name: "double quotes with escapes", in: `run "say \"hi\" \\ $x"`, want: []string{"run", `say "hi" \ $x`}},
		{name: "quotes glue into one word", in: `a'b c'"d"e`, want: []string{"ab cde"}},
		{name: "empty quoted word", in: `x '' y`, want: []string{"x", "", "y"}},
		{name: "backslash escapes space", in: `/opt/My\ Agent/run -v`, want: []string{"/opt/My Agent/run", "-v"}},
		{name: "windows backslash literal", in: `C:\Tools\agent.exe --acp`, windows: true, want: []string{`C:\Tools\agent.exe`, "--acp"}},
		{name: "windows quoted path", in: `"C:\Program Files\Agent\agent.exe" x`, windows: true, want: []string{`C:\Program Files\Agent\agent.exe`, "x"}},
		{name: "empty", in: "   ", want: nil},
		{name: "unterminated single", in: `a 'b`, wantErr: true},
		{name: "unterminated double", in: `a "b`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitWords(tt.in, tt.windows)
			if tt.wantErr {
				if !errors.Is(err, errUnterminated) {
					t.Fatalf("splitWords(%q) err = %v, want unterminated quote", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("splitWords(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCommandStringRoundTrips(t *testing.T) {
	tests := []struct {
		cmd  Command
		want string
	}{
		{Command{Path: "/usr/bin/codex-acp"}, "/usr/bin/codex-acp"},
		{Command{Path: "/opt/bun", Args: []string{"x", "@agentclientprotocol/codex-acp@2.6.0"}}, "/opt/bun x @agentclientprotocol/codex-acp@2.6.0"},
		{Command{Path: "/opt/My Agent/run", Args: []string{"it's", ""}}, `'/opt/My Agent/run' 'it'\''s' ''`},
		{Command{Path: "a", Args: []string{"$HOME", "x;y"}}, `a '$HOME' 'x;y'`},
	}
	for _, tt := range tests {
		got := tt.cmd.String()
		if got != tt.want {
			t.Errorf("String() = %s, want %s", got, tt.want)
		}
		// What we print must paste back into a shell as the same words.
		words, err := splitWords(got, false)
		if err != nil {
			t.Fatalf("split %s: %v", got, err)
		}
		want := append([]string{tt.cmd.Path}, tt.cmd.Args...)
		if !reflect.DeepEqual(words, want) {
			t.Errorf("split(String()) = %q, want %q", words, want)
		}
	}
}
