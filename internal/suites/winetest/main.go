// Command winetest reads the test2json streams of Windows test binaries
// run under Wine (scripts/test-windows.sh) and prints one row per package:
// passed, failed, failed for a known Wine limit, skipped. A failure is a
// Wine limit only when scripts/wine/known-limits.txt names it (the test,
// and the output that shows the limit), so anything else, a new failure
// beside a known one included, fails the run (exit 1).
//
// usage: winetest -limits known-limits.txt RESULTS_DIR
//
// RESULTS_DIR holds PKG.json (test2json events) and PKG.exit (the test
// binary's exit status) per package, PKG being the import path with "/"
// turned into "_".
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	limitsPath := flag.String("limits", "scripts/wine/known-limits.txt", "the known Wine limits")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: winetest -limits FILE RESULTS_DIR")
		os.Exit(2)
	}
	limits, err := readLimits(*limitsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "winetest:", err)
		os.Exit(2)
	}
	ok, err := report(os.Stdout, flag.Arg(0), limits)
	if err != nil {
		fmt.Fprintln(os.Stderr, "winetest:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// limit is one row of known-limits.txt: the tests it covers (package and
// test name, * matching anything), what their output must show (a
// regexp every failing line of the test must match; "*" for a test that
// cannot work under Wine at all) and why it is Wine's and not Windows'.
type limit struct {
	pkg, test string
	output    *regexp.Regexp // nil: any output
	reason    string
	after     bool // "checks passed": the limit shows only after the test's own checks
	line      int
	used      int
}

func (l *limit) covers(pkg, test string) bool {
	return glob(l.pkg, pkg) && glob(l.test, test)
}

// glob matches s against p, where * stands for any run of characters
// (slashes included: package paths and subtest names hold them).
func glob(p, s string) bool {
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, ".*") + "$"
	ok, _ := regexp.MatchString(re, s)
	return ok
}

// readLimits parses "package | test | output regexp or * | reason" rows;
// blank lines and # comments are skipped.
func readLimits(file string) ([]*limit, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("known limits: %w", err)
	}
	var out []*limit
	for i, ln := range strings.Split(string(b), "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		f := strings.SplitN(ln, " | ", 5)
		if len(f) < 4 || (len(f) == 5 && strings.TrimSpace(f[4]) != "checks passed") {
			return nil, fmt.Errorf("%s:%d: want package | test | output | reason [| checks passed]", file, i+1)
		}
		l := &limit{pkg: strings.TrimSpace(f[0]), test: strings.TrimSpace(f[1]), reason: strings.TrimSpace(f[3]), line: i + 1, after: len(f) == 5}
		if o := strings.TrimSpace(f[2]); o != "*" {
			if l.output, err = regexp.Compile(o); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, i+1, err)
			}
		}
		if l.reason == "" {
			return nil, fmt.Errorf("%s:%d: a limit needs its reason", file, i+1)
		}
		out = append(out, l)
	}
	return out, nil
}

// event is one line of test2json.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type test struct {
	name   string
	action string // pass, fail, skip; "" when the binary died in it
	lines  []string
	// open: the last line came without its newline. test2json cuts a
	// line into events of at most 1 KiB; the rest follows in the next.
	open bool
}

type pkgResult struct {
	pkg             string
	passed, skipped int
	failed, wine    []string            // test names
	after           int                 // of wine: every check passed, only the aftermath failed
	output          map[string][]string // a failed test's own lines
	why             map[*limit][]string
	elapsed         float64
	exit            int
	finished        bool // the binary printed its own verdict
	crash           []string
}

