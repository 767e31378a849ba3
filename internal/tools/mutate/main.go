// Command mutate is `make mutate`: a sampled mutation test of the Go packages
// that decide behaviour. It makes one-token changes to a package's code (a
// comparison turned round, a condition disabled, an assignment or a call
// dropped), runs that package's tests against each change through
// `go test -overlay` (the work tree is never written), and prints, per
// package, how many changes the tests noticed: the kill rate.
//
// The figures are comparable from run to run because the sample is drawn
// from the sorted list of sites with a fixed seed, and bounded because each
// package gets a fixed number of mutants, a per-mutant timeout and a budget.
// A mutant the compiler refuses is not counted; one whose tests hang until
// the timeout counts as killed (a user would notice a hang). Mutants listed
// in equivalent.txt (no behaviour can tell them from the original) are left
// out of the rate and named with their reason.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// site is one possible mutation: replace src[start:end] of file with repl.
type site struct {
	file       string // path relative to the module root
	fn         string // enclosing function, for equivalent.txt
	line, col  int
	start, end int
	orig, repl string
	kind       string
	occ        int // which of the sites with this key it is (1, 2, …), in file order
	dup        bool
}

func (s site) String() string {
	orig := oneLine(s.orig)
	if len(orig) > 70 {
		orig = orig[:67] + "..."
	}
	return fmt.Sprintf("%s:%d:%d %s: %q → %q", s.file, s.line, s.col, s.kind, orig, s.repl)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// key names a mutant in equivalent.txt without a line number, so that the
// list survives edits elsewhere in the file.
func (s site) key() string {
	return strings.Join([]string{s.file, s.fn, oneLine(s.orig), s.repl}, "|")
}

// name is key, with "#n" when the function holds the same change more than
// once (two "x > 0" in one function): equivalent.txt can name one of them
// without the other.
func (s site) name() string {
	if s.dup {
		return fmt.Sprintf("%s#%d", s.key(), s.occ)
	}
	return s.key()
}

// buildCtx is the build the mutants are tested in (CGO_ENABLED=0).
var buildCtx = func() build.Context {
	c := build.Default
	c.CgoEnabled = false
	return c
}()

var swaps = map[token.Token][]token.Token{
	token.EQL:  {token.NEQ},
	token.NEQ:  {token.EQL},
	token.LSS:  {token.LEQ, token.GEQ},
	token.LEQ:  {token.LSS, token.GTR},
	token.GTR:  {token.GEQ, token.LEQ},
	token.GEQ:  {token.GTR, token.LSS},
	token.LAND: {token.LOR},
	token.LOR:  {token.LAND},
	token.ADD:  {token.SUB},
	token.SUB:  {token.ADD},
	token.MUL:  {token.QUO},
	token.QUO:  {token.MUL},
}

// noDrop are calls whose removal only deadlocks or leaks (a timeout that
// tells nothing about behaviour and costs a minute each).
var noDrop = map[string]bool{"Lock": true, "Unlock": true, "RLock": true, "RUnlock": true, "Wait": true, "Done": true, "Add": true}

// sites lists every mutation of the non-test Go files of dir, sorted.
func sites(root, dir string) ([]site, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []site
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		// Only files this GOOS builds: a mutant in proc_windows.go would
		// "survive" a Linux run that never compiles it.
		if ok, err := buildCtx.MatchFile(filepath.Dir(path), filepath.Base(path)); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", path, err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		add := func(fn string, from, to token.Pos, repl, kind string) {
			p := fset.Position(from)
			s, e := p.Offset, fset.Position(to).Offset
			out = append(out, site{file: rel, fn: fn, line: p.Line, col: p.Column, start: s, end: e,
				orig: string(src[s:e]), repl: repl, kind: kind})
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				fn = recvName(fd.Recv.List[0].Type) + "." + fn
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					for _, to := range swaps[n.Op] {
						if (n.Op == token.ADD || n.Op == token.SUB) && (isString(n.X) || isString(n.Y)) {
							continue
						}
						add(fn, n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), to.String(), "operator")
					}
				case *ast.UnaryExpr:
					if n.Op == token.NOT {
						add(fn, n.OpPos, n.OpPos+1, "", "negation removed")
					}
				case *ast.IncDecStmt:
					to := token.DEC
					if n.Tok == token.DEC {
						to = token.INC
					}
					add(fn, n.TokPos, n.TokPos+2, to.String(), "operator")
				case *ast.Ident:
					if n.Name == "true" {
						add(fn, n.Pos(), n.End(), "false", "boolean")
					} else if n.Name == "false" {
						add(fn, n.Pos(), n.End(), "true", "boolean")
					}
				case *ast.IfStmt:
					add(fn, n.Cond.Pos(), n.Cond.End(), "false", "condition disabled")
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE && len(n.Lhs) == 1 && !isBlank(n.Lhs[0]) {
						add(fn, n.Pos(), n.End(), "{}", "statement dropped")
					}
				case *ast.ExprStmt:
					if c, ok := n.X.(*ast.CallExpr); ok && !noDrop[callName(c)] && !isPanic(c) && !isLog(c) {
						add(fn, n.Pos(), n.End(), "{}", "statement dropped")
					}
				case *ast.FuncLit:
					// closures count toward the enclosing function
				}
				return true
			})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].repl < out[j].repl
	})
	seen := map[string]int{}
	for i := range out {
		seen[out[i].key()]++
		out[i].occ = seen[out[i].key()]
	}
	for i := range out {
		out[i].dup = seen[out[i].key()] > 1
	}
	return out, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	}
	return "?"
}

