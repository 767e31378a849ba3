// Package consistency checks that a theme is one design across programs:
// the same real source files, painted by the app's preview, VS Code's
// highlighter (Shiki) with the exported VS Code theme, bat with the
// exported .tmTheme, Neovim with the exported colorscheme (and Vim with
// the classic Vim export when there is one), must give every character
// the same colour. Each program is the real one; nothing is simulated.
package consistency

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	// The exporters are templates of core/targets, registered on import.
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
	"cdxtheme/core/themeimport"
	"cdxtheme/internal/testrig/programs"
)

// minBoth is the agreement, among the characters both programs of a pair
// colour (not the text colour), that issue #39 asks of every pair: every
// run, `make test`'s too, fails below it. A pair's floor in
// testdata/floor.txt, the agreement measured when the floor was last
// raised, may hold it higher (a change to the mapping may move agreement
// up, never down), never lower: a floor below minBoth is refused.
// CONSISTENCY_WRITE_FLOOR=1 writes the figures of the run as the new
// floor (raise it when a change improves them); CONSISTENCY_STRICT=1
// (`make consistency`) holds every pair to minBoth alone, for programs
// of other versions than the floor was measured with.
const minBoth = 0.98

const floorFile = "testdata/floor.txt"

func readFloor(t *testing.T) map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(floorFile)
	if err != nil {
		t.Fatalf("%s: %v", floorFile, err)
	}
	out := map[string]float64{}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || strings.HasPrefix(l, "#") {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", floorFile, l, err)
		}
		if v/100 < minBoth-1e-9 {
			t.Fatalf("%s: %q: a floor below issue #39's %.0f%% is not accepted", floorFile, l, 100*minBoth)
		}
		out[f[0]+" "+f[1]] = v / 100
	}
	return out
}

// samples are the source files, with Shiki's name for each grammar. bat,
// Neovim and Vim pick theirs from the file extension.
var samples = []struct{ file, lang string }{
	{"palette.go", "go"},
	{"contrast.py", "python"},
	{"preview.ts", "typescript"},
	{"ramp.rs", "rust"},
	{"statusline.lua", "lua"},
	{"GUIDE.md", "markdown"},
	{"install.sh", "shellscript"},
}

// refThemes: the project's example, two published VS Code themes as
// imported, and a base16 scheme as imported.
var refThemes = []struct{ name, file string }{
	{"example", "../../../core/theme/testdata/example.theme.json"},
	{"onedarkpro", "../../../core/theme/testdata/oracle/vscode/OneDark-Pro.json"},
	{"nord", "../../../core/theme/testdata/oracle/vscode/nord-color-theme.json"},
	{"gruvbox", "../../../core/theme/testdata/import/gruvbox-dark-hard.yaml"},
}

// paint is one program's colour of every character of every file: per
// file, per line, per character (rune) "#rrggbb", "" for the text colour
// and "-" for whitespace, which shows no foreground.
type paint map[string][][]string

// setup is one theme exported for every program, in dir.
type setup struct {
	name   string
	t      *theme.Theme
	normal string // the text colour, flattened
	dir    string
}