// report prints the table and the Wine limits; ok is false when any
// package has a failure no limit explains.
func report(w io.Writer, dir string, limits []*limit) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return false, fmt.Errorf("no results in %s", dir)
	}
	sort.Strings(files)
	var results []*pkgResult
	for _, f := range files {
		r, err := readPackage(f, limits)
		if err != nil {
			return false, err
		}
		results = append(results, r)
	}
	ok := true
	var tp, ta, tf, tw, ts int
	fmt.Fprintf(w, "%-22s %-10s %5s %6s %5s %5s %5s %6s\n", "package", "result", "pass", "pass*", "wine", "fail", "skip", "time")
	for _, r := range results {
		verdict := "ok"
		switch {
		case len(r.failed) > 0 || !r.finished || (r.exit != 0 && len(r.wine) == 0):
			verdict, ok = "FAIL", false
		case len(r.wine) > 0:
			verdict = "ok (wine)"
		}
		fmt.Fprintf(w, "%-22s %-10s %5d %6d %5d %5d %5d %5.0fs\n", strings.TrimPrefix(r.pkg, "cdxtheme/"), verdict, r.passed, r.after, len(r.wine)-r.after, len(r.failed), r.skipped, r.elapsed)
		tp, ta, tf, tw, ts = tp+r.passed, ta+r.after, tf+len(r.failed), tw+len(r.wine)-r.after, ts+r.skipped
	}
	fmt.Fprintf(w, "%-22s %-10s %5d %6d %5d %5d %5d\n", "total", map[bool]string{true: "ok", false: "FAIL"}[ok], tp, ta, tw, tf, ts)
	fmt.Fprintf(w, "pass*: every check passed, then a known Wine limit failed what runs after them (t.TempDir's cleanup)\n")
	fmt.Fprintf(w, "wine: a check met a known Wine limit (listed below); fail: anything else\n")

	// The failures with their output, then the known limits apart.
	for _, r := range results {
		if !r.finished {
			fmt.Fprintf(w, "\n%s: the test binary ended without a verdict (exit %d; crashed or timed out):\n", r.pkg, r.exit)
			for _, ln := range tail(r.crash, 30) {
				fmt.Fprintf(w, "    %s\n", ln)
			}
		}
		for _, name := range r.failed {
			fmt.Fprintf(w, "\nFAIL %s %s\n", r.pkg, name)
			for _, ln := range tail(r.output[name], 8) {
				fmt.Fprintf(w, "    %s\n", strings.TrimSpace(ln))
			}
		}
	}
	var used []*limit
	for _, l := range limits {
		if l.used > 0 {
			used = append(used, l)
		}
	}
	if len(used) > 0 {
		fmt.Fprintf(w, "\nKnown Wine limits (failures under Wine that are not Windows bugs; scripts/wine/known-limits.txt):\n")
		for _, r := range results {
			var ls []*limit
			for l := range r.why {
				ls = append(ls, l)
			}
			sort.Slice(ls, func(i, j int) bool { return ls[i].line < ls[j].line })
			for _, l := range ls {
				names := r.why[l]
				sort.Strings(names)
				fmt.Fprintf(w, "  %s: %d test(s), line %d: %s\n    %s\n", strings.TrimPrefix(r.pkg, "cdxtheme/"), len(names), l.line, l.reason, strings.Join(names, ", "))
			}
		}
	}
	return ok, nil
}

