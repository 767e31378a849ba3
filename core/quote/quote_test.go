package quote

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/internal/testrig/programs"
)

// hostile are names made of what ends a string or a line in some syntax,
// and what a reader would not see.
var hostile = []string{
	"",
	"Harbour Night",
	`Dusk "q" 'a' <&> \ \\ $(x) ` + "`y`" + ` ;# %s --]] */ -->end`,
	"two\nlines\r\nand\ttab",
	"nul\x00byte and del\x7f and bell\x07 and esc\x1b[31m",
	"bidi \u202Eevil\u202C zero\u200Bwidth bom\uFEFF line\u2028para\u2029 nel\u0085",
	"tag \U000E0001 and emoji 😀 and é",
	`\u0041 \n \x41 \101 '\''`,
	"9 after\x01 a digit: \x011",
	"invalid \xff\xfe utf-8",
}

// read runs name with args and the literals' file, and returns the hex of
// each value the program decoded, one a line.
func read(t *testing.T, dir string, name string, args ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+dir, "LANG=C.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out")); err == nil {
		out = b
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// check compares what the parser read with want(s) for each hostile s.
func check(t *testing.T, syntax string, got []string, want func(string) string, lit func(string) string) {
	t.Helper()
	if len(got) != len(hostile) {
		t.Fatalf("%s: the parser read %d values, want %d: %q", syntax, len(got), len(hostile), got)
	}
	for i, s := range hostile {
		if w := hex.EncodeToString([]byte(want(s))); got[i] != w {
			t.Errorf("%s: %q written as %s reads back as %s, want %s", syntax, s, lit(s), got[i], w)
		}
	}
}

// visible checks that each literal is one line showing what it holds:
// no line break, control character or invisible character as it is.
func visible(t *testing.T, lit func(string) string) {
	t.Helper()
	for _, s := range hostile {
		l := lit(s)
		if i := strings.IndexFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f || invisible(r) }); i >= 0 {
			t.Errorf("%q is written as %q, which holds %q as it is", s, l, []rune(l[i:])[0])
		}
	}
}

// JSON and TOML carry text, not bytes: invalid UTF-8 is U+FFFD, byte by
// byte, as Go's encoder writes it.
func text(s string) string { return string([]rune(s)) }

func TestJSONReadsBackInPython(t *testing.T) {
	py := programs.Find(t, "python3", "python3")
	dir := t.TempDir()
	var b strings.Builder
	for _, s := range hostile {
		b.WriteString(JSON(s) + "\n")
	}
	os.WriteFile(filepath.Join(dir, "in.jsonl"), []byte(b.String()), 0o644)
	got := read(t, dir, py, "-c", `import json
for l in open("in.jsonl", encoding="utf-8"):
    print(json.loads(l).encode("utf-8").hex())`)
	check(t, "JSON", got, text, JSON)
	visible(t, JSON)
}

func TestTOMLReadsBackInPython(t *testing.T) {
	py := programs.Find(t, "python3", "python3")
	dir := t.TempDir()
	var b strings.Builder
	for i, s := range hostile {
		fmt.Fprintf(&b, "k%02d = %s\n", i, TOML(s))
	}
	os.WriteFile(filepath.Join(dir, "in.toml"), []byte(b.String()), 0o644)
	got := read(t, dir, py, "-c", `import tomllib
d = tomllib.load(open("in.toml", "rb"))
for k in sorted(d):
    print(d[k].encode("utf-8").hex())`)
	check(t, "TOML", got, text, TOML)
	visible(t, TOML)
}

// Lua 5.1 as Neovim 0.7 runs it (LuaJIT): the oldest Lua a literal must
// load in. Lua strings are bytes: each reads back exactly.
func TestLuaReadsBackInNeovim(t *testing.T) {
	nvim := programs.Find(t, "nvim", "neovim")
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("local out = io.open('out', 'w')\nfor _, s in ipairs({\n")
	for _, s := range hostile {
		b.WriteString("  " + Lua(s) + ",\n")
	}
	b.WriteString("}) do\n  out:write((s:gsub('.', function(c) return string.format('%02x', c:byte()) end)), '\\n')\nend\nout:close()\n")
	os.WriteFile(filepath.Join(dir, "in.lua"), []byte(b.String()), 0o644)
	visible(t, Lua)
	got := read(t, dir, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile in.lua", "-c", "qa!")
	check(t, "Lua", got, func(s string) string { return s }, Lua)
}

// A shell word reads back exactly, NUL aside (no shell string holds one).
func TestShReadsBackInSh(t *testing.T) {
	sh := programs.Find(t, "sh", "dash")
	dir := t.TempDir()
	var b strings.Builder
	for _, s := range hostile {
		b.WriteString("printf %s " + Sh(s) + " | od -An -v -tx1 | tr -d ' \\n'; echo\n")
	}
	os.WriteFile(filepath.Join(dir, "in.sh"), []byte(b.String()), 0o644)
	read(t, dir, sh, "-n", "in.sh")
	got := read(t, dir, sh, "in.sh")
	check(t, "sh", got, func(s string) string { return strings.ReplaceAll(s, "\x00", "") }, Sh)
}
