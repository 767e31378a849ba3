package consistency

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/targets"
	"cdxtheme/internal/testrig/programs"
)

// Sublime Text highlights with the same grammars as bat (Sublime's
// Packages, which bat compiles with syntect), so for each theme of the
// consistency set the .sublime-color-scheme must paint every scope stack
// those grammars produce as bat paints it with the .tmTheme. Sublime Text
// is not packaged for Debian; bat is the real program on one side, and on
// the other a matcher that follows Sublime's documented rules (TextMate's
// ranking of selectors; every matching rule applied from the lowest rank
// to the highest, property by property, the later of two equal ranks
// last). bat is handed each stack through a probe grammar that gives the
// line "p<i>" exactly that stack, under the grammar's real root scope.

// probeRoots are the root scopes of the grammars bat uses for the
// consistency samples (JSON for the Markdown sample's fence), by the suffix
// their scopes carry.
var probeRoots = []struct{ suffix, root string }{
	{"go", "source.go"}, {"python", "source.python"}, {"ts", "source.ts"}, {"rust", "source.rust"},
	{"lua", "source.lua"}, {"shell", "source.shell.bash"}, {"markdown", "text.html.markdown"}, {"json", "source.json"},
}

// probeScopes are common scopes of Sublime's grammars (its scope naming
// guidelines), each given the language's suffix; a space nests one in the
// other, as the grammars do.
var probeScopes = []string{
	"comment.line.double-slash", "comment.line.number-sign", "comment.block", "comment.block.documentation",
	"comment.line.double-slash punctuation.definition.comment", "comment.block.documentation punctuation.definition.comment",
	"string.quoted.double", "string.quoted.single", "string.quoted.triple", "string.unquoted",
	"string.quoted.double punctuation.definition.string.begin", "string.quoted.double constant.character.escape",
	"string.quoted.double constant.other.placeholder", "string.regexp",
	"constant.numeric.integer.decimal", "constant.numeric.float.decimal", "constant.numeric.integer.hexadecimal",
	"constant.language.boolean", "constant.language.null", "constant.language", "constant.other", "constant.character",
	"keyword.control", "keyword.control.conditional", "keyword.control.import", "keyword.control.flow.return",
	"keyword.control.loop", "keyword.declaration.function", "keyword.other", "keyword.operator",
	"keyword.operator.assignment", "keyword.operator.arithmetic", "keyword.operator.logical", "keyword.operator.comparison",
	"keyword.operator.word", "storage.type", "storage.type.function", "storage.type.class", "storage.modifier",
	"meta.function entity.name.function", "meta.function meta.function.parameters variable.parameter",
	"meta.function-call variable.function", "meta.function-call meta.function-call.arguments variable.other",
	"entity.name.type", "entity.name.class", "entity.name.struct", "entity.name.namespace", "entity.name.constant",
	"entity.name.tag", "entity.other.attribute-name", "entity.other.inherited-class", "entity.name.label",
	"variable.other", "variable.other.readwrite", "variable.other.member", "variable.other.constant",
	"variable.language", "variable.parameter", "variable.function",
	"support.function", "support.function.builtin", "support.type", "support.class", "support.constant", "support.module",
	"punctuation.separator", "punctuation.separator.comma", "punctuation.terminator", "punctuation.accessor",
	"meta.block punctuation.section.block.begin", "meta.group punctuation.section.group.begin",
	"punctuation.section.brackets.begin", "punctuation.section.parens.begin",
	"meta.annotation", "meta.preprocessor", "meta.block keyword.control", "meta.block meta.block variable.other",
	"markup.heading.1 entity.name.section", "markup.heading.1 punctuation.definition.heading.begin",
	"markup.bold", "markup.bold punctuation.definition.bold.begin", "markup.italic", "markup.raw.inline",
	"markup.raw.code-fence", "meta.code-fence constant.other.language-name", "meta.link.inline markup.underline.link",
	"markup.quote", "markup.list.unnumbered punctuation.definition.list_item", "markup.inserted", "markup.deleted",
	"markup.changed", "invalid.illegal", "invalid.deprecated",
}

// probeStacks are the stacks sampled: each probe scope under each root,
// and each selector of the .tmTheme's rules for Sublime's grammars as the
// stack it names (the scopes bat's grammars give the tokens the syntax map
// and an imported theme name differently).
func probeStacks(tmTheme []byte) map[string][][]string {
	out := map[string][][]string{}
	for _, r := range probeRoots {
		for _, p := range probeScopes {
			stack := []string{r.root}
			for _, s := range strings.Fields(p) {
				stack = append(stack, s+"."+r.suffix)
			}
			out[r.root] = append(out[r.root], stack)
		}
	}
	re := regexp.MustCompile(`<string>Sublime grammars: [^<]*</string>\s*<key>scope</key>\s*<string>([^<]*)</string>`)
	for _, m := range re.FindAllStringSubmatch(string(tmTheme), -1) {
		for _, sel := range strings.Split(m[1], ",") {
			parts := strings.Fields(sel)
			if len(parts) > 0 && (parts[0] == "source" || parts[0] == "text") {
				parts = parts[1:]
			}
			root := ""
			for _, r := range probeRoots {
				for _, p := range parts {
					if strings.HasSuffix(p, "."+r.suffix) || strings.HasPrefix(r.root, p) {
						root = r.root
					}
				}
			}
			if root == "" || len(parts) == 0 {
				continue
			}
			stack := []string{root}
			for _, p := range parts {
				if !strings.HasPrefix(root, p) {
					stack = append(stack, p)
				}
			}
			out[root] = append(out[root], stack)
		}
	}
	return out
}

