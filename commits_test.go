package main

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// subjectsSince is when the rule below took effect (issue #42); older
// commits are history and stay as they were written.
const subjectsSince = "2026-12-07T15:15:00Z"

// mergedTooLong are commits with longer subjects that reached main before
// this check did; main's history is never rewritten, so they stay.
var mergedTooLong = map[string]bool{"2d23e39": true, "d0d332e": true, "00b446f": true}

// TestCommitSubjects keeps new commit subjects to 72 characters, so
// `git log --oneline` and review tools show them whole; the why goes in
// the body. Merge commits are git's own wording and are left out.
func TestCommitSubjects(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	if err := exec.Command("git", "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout (a source archive)")
	}
	out, err := exec.Command("git", "log", "--no-merges", "--since="+subjectsSince, "--format=%h %s", "--abbrev=7").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		hash, subject, _ := strings.Cut(line, " ")
		if mergedTooLong[hash[:min(7, len(hash))]] {
			continue
		}
		if n := utf8.RuneCountInString(subject); n > 72 {
			t.Errorf("commit %s: subject is %d characters (at most 72; the why goes in the body): %q", hash, n, subject)
		}
	}
}