func tail(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func readPackage(file string, limits []*limit) (*pkgResult, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	r := &pkgResult{why: map[*limit][]string{}, output: map[string][]string{}}
	base := strings.TrimSuffix(file, ".json")
	if b, err := os.ReadFile(base + ".exit"); err == nil {
		r.exit, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("results: %w", err)
	}
	if b, err := os.ReadFile(base + ".secs"); err == nil {
		r.elapsed, _ = strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	}
	tests := map[string]*test{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// The binary's own non-test2json output (a runtime crash).
			r.crash = append(r.crash, sc.Text())
			continue
		}
		if r.pkg == "" {
			r.pkg = e.Package
		}
		if e.Test == "" {
			switch e.Action {
			case "pass", "fail", "skip":
				r.finished = true
			case "output":
				r.crash = append(r.crash, strings.TrimRight(e.Output, "\n"))
			}
			continue
		}
		t := tests[e.Test]
		if t == nil {
			t = &test{name: e.Test}
			tests[e.Test] = t
			order = append(order, e.Test)
		}
		switch e.Action {
		case "output":
			if t.open {
				t.lines[len(t.lines)-1] += strings.TrimRight(e.Output, "\n")
			} else {
				t.lines = append(t.lines, strings.TrimRight(e.Output, "\n"))
			}
			t.open = !strings.HasSuffix(e.Output, "\n")
		case "pass", "fail", "skip":
			t.action = e.Action
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("results %s: %w", file, err)
	}
	if r.pkg == "" {
		r.pkg = strings.ReplaceAll(filepath.Base(base), "_", "/")
	}
	// A test is explained when its own failing lines are, and so is every
	// failing subtest at any depth (t.Run("a/b") makes no test "a"); a
	// subtest counts once, a parent only for itself.
	explained := map[string]*limit{}
	var explain func(t *test) (*limit, bool)
	explain = func(t *test) (*limit, bool) {
		if l, done := explained[t.name]; done {
			return l, l != nil
		}
		var found *limit
		for _, name := range order {
			c := tests[name]
			if strings.HasPrefix(name, t.name+"/") && c.action != "pass" && c.action != "skip" {
				l, ok := explain(c)
				if !ok {
					explained[t.name] = nil
					return nil, false
				}
				found = l
			}
		}
		l := matchLimit(r.pkg, t, limits)
		if l == nil && !onlyFraming(t.lines) {
			explained[t.name] = nil
			return nil, false
		}
		if l == nil {
			l = found
		}
		explained[t.name] = l
		return l, l != nil
	}
	for _, name := range order {
		t := tests[name]
		switch t.action {
		case "pass":
			r.passed++
		case "skip":
			r.skipped++
		default:
			l, ok := explain(t)
			hasFailingChild := false
			for _, other := range order {
				if strings.HasPrefix(other, name+"/") && tests[other].action != "pass" && tests[other].action != "skip" {
					hasFailingChild = true
				}
			}
			if hasFailingChild && ok {
				continue // counted through its subtests
			}
			if ok {
				r.wine = append(r.wine, name)
				if l.after {
					r.after++
				}
				r.why[l] = append(r.why[l], name)
				l.used++
			} else {
				r.failed = append(r.failed, name)
				r.output[name] = ownLines(r.pkg, t, limits)
			}
		}
	}
	return r, nil
}

// ownLines is what a failed test printed that no limit explains.
func ownLines(pkg string, t *test, limits []*limit) []string {
	var out []string
	for _, ln := range t.lines {
		if strings.TrimSpace(ln) == "" || framing.MatchString(ln) {
			continue
		}
		known := false
		for _, l := range limits {
			if l.output != nil && l.covers(pkg, t.name) && l.output.MatchString(ln) {
				known = true
				break
			}
		}
		if !known {
			out = append(out, ln)
		}
	}
	return out
}

// framing is what the testing package itself prints around a test.
var framing = regexp.MustCompile(`^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (FAIL|PASS|SKIP))\b`)

func onlyFraming(lines []string) bool {
	for _, ln := range lines {
		if strings.TrimSpace(ln) != "" && !framing.MatchString(ln) {
			return false
		}
	}
	return true
}

// matchLimit is the limit that explains t's own output: a "*" limit
// naming it, or else limits whose regexps between them match every line of
// it (a test's own limit and the cleanup one beside it); the one given is
// the most specific of those.
func matchLimit(pkg string, t *test, limits []*limit) *limit {
	var lines []string
	for _, ln := range t.lines {
		if strings.TrimSpace(ln) != "" && !framing.MatchString(ln) {
			lines = append(lines, ln)
		}
	}
	var covering []*limit
	for _, l := range limits {
		if l.covers(pkg, t.name) {
			if l.output == nil {
				return l
			}
			covering = append(covering, l)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	var best *limit
	for _, ln := range lines {
		var hit *limit
		for _, l := range covering {
			if l.output.MatchString(ln) {
				hit = l
				break
			}
		}
		if hit == nil {
			return nil
		}
		if best == nil || (best.test == "*" && hit.test != "*") {
			best = hit
		}
	}
	return best
}
