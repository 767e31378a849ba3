//go:build unix

// Package history measures reading the Codex history on generated data
// sets made of real rollouts: listing sessions, reading a transcript
// (codexhome) and the search index over them (search).
package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/fixtures"
)

// Real rollouts (internal/testrig/fixtures) the large data sets are made of: one
// written by codex 0.137, one by 0.166.
var (
	rollout137 = fixtures.Read(fixtures.RolloutOld)
	rollout166 = fixtures.Read(fixtures.RolloutNew)
)

// Session ids inside those samples.
const (
	id137 = fixtures.SessionOld
	id166 = fixtures.SessionNew
)

// writeSessions writes n rollouts (the 0.137 sample, each with its own id)
// spread over month/day folders under home/sessions, plus a
// session_index.jsonl naming every tenth, like core/codexhome's benchmark.
func writeSessions(home string, n int) error {
	var index bytes.Buffer
	made := map[string]bool{}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("01a23612-9865-7550-b5c4-%012d", i)
		day := filepath.Join(home, "sessions", "2026", fmt.Sprintf("%02d", 1+i/1000%12), fmt.Sprintf("%02d", 1+i%28))
		if !made[day] {
			if err := os.MkdirAll(day, 0o755); err != nil {
				return fmt.Errorf("generate sessions: %w", err)
			}
			made[day] = true
		}
		data := bytes.ReplaceAll(rollout137, []byte(id137), []byte(id))
		if err := os.WriteFile(filepath.Join(day, "rollout-2026-12-02T09-25-18-"+id+".jsonl"), data, 0o644); err != nil {
			return fmt.Errorf("generate sessions: %w", err)
		}
		if i%10 == 0 {
			fmt.Fprintf(&index, `{"id":"%s","thread_name":"Theme %d","updated_at":"2026-12-02T10:00:00Z"}`+"\n", id, i)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "session_index.jsonl"), index.Bytes(), 0o644); err != nil {
		return fmt.Errorf("generate sessions: %w", err)
	}
	return nil
}

// bigRolloutLines splits the 0.166 sample into its head (session meta and
// first turn) and its second turn (user, shell call, output, answer,
// bookkeeping), which a big rollout repeats.
const bigHeadLines, bigTurnEnd = 14, 29

// writeBigRollout writes a rollout of at least size bytes into dir and
// returns its path.
func writeBigRollout(dir string, size int) (string, error) {
	lines := strings.SplitAfter(string(rollout166), "\n")
	if len(lines) < bigTurnEnd {
		return "", fmt.Errorf("generate rollout: the sample has %d lines, want %d", len(lines), bigTurnEnd)
	}
	head := strings.Join(lines[:bigHeadLines], "")
	turn := strings.Join(lines[bigHeadLines:bigTurnEnd], "")
	var buf bytes.Buffer
	buf.Grow(size + len(turn))
	buf.WriteString(head)
	for i := 0; buf.Len() < size; i++ {
		t := strings.ReplaceAll(turn, "call_mock_3", fmt.Sprintf("call_%d", i))
		buf.WriteString(strings.ReplaceAll(t, "now run it", fmt.Sprintf("now run it #%d", i)))
	}
	path := filepath.Join(dir, "rollout-2026-12-02T09-21-23-"+id166+".jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("generate rollout: %w", err)
	}
	return path, nil
}

// Sizes of the generated data sets.
const (
	manySessions = 10000
	bigRollout   = 100 << 20
	firstPage    = 50
	homePage     = 50 // frontend/src/lib/stores/sessions.svelte.ts pageSize
)

// timeRuns runs f n times and returns each run's duration; the first
// error stops it.
func timeRuns(n int, f func() error) ([]time.Duration, error) {
	var runs []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		runs = append(runs, time.Since(start))
	}
	return runs, nil
}

