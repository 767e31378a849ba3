package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/fixtures"
	"cdxtheme/internal/testrig/testbin"
)

// readmeCommands are the `cdxtheme …` lines of the README's sh blocks, in
// order, with their comments cut.
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
		case in && strings.HasPrefix(line, "cdxtheme "):
			line, _, _ = strings.Cut(line, " #")
			out = append(out, shellWords(t, line))
		}
	}
	return out
}

// shellWords splits a README line as sh would (double quotes only: the
// README uses no other quoting).
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in README line %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Every command the README shows a user runs as shown, in order, on a
// machine of its own: the import it shows makes the WORKSPACE the others
// use, the apply without --yes only plans, and the undo puts back what an
// apply did (issue #42: every command in the README is run by a test).
func TestReadmeCommandsRun(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 8 {
		t.Fatalf("found %d cdxtheme commands in the README; the parser missed them", len(cmds))
	}
	bin := testbin.CLI(t)
	home := t.TempDir()
	work := t.TempDir()
	dir := t.TempDir()
	codex := t.TempDir()
	if err := fixtures.CopyCodexHome(codex); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "theme.json"), theme.ExampleJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"CODEX_HOME="+codex,
		"CDXTHEME_CONFIG_DIR="+t.TempDir(),
		"CDXTHEME_DATA_DIR="+t.TempDir(),
		"CDXTHEME_CACHE_DIR="+t.TempDir(),
		"CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_SERVE=0",
		"CDXTHEME_AGENT="+fakeagenttest.Build(t),
	)
	colors := filepath.Join(home, ".config", "nvim", "colors")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		// apply without --yes and without a terminal shows its plan and
		// says to pass --yes (exit 2, usage): checked below by what it did.
		planOnly := args[0] == "apply" && !slices.Contains(args, "--yes") && !slices.Contains(args, "--undo")
		if err != nil && !(planOnly && cmd.ProcessState.ExitCode() == 2) {
			t.Fatalf("cdxtheme %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if planOnly && !strings.Contains(string(out), filepath.Join(colors, "")) {
			t.Fatalf("apply without --yes showed no plan naming %s:\n%s", colors, out)
		}
		return string(out)
	}
	workspace := ""
	ran := map[string]bool{}
	for _, words := range cmds {
		args := words[1:]
		for i, a := range args {
			switch a {
			case "DIR":
				args[i] = dir
			case "WORKSPACE", "~/.local/share/cdxtheme/theme_builder/ID":
				if workspace == "" {
					t.Fatalf("%v comes before the README's import made a workspace", words)
				}
				args[i] = workspace
			}
		}
		if len(args) > 1 && args[0] == "apply" && args[1] == "--undo" {
			if entries, _ := os.ReadDir(colors); len(entries) != 0 {
				t.Fatalf("apply without --yes installed %v", entries)
			}
			run("apply", "--yes", "--target", "neovim", workspace)
			if entries, _ := os.ReadDir(colors); len(entries) == 0 {
				t.Fatal("apply --yes installed nothing into nvim/colors")
			}
		}
		out := run(args...)
		ran[args[0]] = true
		if args[0] == "import" {
			var res struct{ Path string }
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Path == "" {
				t.Fatalf("import --json: %v\n%s", err, out)
			}
			workspace = res.Path
		}
		if args[0] == "apply" && len(args) > 1 && args[1] == "--undo" {
			if entries, _ := os.ReadDir(colors); len(entries) != 0 {
				t.Fatalf("apply --undo left %v", entries)
			}
		}
	}
	for _, c := range []string{"models", "sessions", "chat", "import", "export", "check", "apply", "mcp"} {
		if !ran[c] {
			t.Errorf("the README no longer shows %q (this test expects it)", c)
		}
	}
}