func isString(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && (l.Kind == token.STRING || l.Kind == token.CHAR)
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func isPanic(c *ast.CallExpr) bool { return callName(c) == "panic" }

// isLog is a zerolog chain (….Msg(…), ….Msgf(…), ….Send()): dropping a log
// line changes nothing a test of behaviour can see.
func isLog(c *ast.CallExpr) bool {
	switch callName(c) {
	case "Msg", "Msgf", "Send", "Printf", "Println":
		return true
	}
	return false
}

type outcome int

const (
	killed outcome = iota
	survived
	timedOut
	notBuilt
)

// run tests pkg with s applied through an overlay.
func run(ctx context.Context, root, tmp string, s site, timeout time.Duration) (outcome, error) {
	src, err := os.ReadFile(filepath.Join(root, s.file))
	if err != nil {
		return 0, err
	}
	mutated := append(append(append([]byte{}, src[:s.start]...), s.repl...), src[s.end:]...)
	mfile := filepath.Join(tmp, "mutant.go")
	if err := os.WriteFile(mfile, mutated, 0o600); err != nil {
		return 0, err
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, s.file): mfile}})
	ovfile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovfile, ov, 0o600); err != nil {
		return 0, err
	}
	return goTest(ctx, root, "./"+filepath.Dir(s.file), timeout, "-overlay="+ovfile)
}

func goTest(ctx context.Context, root, pkg string, timeout time.Duration, extra ...string) (outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	args := append([]string{"-n", "19", "go", "test", "-count=1", "-failfast", "-timeout", timeout.String()}, extra...)
	cmd := exec.CommandContext(ctx, "nice", append(args, pkg)...)
	cmd.Dir = root
	// A missing prerequisite (the pinned Bun of the first-run install
	// tests) fails the unmutated run instead of skipping tests and letting
	// their mutants survive.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "CDXTHEME_REQUIRE_PEERS=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	text := out.String()
	switch {
	case err == nil:
		return survived, nil
	case strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]"):
		return notBuilt, nil
	case strings.Contains(text, "panic: test timed out") || ctx.Err() != nil:
		return timedOut, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return killed, nil
	}
	return 0, fmt.Errorf("go test %s: %w\n%s", pkg, err, text)
}

// equivalents reads equivalent.txt: key|reason a line, # comments. A key's
// tokens may hold '|' themselves (the mutant "&&" → "||"), so a line is not
// split: it names the mutant whose key, followed by '|', begins it.
type equivalents []string

func readEquivalents(path string) (equivalents, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines equivalents
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Count(line, "|") < 4 {
			return nil, fmt.Errorf("%s: want file|func|before|after|reason: %q", path, line)
		}
		lines = append(lines, line)
	}
	return lines, sc.Err()
}

// reason is why mutant s is equivalent, if it is listed: by its name
// (key#n), or by its key alone when the function has no other site with
// that key (a bare key never covers several mutants, some perhaps not
// equivalent).
func (e equivalents) reason(s site) (string, bool) {
	prefix := s.name() + "|"
	for _, line := range e {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return rest, true
		}
	}
	return "", false
}

// unmatched are the lines of e that name no mutant of pkgs.
func unmatched(root string, pkgs []string, e equivalents) ([]string, error) {
	used := map[string]bool{}
	for _, pkg := range pkgs {
		all, err := sites(root, strings.TrimSuffix(strings.TrimPrefix(pkg, "./"), "/"))
		if err != nil {
			return nil, err
		}
		for _, s := range all {
			for _, line := range e {
				if strings.HasPrefix(line, s.name()+"|") {
					used[line] = true
				}
			}
		}
	}
	var out []string
	for _, line := range e {
		file, _, _ := strings.Cut(line, "|")
		if !used[line] && slices.Contains(pkgs, filepath.ToSlash(filepath.Dir(file))) {
			out = append(out, line)
		}
	}
	return out, nil
}