// CodexHomeRows generates the data sets in a temp dir, times listing and
// transcript reading through core/codexhome, and removes the data.
func CodexHomeRows(ctx context.Context, n int, progress func(string)) []table.Row {
	const (
		whatCold  = "sessions: 10,000 on disk, Home's first 50, cold"
		whatWarm  = "sessions: 10,000 on disk, Home's first 50, warm"
		whatFirst = "transcript: 100 MB rollout, first page of 50"
		whatFull  = "transcript: 100 MB rollout, full parse"
	)
	fail := func(err error) []table.Row {
		return []table.Row{table.Failed(whatCold, "≤ 100 ms", err), table.Failed(whatWarm, "≤ 100 ms", err),
			table.Failed(whatFirst, "≤ 50 ms", err), table.Failed(whatFull, "-", err)}
	}
	root, err := os.MkdirTemp("", "cdxtheme-bench-codexhome-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(root)
	progress("generating 10,000 sessions and a 100 MB rollout")
	home := filepath.Join(root, "home")
	if err := writeSessions(home, manySessions); err != nil {
		return fail(err)
	}
	big, err := writeBigRollout(root, bigRollout)
	if err != nil {
		return fail(err)
	}
	fi, err := os.Stat(big)
	if err != nil {
		return fail(err)
	}
	h := codexhome.Home{Dir: home}
	// The call the app's Home makes (app.Sessions with the store's page size).
	list := func(l *codexhome.Lister) error {
		got, err := l.List(ctx, codexhome.ListOptions{Limit: homePage})
		if err == nil && len(got.Sessions) != homePage {
			err = fmt.Errorf("listed %d sessions, want %d (%v)", len(got.Sessions), homePage, got.Warnings)
		}
		return err
	}
	// One untimed listing so the OS page cache holds the files for every
	// run alike: "cold" is the app's first listing, not a cold disk.
	progress("listing sessions")
	if err := list(codexhome.NewLister(h)); err != nil {
		return fail(err)
	}
	var rows []table.Row
	cold, err := timeRuns(n, func() error { return list(codexhome.NewLister(h)) })
	rows = append(rows, rowOrFail(whatCold, "≤ 100 ms", cold, err, 100,
		"a new Lister, as at app start, with Limit 50 as the Home page asks; the OS page cache is warm (one untimed listing first). "+
			"it stats all 10,000 files and reads the heads of the newest 50 only; BenchmarkListCold10k above reads them all"))
	l := codexhome.NewLister(h)
	var warm []time.Duration
	if err = list(l); err == nil {
		warm, err = timeRuns(n, func() error { return list(l) })
	}
	rows = append(rows, rowOrFail(whatWarm, "≤ 100 ms", warm, err, 100,
		"re-listing with the Lister's cache (filled by an untimed listing): stats every file, parses none"))

	progress("reading the 100 MB rollout")
	page, err := timeRuns(n, func() error {
		pg, err := codexhome.ReadRolloutPage(ctx, big, 0, firstPage)
		if err == nil && len(pg.Messages) != firstPage {
			err = fmt.Errorf("first page has %d messages, want %d", len(pg.Messages), firstPage)
		}
		return err
	})
	rows = append(rows, rowOrFail(whatFirst, "≤ 50 ms", page, err, 50,
		"offset 0 always starts from the file's head, remembered checkpoints or not"))
	var msgs int
	full, err := timeRuns(n, func() error {
		t, err := codexhome.ReadRollout(ctx, big)
		if err == nil && (len(t.Messages) < 1000 || t.Skipped != 0) {
			err = fmt.Errorf("full parse: %d messages, %d lines skipped", len(t.Messages), t.Skipped)
		}
		msgs = len(t.Messages)
		return err
	})
	r := rowOrFail(whatFull, "-", full, err, 0, "")
	if err == nil {
		sec := table.MedianFloat(r.A.Values) / 1000
		r.Note = fmt.Sprintf("%.0f MB, %d messages, %.0f MB/s", float64(fi.Size())/(1<<20), msgs, float64(fi.Size())/(1<<20)/sec)
	}
	return append(rows, r)
}

func rowOrFail(what, target string, runs []time.Duration, err error, limit float64, note string) table.Row {
	if err != nil {
		return table.Failed(what, target, err)
	}
	r := table.Against(what, table.NewMeasure("", runs), limit, target)
	r.Note = note
	return r
}
