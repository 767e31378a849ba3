package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cleanup = `    testing.go:1464: TempDir RemoveAll cleanup: unlinkat C:\users\u\Temp\T\001\x: Invalid function.`

// results writes one package's test2json stream: each test is a name,
// its verdict and the lines it printed.
func results(t *testing.T, dir, pkg string, exit int, tests ...[3]string) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, tc := range tests {
		name, action, out := tc[0], tc[1], tc[2]
		enc.Encode(event{Action: "run", Package: pkg, Test: name})
		enc.Encode(event{Action: "output", Package: pkg, Test: name, Output: "=== RUN   " + name + "\n"})
		for _, ln := range strings.Split(out, "\n") {
			if ln != "" {
				enc.Encode(event{Action: "output", Package: pkg, Test: name, Output: ln + "\n"})
			}
		}
		enc.Encode(event{Action: "output", Package: pkg, Test: name, Output: "--- " + strings.ToUpper(action) + ": " + name + " (0.00s)\n"})
		enc.Encode(event{Action: action, Package: pkg, Test: name})
	}
	verdict := "pass"
	if exit != 0 {
		verdict = "fail"
	}
	enc.Encode(event{Action: verdict, Package: pkg})
	key := strings.ReplaceAll(pkg, "/", "_")
	if err := os.WriteFile(filepath.Join(dir, key+".json"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, key+".exit"), []byte{byte('0' + exit)}, 0o644); err != nil {
		t.Fatal(err)
	}
}

func limitsFile(t *testing.T, rows string) []*limit {
	t.Helper()
	p := filepath.Join(t.TempDir(), "limits.txt")
	if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := readLimits(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const rows = `# comment
* | * | ^\s*testing\.go:\d+: TempDir RemoveAll cleanup: unlinkat .*: Invalid function\.$ | cleanup | checks passed
cdxtheme/core/a | TestLink* | ^\s*a_test\.go:\d+: symlink .*: no link$ | no symlinks
cdxtheme/core/a | TestHopeless | * | cannot work
`

// A failure is Wine's only when every line it printed is a listed limit's
// (the cleanup, a test's own limit, or both); a real failure beside a
// known one, or in a package no row names, fails the run.
func TestReportTellsWineLimitsFromFailures(t *testing.T) {
	limits := limitsFile(t, rows)
	dir := t.TempDir()
	results(t, dir, "cdxtheme/core/a", 1,
		[3]string{"TestOK", "pass", ""},
		[3]string{"TestCleanupOnly", "fail", cleanup},
		[3]string{"TestLinkAndCleanup", "fail", "    a_test.go:9: symlink C:\\x: no link\n" + cleanup},
		[3]string{"TestLinkThenReal", "fail", "    a_test.go:9: symlink C:\\x: no link\n    a_test.go:12: got 1, want 2"},
		[3]string{"TestHopeless", "fail", "anything at all"},
		[3]string{"TestSkipped", "skip", "    a_test.go:3: no sh"},
		[3]string{"TestSub/a/b", "fail", cleanup},
		[3]string{"TestSub", "fail", ""},
	)
	results(t, dir, "cdxtheme/core/b", 1,
		[3]string{"TestLinkX", "fail", "    a_test.go:9: symlink C:\\x: no link"}, // the row names package a only
	)
	var out bytes.Buffer
	ok, err := report(&out, dir, limits)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Fatalf("report says ok with real failures:\n%s", out.String())
	}
	s := out.String()
	for _, want := range []string{
		// pass, pass* (checks passed, cleanup failed), wine, fail, skip
		fmt.Sprintf("%-22s %-10s %5d %6d %5d %5d %5d", "core/a", "FAIL", 1, 2, 2, 1, 1),
		fmt.Sprintf("%-22s %-10s %5d %6d %5d %5d %5d", "core/b", "FAIL", 0, 0, 0, 1, 0),
		"FAIL cdxtheme/core/a TestLinkThenReal\n    a_test.go:12: got 1, want 2\n",
		"FAIL cdxtheme/core/b TestLinkX",
		"TestLinkAndCleanup",
		"cannot work",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"FAIL cdxtheme/core/a TestCleanupOnly", "FAIL cdxtheme/core/a TestSub", "FAIL cdxtheme/core/a TestHopeless", "a_test.go:9: symlink C:\\x: no link\n    a_test.go:12"} {
		if strings.Contains(s, not) {
			t.Errorf("report holds %q:\n%s", not, s)
		}
	}
}

// Only known limits: the run passes, the package reads "ok (wine)"; a
// binary that died without its verdict fails whatever its tests said.
func TestReportPassesOnKnownLimitsOnly(t *testing.T) {
	limits := limitsFile(t, rows)
	dir := t.TempDir()
	results(t, dir, "cdxtheme/core/a", 1, [3]string{"TestOK", "pass", ""}, [3]string{"TestCleanupOnly", "fail", cleanup})
	var out bytes.Buffer
	if ok, err := report(&out, dir, limits); err != nil || !ok || !strings.Contains(out.String(), "ok (wine)") {
		t.Fatalf("ok %v, %v:\n%s", ok, err, out.String())
	}
	// The same package, its stream cut off in a test (a crash, a timeout).
	key := filepath.Join(dir, "cdxtheme_core_a.json")
	b, _ := os.ReadFile(key)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(key, []byte(strings.Join(lines[:len(lines)-3], "")+"panic: boom\n"), 0o644)
	out.Reset()
	if ok, _ := report(&out, dir, limits); ok || !strings.Contains(out.String(), "ended without a verdict") || !strings.Contains(out.String(), "panic: boom") {
		t.Fatalf("a crashed binary passed:\n%s", out.String())
	}
}

func TestReadLimitsRefusesBadRows(t *testing.T) {
	for _, row := range []string{"* | * | x", "* | * | ( | reason", "* | * | x | ", "* | * | x | reason | maybe"} {
		p := filepath.Join(t.TempDir(), "l.txt")
		os.WriteFile(p, []byte(row+"\n"), 0o644)
		if _, err := readLimits(p); err == nil {
			t.Errorf("row %q was taken", row)
		}
	}
}

// test2json cuts a line longer than 1 KiB into several output events: the
// line is matched whole, so a row for a test's long log line covers it.
func TestALongLineCutByTest2jsonIsOneLine(t *testing.T) {
	limits := limitsFile(t, rows+"cdxtheme/core/a | TestLong | ^\\s*a_test\\.go:\\d+: note x+$ | its own log | checks passed\n")
	dir := t.TempDir()
	line := "    a_test.go:5: note " + strings.Repeat("x", 2000) + "\n"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	out := func(s string) {
		enc.Encode(event{Action: "output", Package: "cdxtheme/core/a", Test: "TestLong", Output: s})
	}
	out("=== RUN   TestLong\n")
	out(line[:1024])
	out(line[1024:])
	out(cleanup + "\n")
	out("--- FAIL: TestLong (0.00s)\n")
	enc.Encode(event{Action: "fail", Package: "cdxtheme/core/a", Test: "TestLong"})
	enc.Encode(event{Action: "fail", Package: "cdxtheme/core/a"})
	os.WriteFile(filepath.Join(dir, "cdxtheme_core_a.json"), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "cdxtheme_core_a.exit"), []byte("1"), 0o644)
	var rep bytes.Buffer
	if ok, err := report(&rep, dir, limits); err != nil || !ok {
		t.Fatalf("the long line's pieces were matched apart (ok %v, %v):\n%s", ok, err, rep.String())
	}
}