func TestConsistency(t *testing.T) {
	bat := programs.Find(t, "batcat", "bat")
	nvim := programs.Find(t, "nvim", "neovim")
	node := programs.Find(t, "node", "nodejs")
	shikiScript, err := filepath.Abs("../../../frontend/scripts/consistency-shiki.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("../../../frontend/node_modules/shiki"); err != nil {
		if os.Getenv("CDXTHEME_REQUIRE_PROGRAMS") != "" {
			t.Fatal("frontend/node_modules has no shiki: run `make npm`")
		}
		t.Skip("frontend/node_modules has no shiki (`make npm` installs it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmp := t.TempDir()

	var files []string
	for _, s := range samples {
		p, _ := filepath.Abs(filepath.Join("testdata", "src", s.file))
		files = append(files, p)
	}
	var setups []*setup
	for _, rt := range refThemes {
		if only := os.Getenv("CONSISTENCY_THEMES"); only != "" && !strings.Contains(","+only+",", ","+rt.name+",") {
			continue
		}
		setups = append(setups, export(t, tmp, rt.name, rt.file))
	}

	paints := map[string]map[string]paint{} // program → theme → paint
	var mu sync.Mutex
	put := func(prog, th string, p paint) {
		mu.Lock()
		defer mu.Unlock()
		if paints[prog] == nil {
			paints[prog] = map[string]paint{}
		}
		paints[prog][th] = p
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	var timing sync.Map
	run := func(what string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if err := f(); err != nil {
				errs <- err
			}
			timing.Store(what, time.Since(start).Round(100*time.Millisecond))
		}()
	}
	run("shiki (preview and VS Code)", func() error { return runShiki(ctx, node, shikiScript, tmp, setups, files, put) })
	run("bat", func() error { return runBat(ctx, bat, tmp, setups, files, put) })
	run("nvim", func() error { return runNvim(ctx, nvim, tmp, setups, files, put) })
	wg.Wait()
	close(errs)
	timing.Range(func(k, v any) bool { t.Logf("%s took %v", k, v); return true })
	for err := range errs {
		t.Fatal(err)
	}

	progs := []string{"preview", "vscode", "bat", "nvim"}
	strict := os.Getenv("CONSISTENCY_STRICT") != ""
	writeFloor := os.Getenv("CONSISTENCY_WRITE_FLOOR") != ""
	floor := map[string]float64{} // writing a new floor: held to minBoth alone
	if !writeFloor {
		floor = readFloor(t)
	}
	var newFloor strings.Builder
	newFloor.WriteString("# theme pair both% — written by CONSISTENCY_WRITE_FLOOR=1 (see minBoth)\n")
	var report strings.Builder
	fmt.Fprintf(&report, "%-11s %-15s %8s %8s %8s\n", "theme", "pair", "overall", "both", "chars")
	for _, s := range setups {
		for i := 0; i < len(progs); i++ {
			for j := i + 1; j < len(progs); j++ {
				a, b := progs[i], progs[j]
				r := compare(paints[a][s.name], paints[b][s.name], files)
				fmt.Fprintf(&report, "%-11s %-15s %7.1f%% %7.1f%% %8d\n", s.name, a+"/"+b, 100*r.overall(), 100*r.both(), r.bothN)
				key := s.name + " " + a + "/" + b
				fmt.Fprintf(&newFloor, "%s %.1f\n", key, math.Floor(1000*r.both())/10)
				want, what := floor[key], "its floor in "+floorFile
				if strict || want < minBoth {
					want, what = minBoth, "issue #39's target"
				}
				if r.both() < want-1e-9 {
					t.Errorf("%s: %s and %s agree on %.1f%% of the %d characters both colour (want ≥ %.1f%%, %s); most common differences:\n%s",
						s.name, a, b, 100*r.both(), r.bothN, 100*want, what, r.worst(worstN()))
				}
			}
		}
	}
	if writeFloor && !t.Failed() {
		if err := os.WriteFile(floorFile, []byte(newFloor.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("agreement per pair (overall: every non-blank character; both: characters both programs colour)\n%s", report.String())
	if os.Getenv("CONSISTENCY_REPORT") != "" {
		os.WriteFile(os.Getenv("CONSISTENCY_REPORT"), []byte(report.String()), 0o644)
	}
}

// export imports (or parses) a reference theme and writes the exports the
// programs read into dir/<name>/.
func export(t *testing.T, tmp, name, file string) *setup {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var th *theme.Theme
	if strings.HasSuffix(file, ".theme.json") {
		th, err = theme.Parse(data)
	} else {
		var imp *themeimport.Imported
		imp, err = themeimport.Import(filepath.Base(file), data)
		if imp != nil {
			th = imp.Theme
		}
	}
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	th.Name = name // one slug per theme, whatever the file calls it
	s := &setup{name: name, t: th, normal: flat(th, th.Color("ui.text").String()), dir: filepath.Join(tmp, name)}
	for _, f := range []string{"vscode", "tmtheme", "neovim"} {
		out, err := targets.Render(th, f)
		if err != nil {
			t.Fatalf("%s: export %s: %v", name, f, err)
		}
		for rel, b := range out {
			p := filepath.Join(s.dir, f, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// flat is a colour as "#rrggbb" drawn on the theme background; "" for
// what does not parse (a program's "no colour").
func flat(th *theme.Theme, s string) string {
	c, err := theme.ParseColor(strings.TrimSpace(s))
	if err != nil {
		return ""
	}
	return strings.ToLower(c.Over(th.UI.Background.Over(theme.Color{A: 255})).Hex())
}

// cells turns one line's colours per character into the paint's form:
// whitespace "-", the text colour "".
func cells(s *setup, text []rune, colors []string) []string {
	out := make([]string, len(text))
	for i, r := range text {
		c := ""
		if i < len(colors) {
			c = flat(s.t, colors[i])
		}
		switch {
		case unicode.IsSpace(r):
			c = "-"
		case c == s.normal:
			c = ""
		}
		out[i] = c
	}
	return out
}

func runShiki(ctx context.Context, node, script, tmp string, setups []*setup, files []string, put func(string, string, paint)) error {
	type jt struct {
		Name   string `json:"name"`
		Vscode string `json:"vscode"`
	}
	type jf struct {
		Path string `json:"path"`
		Lang string `json:"lang"`
	}
	var job struct {
		Themes []jt `json:"themes"`
		Files  []jf `json:"files"`
	}
	for _, s := range setups {
		m, _ := filepath.Glob(filepath.Join(s.dir, "vscode", "themes", "*-color-theme.json"))
		if len(m) != 1 {
			return fmt.Errorf("%s: the VS Code export has %d colour themes", s.name, len(m))
		}
		job.Themes = append(job.Themes, jt{s.name, m[0]})
	}
	for i, f := range files {
		job.Files = append(job.Files, jf{f, samples[i].lang})
	}
	jobFile := filepath.Join(tmp, "shiki-job.json")
	b, _ := json.Marshal(job)
	os.WriteFile(jobFile, b, 0o644)
	cmd := exec.CommandContext(ctx, node, script, jobFile)
	cmd.Dir = filepath.Dir(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("shiki: %v\n%s", err, stderr.String())
	}
	var res map[string]map[string]map[string][][][2]string // mode → theme → file → lines → tokens
	if err := json.Unmarshal(outb, &res); err != nil {
		return fmt.Errorf("shiki output: %v", err)
	}
	for mode, prog := range map[string]string{"preview": "preview", "shiki": "vscode"} {
		for _, s := range setups {
			p := paint{}
			for _, f := range files {
				for _, line := range res[mode][s.name][f] {
					var text []rune
					var cols []string
					for _, tok := range line {
						for _, r := range tok[0] {
							text = append(text, r)
							cols = append(cols, tok[1])
						}
					}
					p[f] = append(p[f], cells(s, text, cols))
				}
			}
			put(prog, s.name, p)
		}
	}
	return nil
}

func runBat(ctx context.Context, bat, tmp string, setups []*setup, files []string, put func(string, string, paint)) error {
	src := filepath.Join(tmp, "bat-src")
	cache := filepath.Join(tmp, "bat-cache")
	os.MkdirAll(filepath.Join(src, "themes"), 0o755)
	for _, s := range setups {
		m, _ := filepath.Glob(filepath.Join(s.dir, "tmtheme", "*.tmTheme"))
		if len(m) != 1 {
			return fmt.Errorf("%s: %d .tmTheme files", s.name, len(m))
		}
		b, _ := os.ReadFile(m[0])
		os.WriteFile(filepath.Join(src, "themes", s.name+".tmTheme"), b, 0o644)
	}
	env := append(os.Environ(), "BAT_CONFIG_DIR="+filepath.Join(tmp, "bat-config"), "BAT_CACHE_PATH="+cache, "COLORTERM=truecolor", "BAT_PAGER=", "NO_COLOR=")
	build := exec.CommandContext(ctx, bat, "cache", "--build", "--source", src, "--target", cache)
	build.Env = env
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("bat cache --build: %v\n%s", err, out)
	}
	type result struct {
		theme, file string
		lines       [][]string
		err         error
	}
	sem := make(chan struct{}, runtime.NumCPU()+1)
	results := make(chan result, len(setups)*len(files))
	var wg sync.WaitGroup
	for _, s := range setups {
		for _, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cmd := exec.CommandContext(ctx, bat, "--color=always", "--theme="+s.name, "--style=plain", "--paging=never", "--wrap=never", "--tabs=0", f)
				cmd.Env = env
				out, err := cmd.Output()
				if err != nil {
					results <- result{err: fmt.Errorf("bat %s %s: %v", s.name, f, err)}
					return
				}
				var lines [][]string
				for _, l := range sgrLines(string(out)) {
					lines = append(lines, cells(s, l.text, l.fg))
				}
				results <- result{theme: s.name, file: f, lines: lines}
			}()
		}
	}
	wg.Wait()
	close(results)
	byTheme := map[string]paint{}
	for r := range results {
		if r.err != nil {
			return r.err
		}
		if byTheme[r.theme] == nil {
			byTheme[r.theme] = paint{}
		}
		byTheme[r.theme][r.file] = r.lines
	}
	for th, p := range byTheme {
		put("bat", th, p)
	}
	return nil
}

type sgrLine struct {
	text []rune
	fg   []string
}

// sgrLines reads terminal output with 24-bit SGR colours into each
// character's foreground ("" where none is set).
func sgrLines(s string) []sgrLine {
	var out []sgrLine
	fg := ""
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		var l sgrLine
		rs := []rune(line)
		for i := 0; i < len(rs); i++ {
			if rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '[' {
				j := i + 2
				for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
					j++
				}
				if j < len(rs) && rs[j] == 'm' {
					fg = applySGR(fg, string(rs[i+2:j]))
				}
				i = j
				continue
			}
			l.text = append(l.text, rs[i])
			l.fg = append(l.fg, fg)
		}
		out = append(out, l)
	}
	return out
}

func applySGR(fg, params string) string {
	p := strings.Split(params, ";")
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case "", "0", "39":
			fg = ""
		case "38":
			if i+4 < len(p) && p[i+1] == "2" {
				r, _ := strconv.Atoi(p[i+2])
				g, _ := strconv.Atoi(p[i+3])
				b, _ := strconv.Atoi(p[i+4])
				fg = fmt.Sprintf("#%02x%02x%02x", r, g, b)
				i += 4
			}
		}
	}
	return fg
}

// nvimScript walks every character of every file once and records its
// syntax group (synID), then for each colorscheme prints the foreground
// each group resolves to (synIDtrans, its GUI colour): one line of
// comma-separated colours per buffer line. The groups do not depend on the
// colorscheme (each export defines the same keyword groups), so one walk
// serves every theme. Neovim's regex Markdown paints a fenced block in one
// colour unless the user names its languages (:help ft-markdown-syntax;
// tree-sitter's Markdown injects them by itself), so the script names the
// ones VS Code's Markdown highlights, as a designer writing Markdown does.
const nvimScript = `
vim.g.markdown_fenced_languages = { 'json', 'yaml', 'bash=sh', 'sh' }
local job = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('CONSISTENCY_JOB')), '\n'))
vim.o.termguicolors = true
for _, s in ipairs(job.schemes) do vim.opt.runtimepath:prepend(s.colors) end
vim.cmd('filetype on')
vim.cmd('syntax on')
vim.cmd('colorscheme ' .. job.schemes[1].scheme)
local walked = {}
for _, f in ipairs(job.files) do
  vim.cmd('edit ' .. vim.fn.fnameescape(f))
  local lines = {}
  for l = 1, vim.fn.line('$') do
    local text = vim.fn.getline(l)
    local ids = {}
    local i = 1
    while i <= #text do
      local b = text:byte(i)
      local n = (b < 0x80 and 1) or (b < 0xE0 and 2) or (b < 0xF0 and 3) or 4
      table.insert(ids, vim.fn.synID(l, i, 1))
      i = i + n
    end
    lines[l] = ids
  end
  walked[#walked + 1] = { file = f, lines = lines }
  vim.cmd('bwipeout!')
end
for _, s in ipairs(job.schemes) do
  vim.cmd('colorscheme ' .. s.scheme)
  local fg = {}
  local out = {}
  for _, w in ipairs(walked) do
    table.insert(out, '=' .. w.file)
    for _, ids in ipairs(w.lines) do
      local cols = {}
      for k, id in ipairs(ids) do
        if fg[id] == nil then fg[id] = vim.fn.synIDattr(vim.fn.synIDtrans(id), 'fg#', 'gui') end
        cols[k] = fg[id]
      end
      table.insert(out, table.concat(cols, ','))
    end
  end
  vim.fn.writefile(out, s.out)
end
vim.cmd('qall!')
`

func runNvim(ctx context.Context, nvim, tmp string, setups []*setup, files []string, put func(string, string, paint)) error {
	script := filepath.Join(tmp, "walk.lua")
	os.WriteFile(script, []byte(nvimScript), 0o644)
	type scheme struct {
		Colors string `json:"colors"`
		Scheme string `json:"scheme"`
		Out    string `json:"out"`
	}
	var schemes []scheme
	for _, s := range setups {
		m, _ := filepath.Glob(filepath.Join(s.dir, "neovim", "colors", "*.lua"))
		if len(m) != 1 {
			return fmt.Errorf("%s: %d Neovim colorschemes", s.name, len(m))
		}
		schemes = append(schemes, scheme{filepath.Join(s.dir, "neovim"), strings.TrimSuffix(filepath.Base(m[0]), ".lua"), filepath.Join(s.dir, "nvim-paint.txt")})
	}
	job, _ := json.Marshal(map[string]any{"schemes": schemes, "files": files})
	jobFile := filepath.Join(tmp, "nvim-job.json")
	os.WriteFile(jobFile, job, 0o644)
	cmd := exec.CommandContext(ctx, nvim, "--clean", "--headless", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "CONSISTENCY_JOB="+jobFile, "XDG_CONFIG_HOME="+filepath.Join(tmp, "xdg"), "XDG_DATA_HOME="+filepath.Join(tmp, "xdg"), "XDG_STATE_HOME="+filepath.Join(tmp, "xdg"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("nvim: %v\n%s", err, out)
	}
	texts := map[string][]string{}
	for _, file := range files {
		b, _ := os.ReadFile(file)
		texts[file] = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	for i, s := range setups {
		p, err := readNvimPaint(s, schemes[i].Out, texts)
		if err != nil {
			return err
		}
		put("nvim", s.name, p)
	}
	return nil
}

func readNvimPaint(s *setup, path string, texts map[string][]string) (paint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("nvim wrote nothing for %s: %v", s.name, err)
	}
	defer f.Close()
	p := paint{}
	cur := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "=") {
			cur = line[1:]
			continue
		}
		n := len(p[cur])
		var text []rune
		if n < len(texts[cur]) {
			text = []rune(texts[cur][n])
		}
		var cols []string
		if line != "" {
			cols = strings.Split(line, ",")
		}
		p[cur] = append(p[cur], cells(s, text, cols))
	}
	return p, sc.Err()
}

// result counts one pair's agreement.
type result struct {
	n, same, bothN, bothSame int
	diffs                    map[string]int // "text a b" → characters
}

func (r result) overall() float64 { return ratio(r.same, r.n) }
func (r result) both() float64    { return ratio(r.bothSame, r.bothN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (r result) worst(n int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range r.diffs {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v || l[i].v == l[j].v && l[i].k < l[j].k })
	var b strings.Builder
	for i, e := range l {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "    %4d× %s\n", e.v, e.k)
	}
	return b.String()
}

// compare counts, over every non-blank character, where two paints agree;
// words (runs of equal pairs of colours) are named in the differences.
func compare(a, b paint, files []string) result {
	r := result{diffs: map[string]int{}}
	for _, f := range files {
		la, lb := a[f], b[f]
		text, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
		for i, line := range lines {
			rs := []rune(line)
			var ca, cb []string
			if i < len(la) {
				ca = la[i]
			}
			if i < len(lb) {
				cb = lb[i]
			}
			word, wa, wb := "", "", ""
			flush := func() {
				if word != "" && wa != wb && wa != "" && wb != "" {
					r.diffs[fmt.Sprintf("%s: %q %s≠%s", filepath.Base(f), word, name(wa), name(wb))] += len([]rune(word))
				}
				word = ""
			}
			for k, ch := range rs {
				if unicode.IsSpace(ch) {
					flush()
					continue
				}
				x, y := at(ca, k), at(cb, k)
				if x != wa || y != wb {
					flush()
					wa, wb = x, y
				}
				word += string(ch)
				r.n++
				if x == y {
					r.same++
				}
				if x != "" && y != "" {
					r.bothN++
					if x == y {
						r.bothSame++
					}
				}
			}
			flush()
		}
	}
	return r
}

func at(l []string, i int) string {
	if i < len(l) && l[i] != "-" {
		return l[i]
	}
	return ""
}

func name(c string) string {
	if c == "" {
		return "text"
	}
	return c
}

// worstN is how many differences a failure lists (CONSISTENCY_WORST, else 8).
func worstN() int {
	if n, err := strconv.Atoi(os.Getenv("CONSISTENCY_WORST")); err == nil {
		return n
	}
	return 8
}
