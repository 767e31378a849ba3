package theme

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue #39: Neovim paints the ${ } of a shell parameter expansion and the
// [ ] of ${a[@]} as VS Code does (punctuation), where sh.vim gives them
// PreProc by matchgroup, a keyword colour. Real Neovim, the exported
// colorscheme, colours read back per character.
func TestNeovimPaintsShellExpansionBracesAsVSCode(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	th := Example()
	files, err := Render(th, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	slug := ""
	for name := range files {
		if strings.HasPrefix(name, "colors/") {
			slug = strings.TrimSuffix(strings.TrimPrefix(name, "colors/"), ".lua")
		}
	}
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "rtp"), files)
	src := filepath.Join(dir, "x.sh")
	os.WriteFile(src, []byte("#!/bin/bash\nx=\"${a:-b}\"\nfor i in \"${arr[@]}\"; do :; done\n"), 0o644)
	script := filepath.Join(dir, "probe.lua")
	os.WriteFile(script, []byte(`vim.o.termguicolors = true
vim.cmd('colorscheme ' .. vim.env.SLUG)
vim.cmd('edit ' .. vim.env.SRC)
local out = {}
for _, p in ipairs({ {2, 4}, {2, 5}, {2, 10}, {3, 11}, {3, 12}, {3, 16}, {3, 18}, {3, 19} }) do
  local hl = vim.api.nvim_get_hl_by_id(vim.fn.synIDtrans(vim.fn.synID(p[1], p[2], 1)), true)
  table.insert(out, hl.foreground and string.format('#%06x', hl.foreground) or 'none')
end
vim.fn.writefile(out, vim.env.OUT)
`), 0o644)
	outFile := filepath.Join(dir, "out.txt")
	if _, stderr, err := run(t, dir, []string{"SLUG=" + slug, "SRC=" + src, "OUT=" + outFile}, nvim,
		"--headless", "--clean", "-n", "-i", "NONE", "--cmd", "set rtp^="+filepath.Join(dir, "rtp"),
		"-c", "luafile "+script, "-c", "qa!"); err != nil {
		t.Fatalf("nvim: %v\n%s", err, stderr)
	}
	raw, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(raw))
	str := []string{"source.shell", "string.quoted.double.shell"}
	brace, _ := VSCodeScopeStyle(th, append(str, "punctuation.section.bracket.curly.variable.begin.shell", "punctuation.definition.variable.shell")...)
	bracket, _ := VSCodeScopeStyle(th, append(str, "meta.parameter-expansion", "punctuation.section.array.shell")...)
	if brace == th.Color("syntax.keyword") {
		t.Fatal("VS Code's brace colour is the keyword colour; the test cannot tell them apart")
	}
	want := []Color{brace, brace, brace, brace, brace, bracket, bracket, brace}
	what := []string{"$ of ${a", "{ of ${a", "} of ${a:-b}", "$ of ${arr", "{ of ${arr", "[ of arr[@]", "] of arr[@]", "} of ${arr[@]}"}
	if len(got) != len(want) {
		t.Fatalf("nvim read back %q", got)
	}
	for i := range want {
		if got[i] != th.seen(want[i]).Hex() {
			t.Errorf("Neovim paints the %s %s, VS Code %s", what[i], got[i], th.seen(want[i]).Hex())
		}
	}
}