func TestSublimeTextPaintsAsBat(t *testing.T) {
	bat := programs.Find(t, "batcat", "bat")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	src := filepath.Join(tmp, "bat-src")
	cache := filepath.Join(tmp, "bat-cache")
	os.MkdirAll(filepath.Join(src, "themes"), 0o755)
	os.MkdirAll(filepath.Join(src, "syntaxes"), 0o755)

	type sub struct {
		name   string
		scheme *sublimeScheme
	}
	var subs []sub
	var stacks map[string][][]string
	for _, rt := range refThemes {
		s := export(t, tmp, rt.name, rt.file)
		m, _ := filepath.Glob(filepath.Join(s.dir, "tmtheme", "*.tmTheme"))
		if len(m) != 1 {
			t.Fatalf("%s: %d .tmTheme files", s.name, len(m))
		}
		tm, _ := os.ReadFile(m[0])
		os.WriteFile(filepath.Join(src, "themes", s.name+".tmTheme"), tm, 0o644)
		if stacks == nil {
			stacks = probeStacks(tm)
		}
		files, err := targets.Render(s.t, "sublime")
		if err != nil {
			t.Fatalf("%s: export sublime: %v", s.name, err)
		}
		for _, b := range files {
			sc, err := parseSublimeScheme(b)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			subs = append(subs, sub{s.name, sc})
		}
	}
	// One probe grammar per root: line i of its file is stacks[root][i].
	probeFiles := map[string]string{}
	for i, r := range probeRoots {
		var g, f strings.Builder
		fmt.Fprintf(&g, "%%YAML 1.2\n---\nname: Probe %d\nfile_extensions: [probe%d]\nscope: %s\ncontexts:\n  main:\n", i, i, r.root)
		for j, st := range stacks[r.root] {
			fmt.Fprintf(&g, "    - match: '^p%d$'\n      scope: %q\n", j, strings.Join(st[1:], " "))
			fmt.Fprintf(&f, "p%d\n", j)
		}
		os.WriteFile(filepath.Join(src, "syntaxes", fmt.Sprintf("probe%d.sublime-syntax", i)), []byte(g.String()), 0o644)
		p := filepath.Join(tmp, fmt.Sprintf("probe.probe%d", i))
		os.WriteFile(p, []byte(f.String()), 0o644)
		probeFiles[r.root] = p
	}
	env := append(os.Environ(), "BAT_CONFIG_DIR="+filepath.Join(tmp, "bat-config"), "BAT_CACHE_PATH="+cache, "COLORTERM=truecolor", "BAT_PAGER=", "NO_COLOR=")
	build := exec.CommandContext(ctx, bat, "cache", "--build", "--source", src, "--target", cache)
	build.Env = env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bat cache --build: %v\n%s", err, out)
	}

	checked, bad := 0, 0
	for _, s := range subs {
		for _, r := range probeRoots {
			cmd := exec.CommandContext(ctx, bat, "--color=always", "--italic-text=always", "--theme="+s.name, "--style=plain", "--paging=never", "--wrap=never", probeFiles[r.root])
			cmd.Env = env
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bat %s %s: %v", s.name, r.root, err)
			}
			lines := styledLines(string(out))
			if len(lines) != len(stacks[r.root]) {
				t.Fatalf("bat %s %s: %d lines for %d stacks", s.name, r.root, len(lines), len(stacks[r.root]))
			}
			for i, l := range lines {
				if l.text != fmt.Sprintf("p%d", i) {
					t.Fatalf("bat %s %s: line %d is %q", s.name, r.root, i, l.text)
				}
				st := stacks[r.root][i]
				fg, style := s.scheme.resolve(st)
				batFG := l.fg
				if batFG == "" {
					batFG = s.scheme.foreground
				}
				checked++
				if fg != batFG || style != l.style {
					bad++
					if bad <= 40 {
						t.Errorf("%s: %s: Sublime Text paints %s %q, bat %s %q", s.name, strings.Join(st, " "), fg, style, batFG, l.style)
					}
				}
			}
		}
	}
	t.Logf("%d scope stacks over %d themes, %d painted otherwise by Sublime Text than by bat", checked, len(subs), bad)
	if checked < 1000 {
		t.Errorf("only %d stacks checked", checked)
	}
}

