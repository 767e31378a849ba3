// Package faults is the fault matrix: tests that drive the real core
// (core/chat, core/agent, core/acp, core/codexhome, app) into the failures
// a user can meet (a missing, crashing, hanging or babbling agent; huge
// frames, floods and bursts; a missing, unreadable or damaged CODEX_HOME;
// hostile text) and check what the user would notice: a clear message, no
// crash, nothing lost, no agent process left behind, nothing written into
// CODEX_HOME. `make faults` runs it; TestMain ends the output with
// "N passed, N failed" counted over the matrix cases.
//
// The non-test files hold the instruments the cases use: a tally of case
// outcomes, a /proc scanner for leftover processes, a byte-exact snapshot
// of a folder, and a fast writer for very large files.
package faults

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Outcome is how one matrix case ended.
type Outcome int

// Outcomes of a case.
const (
	Passed Outcome = iota
	Failed
	Skipped
)

func (o Outcome) String() string {
	switch o {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Tally records the outcome of every matrix case. Safe for concurrent use.
type Tally struct {
	mu      sync.Mutex
	results map[string]Outcome
	reasons map[string]string
}

// Record stores the outcome of case name; a later record of the same name
// replaces the earlier one (a case is counted once). why is kept for skips.
func (t *Tally) Record(name string, o Outcome, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.results == nil {
		t.results = map[string]Outcome{}
		t.reasons = map[string]string{}
	}
	t.results[name] = o
	if why != "" {
		t.reasons[name] = why
	} else {
		delete(t.reasons, name)
	}
}

// Counts returns how many cases passed, failed and were skipped.
func (t *Tally) Counts() (passed, failed, skipped int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, o := range t.results {
		switch o {
		case Passed:
			passed++
		case Failed:
			failed++
		case Skipped:
			skipped++
		}
	}
	return passed, failed, skipped
}

// Names returns the cases with outcome o, sorted.
func (t *Tally) Names(o Outcome) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for n, r := range t.results {
		if r == o {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Report is the summary printed after the run: one line per failed and
// skipped case (with the skip reason), then the last line
// "N passed, N failed". Skipped cases count in neither number.
func (t *Tally) Report() string {
	var b strings.Builder
	for _, n := range t.Names(Failed) {
		fmt.Fprintf(&b, "FAILED  %s\n", n)
	}
	for _, n := range t.Names(Skipped) {
		t.mu.Lock()
		why := t.reasons[n]
		t.mu.Unlock()
		fmt.Fprintf(&b, "SKIPPED %s: %s\n", n, why)
	}
	p, f, _ := t.Counts()
	fmt.Fprintf(&b, "%d passed, %d failed\n", p, f)
	return b.String()
}
