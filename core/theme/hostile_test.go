package theme

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// within runs f and fails the test when it has not returned by the
// deadline: a guard against a hang, far above what the input needs (the
// unguarded code takes hours), so it never races a slow machine.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %s", what, d)
	}
}

// A 7.7 KB theme.json whose 40 derived roles each read the four before it
// hung the app: the rule graph was walked without remembering a role, once
// in the cycle check and once per colour lookup (issue #36).
func TestDeriveChainLoadsAndPaintsEveryRole(t *testing.T) {
	data, err := os.ReadFile("testdata/hostile/derive-chain.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	var th *Theme
	var got map[string]string
	within(t, 20*time.Second, "loading the 40-rule chain", func() {
		th, err = Parse(data)
		if err == nil {
			got = th.Resolved()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Rules) != 40 {
		t.Fatalf("want the document's 40 rules, got %d", len(th.Rules))
	}
	// Each rule's colour computed in document order from colours already
	// known: what the memoised resolver must agree with.
	want := map[string]Color{}
	var get func(string) Color
	get = func(p string) Color {
		if c, ok := want[p]; ok {
			return c
		}
		if th.Has(p) {
			return th.Color(p) // set by the document: no rule involved
		}
		t.Fatalf("%s read before it was computed", p)
		return Color{}
	}
	var order []string
	for _, p := range RolePaths() {
		if _, ok := th.Rules[p]; ok {
			order = append(order, p)
		}
	}
	for len(want) < len(order) {
		progressed := false
		for _, p := range order {
			if _, ok := want[p]; ok {
				continue
			}
			r := th.Rules[p]
			ready := true
			for _, in := range r.Inputs() {
				if _, ok := want[in]; !ok && !th.Has(in) {
					if _, derived := th.Rules[in]; derived {
						ready = false
					}
				}
			}
			if ready {
				want[p] = r.apply(func(q string) Color {
					if _, derived := th.Rules[q]; derived || th.Has(q) {
						return get(q)
					}
					return th.Color(q)
				}, th.seen)
				progressed = true
			}
		}
		if !progressed {
			t.Fatal("the chain's rules never became ready")
		}
	}
	for p, c := range want {
		if got[p] != c.String() {
			t.Errorf("%s: painted %s, the rule gives %s", p, got[p], c)
		}
	}
	// The end of the chain is a real colour, not the zero colour a depth
	// cap gave.
	last := order[len(order)-1]
	if got[last] == (Color{}).String() {
		t.Errorf("%s is the zero colour", last)
	}
}

// A loop built in code (Parse refuses one) paints the zero colour instead
// of recursing for ever.
func TestLoopBuiltInCodeEnds(t *testing.T) {
	th := Example()
	th.Rules = map[string]Rule{
		"editor.lineHighlight": {From: "editor.indentGuide"},
		"editor.indentGuide":   {From: "editor.lineHighlight"},
	}
	delete(th.Roles, "editor.lineHighlight")
	delete(th.Roles, "editor.indentGuide")
	if c := th.Color("editor.lineHighlight"); c != (Color{}) {
		t.Errorf("a loop painted %s", c)
	}
	if cyc := th.cycle("editor.lineHighlight"); len(cyc) != 3 || cyc[0] != cyc[2] {
		t.Errorf("cycle: %v", cyc)
	}
}

// A document of 80,000 unknown keys lists its first unknown fields and counts
// the rest: naming each with a "did you mean" search cost a second of Home's
// listing per such build (issue #36).
func TestProblemsAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name":"x","appearance":"dark","ui":{},"syntax":{},"ansi":[]`)
	for i := range 80000 {
		fmt.Fprintf(&b, `,"unknownKey%d":1`, i)
	}
	b.WriteString("}")
	probs := Validate([]byte(b.String()))
	if len(probs) > maxProblems+1 {
		t.Fatalf("%d problems listed", len(probs))
	}
	last := probs[len(probs)-1]
	if !strings.HasPrefix(last.Message, "… and ") || !strings.HasSuffix(last.Message, " more problems") {
		t.Errorf("the last problem does not count the rest: %q", last.Message)
	}
	// The flood hides no problem that matters.
	found := false
	for _, p := range probs {
		found = found || p.String() == "ui.background: required"
	}
	if !found {
		t.Errorf("the missing ui.background is not among %v", probs)
	}
}