// styledLine is one line of bat's output, painted uniformly (each probe
// line is one token): its text, foreground ("" for none) and font style.
type styledLine struct {
	text, fg, style string
}

func styledLines(s string) []styledLine {
	sgr := regexp.MustCompile(`\x1b\[([0-9;]*)m`)
	var out []styledLine
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		var l styledLine
		var bold, italic, underline bool
		fg := ""
		rest := line
		for rest != "" {
			loc := sgr.FindStringSubmatchIndex(rest)
			text := rest
			if loc != nil {
				text = rest[:loc[0]]
			}
			if text != "" && l.text == "" {
				l.fg = fg
				var st []string
				for _, w := range []struct {
					on   bool
					name string
				}{{bold, "bold"}, {italic, "italic"}, {underline, "underline"}} {
					if w.on {
						st = append(st, w.name)
					}
				}
				l.style = strings.Join(st, " ")
			}
			l.text += text
			if loc == nil {
				break
			}
			p := strings.Split(rest[loc[2]:loc[3]], ";")
			for i := 0; i < len(p); i++ {
				switch p[i] {
				case "", "0":
					fg, bold, italic, underline = "", false, false, false
				case "1":
					bold = true
				case "3":
					italic = true
				case "4":
					underline = true
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
			rest = rest[loc[1]:]
		}
		out = append(out, l)
	}
	return out
}

// sublimeScheme is a .sublime-color-scheme's rules as Sublime Text reads
// them.
type sublimeScheme struct {
	foreground string
	rules      []sublimeRule
}

type sublimeRule struct {
	selectors [][]string // comma-separated alternatives, each its scopes outermost first
	excludes  [][]string // the "- scope" part of each alternative, nil where none
	fg, style *string
}

func parseSublimeScheme(b []byte) (*sublimeScheme, error) {
	var doc struct {
		Variables map[string]string `json:"variables"`
		Globals   map[string]string `json:"globals"`
		Rules     []struct {
			Scope      string  `json:"scope"`
			Foreground *string `json:"foreground"`
			FontStyle  *string `json:"font_style"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("sublime-color-scheme: %w", err)
	}
	val := func(s string) string {
		if strings.HasPrefix(s, "var(") && strings.HasSuffix(s, ")") {
			s = doc.Variables[s[4:len(s)-1]]
		}
		return strings.ToLower(s)
	}
	sc := &sublimeScheme{foreground: val(doc.Globals["foreground"])}
	for _, r := range doc.Rules {
		sr := sublimeRule{style: r.FontStyle}
		if r.Foreground != nil {
			f := val(*r.Foreground)
			sr.fg = &f
		}
		for _, alt := range strings.Split(r.Scope, ",") {
			inc, exc, _ := strings.Cut(alt, " - ")
			sr.selectors = append(sr.selectors, strings.Fields(inc))
			sr.excludes = append(sr.excludes, strings.Fields(exc))
		}
		sc.rules = append(sc.rules, sr)
	}
	return sc, nil
}

// rank is how well a selector matches a stack, by TextMate's ranking
// (which Sublime Text keeps): the depth of the scope its last part matches,
// then how many of that scope's atoms it names, then the same for the part
// before it, and so on; a selector of more parts outranks one that is the
// same otherwise. nil: no match.
func rank(sel, stack []string) []int {
	if len(sel) == 0 {
		return nil
	}
	var r []int
	d := len(stack) - 1
	for k := len(sel) - 1; k >= 0; k-- {
		for d >= 0 && !scopePrefix(sel[k], stack[d]) {
			d--
		}
		if d < 0 {
			return nil
		}
		r = append(r, d, strings.Count(sel[k], ".")+1)
		d--
	}
	return r
}

func cmpRank(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return len(a) - len(b)
}

// scopePrefix: sel names scope or a scope it starts (by whole atoms).
func scopePrefix(sel, scope string) bool {
	return sel == scope || strings.HasPrefix(scope, sel+".")
}

// resolve is the foreground and font style Sublime Text gives a stack:
// each matching rule applied from the lowest rank to the highest, the
// later of two equal ranks last; each sets what it sets.
func (sc *sublimeScheme) resolve(stack []string) (string, string) {
	type hit struct {
		r   []int
		idx int
	}
	var hits []hit
	for i, rule := range sc.rules {
		var best []int
		for j, sel := range rule.selectors {
			r := rank(sel, stack)
			if r == nil || (len(rule.excludes[j]) > 0 && rank(rule.excludes[j], stack) != nil) {
				continue
			}
			if best == nil || cmpRank(r, best) > 0 {
				best = r
			}
		}
		if best != nil {
			hits = append(hits, hit{best, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return cmpRank(hits[a].r, hits[b].r) < 0 })
	fg, style := sc.foreground, ""
	for _, h := range hits {
		if r := sc.rules[h.idx]; r.fg != nil {
			fg = *r.fg
		}
		if r := sc.rules[h.idx]; r.style != nil {
			style = strings.Join(strings.Fields(*r.style), " ")
		}
	}
	return fg, style
}