type tally struct {
	pkg                                  string
	sites, killed, survived, timed, skip int
	equiv                                int
	took                                 time.Duration
	exhausted                            bool
}

func (t tally) rate() float64 {
	n := t.killed + t.timed + t.survived
	if n == 0 {
		return 0
	}
	return 100 * float64(t.killed+t.timed) / float64(n)
}

func main() {
	n := flag.Int("n", 20, "mutants tested per package (sampled)")
	seed := flag.Int64("seed", 25, "seed of the sample, fixed so that figures compare")
	timeout := flag.Duration("timeout", 60*time.Second, "go test -timeout for one mutant")
	budget := flag.Duration("budget", 6*time.Minute, "time one package may take")
	equivFile := flag.String("equivalent", "internal/tools/mutate/equivalent.txt", "equivalent mutants")
	list := flag.Bool("list", false, "print the sampled mutants without running them")
	match := flag.String("match", "", "only mutants whose description matches this regexp (to check a test against them; the figures are of the whole sample)")
	check := flag.Bool("check-equivalent", false, "report each line of equivalent.txt that names no mutant (stale, or a key that needs #n)")
	flag.Parse()
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"core/acp", "core/chat", "core/agent", "core/codexhome", "core/theme", "core/search", "app"}
	}
	root, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	equiv, err := readEquivalents(filepath.Join(root, *equivFile))
	if err != nil {
		fail(err)
	}
	if *check {
		stale, err := unmatched(root, pkgs, equiv)
		if err != nil {
			fail(err)
		}
		for _, line := range stale {
			fmt.Println("names no mutant:", line)
		}
		if len(stale) > 0 {
			os.Exit(1)
		}
		return
	}
	tmp, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	ctx := context.Background()
	var tallies []tally
	for _, pkg := range pkgs {
		pkg = strings.TrimSuffix(strings.TrimPrefix(pkg, "./"), "/")
		all, err := sites(root, pkg)
		if err != nil {
			fail(err)
		}
		if *match != "" {
			re, err := regexp.Compile(*match)
			if err != nil {
				fail(err)
			}
			all = slices.DeleteFunc(all, func(s site) bool { return !re.MatchString(s.String()) })
		}
		t := tally{pkg: pkg, sites: len(all)}
		r := rand.New(rand.NewSource(*seed))
		order := r.Perm(len(all))
		if *list {
			for _, i := range order[:min(*n, len(order))] {
				fmt.Printf("%s  [%s]\n", all[i], all[i].name())
			}
			continue
		}
		if o, err := goTest(ctx, root, "./"+pkg, *timeout); err != nil || o != survived {
			fail(fmt.Errorf("%s: its tests do not pass unmutated (%v); fix that first", pkg, err))
		}
		start := time.Now()
		tested := 0
		var survivors []string
		for _, i := range order {
			if tested >= *n {
				break
			}
			if time.Since(start) > *budget {
				t.exhausted = true
				break
			}
			s := all[i]
			if reason, ok := equiv.reason(s); ok {
				t.equiv++
				fmt.Printf("  equivalent %s (%s)\n", s, reason)
				continue
			}
			o, err := run(ctx, root, tmp, s, *timeout)
			if err != nil {
				fail(err)
			}
			switch o {
			case notBuilt:
				t.skip++
				continue
			case killed:
				t.killed++
			case timedOut:
				t.timed++
			case survived:
				t.survived++
				survivors = append(survivors, s.String())
				fmt.Printf("  survived %s  [%s]\n", s, s.name())
			}
			tested++
		}
		t.took = time.Since(start).Round(time.Second)
		fmt.Printf("%s: %d of %d killed (%.0f %%), %d survived, %d equivalent, %d not compiled, %s\n",
			pkg, t.killed+t.timed, t.killed+t.timed+t.survived, t.rate(), t.survived, t.equiv, t.skip, t.took)
		tallies = append(tallies, t)
	}
	if *list {
		return
	}
	fmt.Printf("\nmutation kill rate (seed %d, %d mutants a package)\n", *seed, *n)
	fmt.Printf("%-16s %6s %7s %8s %6s %6s\n", "package", "sites", "tested", "killed", "rate", "time")
	for _, t := range tallies {
		note := ""
		if t.exhausted {
			note = " (budget spent)"
		}
		fmt.Printf("%-16s %6d %7d %8d %5.0f%% %6s%s\n", t.pkg, t.sites, t.killed+t.timed+t.survived, t.killed+t.timed, t.rate(), t.took, note)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(1)
}
