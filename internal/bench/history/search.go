//go:build unix

package history

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/search"
	"cdxtheme/internal/bench/table"
)

// Search corpus: 10,000 sessions of ~100 KB each (~1 GB), the 0.166
// sample's head and its second turn repeated, with words that vary by
// session and turn so the index holds a realistic spread of terms.
const (
	searchSessions    = 10000
	searchSessionSize = 100 << 10
)

// vocabulary gives every turn a few words of its own.
var vocabulary = strings.Fields(`harbour lighthouse dusk amber teal coral slate fog mist tide kelp ember
	solar lunar aurora meadow forest desert glacier ocean violet crimson indigo olive ochre sepia
	pastel neon muted vivid contrast gradient accent border cursor selection comment keyword string
	number operator function variable constant terminal sidebar tab status gutter minimap tooltip`)

// writeSearchCorpus writes n rollouts of about size bytes under
// home/sessions and returns their total size.
func writeSearchCorpus(home string, n, size int) (int64, error) {
	lines := strings.SplitAfter(string(rollout166), "\n")
	if len(lines) < bigTurnEnd {
		return 0, fmt.Errorf("generate corpus: the sample has %d lines, want %d", len(lines), bigTurnEnd)
	}
	head := strings.Join(lines[:bigHeadLines], "")
	turn := strings.Join(lines[bigHeadLines:bigTurnEnd], "")
	var total int64
	var buf bytes.Buffer
	made := map[string]bool{}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("01a2360f-02d3-7551-b339-%012d", i)
		buf.Reset()
		buf.WriteString(strings.ReplaceAll(head, id166, id))
		for j := 0; buf.Len() < size; j++ {
			w1 := vocabulary[(i*7+j)%len(vocabulary)]
			w2 := vocabulary[(i*13+j*3+1)%len(vocabulary)]
			t := strings.ReplaceAll(turn, id166, id)
			t = strings.ReplaceAll(t, "call_mock_3", fmt.Sprintf("call_%d", j))
			buf.WriteString(strings.ReplaceAll(t, "now run it", fmt.Sprintf("now make the %s %s darker, session%05d turn %d", w1, w2, i, j)))
		}
		day := filepath.Join(home, "sessions", "2026", fmt.Sprintf("%02d", 1+i/1000%12), fmt.Sprintf("%02d", 1+i%28))
		if !made[day] {
			if err := os.MkdirAll(day, 0o755); err != nil {
				return 0, fmt.Errorf("generate corpus: %w", err)
			}
			made[day] = true
		}
		if err := os.WriteFile(filepath.Join(day, "rollout-2026-12-02T09-21-23-"+id+".jsonl"), buf.Bytes(), 0o644); err != nil {
			return 0, fmt.Errorf("generate corpus: %w", err)
		}
		total += int64(buf.Len())
	}
	return total, nil
}

// searchQueries are what a user types, from rare to common: one session's
// own word, a word in a tenth of the turns, a prefix, a phrase, two words.
var searchQueries = []string{"session04242", "lighthouse", "aur*", `"make the lighthouse"`, "amber darker", "hello"}

// SearchRows builds the index over the corpus, updates it after one new
// session, times queries and weighs the index.
func SearchRows(ctx context.Context, n int, progress func(string)) []table.Row {
	const (
		whatBuild  = "search index: first build, 10,000 sessions (~1 GB)"
		whatUpdate = "search index: update after one new session"
		whatP50    = "search: query over 10,000 sessions, p50"
		whatP99    = "search: query over 10,000 sessions, p99"
		whatFind   = "search: Home's search (list + index + 50 snippets), median"
		whatSize   = "search index: size on disk vs the rollouts"
	)
	fail := func(err error) []table.Row {
		return []table.Row{table.Failed(whatBuild, "-", err), table.Failed(whatUpdate, "≤ 200 ms", err), table.Failed(whatP50, "-", err),
			table.Failed(whatP99, "≤ 50 ms", err), table.Failed(whatFind, "-", err), table.Failed(whatSize, "-", err)}
	}
	root, err := os.MkdirTemp("", "cdxtheme-bench-search-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(root)
	os.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(root, "cache"))
	home := codexhome.Home{Dir: filepath.Join(root, "home")}
	progress("generating 10,000 sessions of ~100 KB for the search index")
	size, err := writeSearchCorpus(home.Dir, searchSessions, searchSessionSize)
	if err != nil {
		return fail(err)
	}
	ix, err := search.Open(ctx, search.Path(home), home)
	if err != nil {
		return fail(err)
	}
	defer ix.Close()

	progress(fmt.Sprintf("building the search index over %d MB", size>>20))
	start := time.Now()
	st, err := ix.Update(ctx, nil)
	build := time.Since(start)
	if err == nil && (st.Indexed != searchSessions || st.Failed != 0) {
		err = fmt.Errorf("first build: %+v", st)
	}
	if err != nil {
		return fail(err)
	}
	rows := []table.Row{table.Against(whatBuild, table.NewMeasure("", []time.Duration{build}), 0, "-")}
	rows[0].Note = fmt.Sprintf("1 run: %d MB of rollouts, %d messages indexed, %.0f MB/s; runs in the background, Home shows its progress",
		size>>20, st.Messages, float64(size)/(1<<20)/build.Seconds())

	progress("updating the index after one new session")
	day := filepath.Join(home.Dir, "sessions", "2026", "12", "30")
	if err := os.MkdirAll(day, 0o755); err != nil {
		return fail(err)
	}
	update, err := timeRuns(n, func() error {
		id := fmt.Sprintf("01a2360f-02d3-7551-b339-9%011d", time.Now().UnixNano()%1e11)
		data := bytes.ReplaceAll(rollout166, []byte(id166), []byte(id))
		if err := os.WriteFile(filepath.Join(day, "rollout-2026-12-30T09-21-23-"+id+".jsonl"), data, 0o644); err != nil {
			return err
		}
		st, err := ix.Update(ctx, nil)
		if err == nil && st.Indexed != 1 {
			err = fmt.Errorf("update read %d files, want 1", st.Indexed)
		}
		return err
	})
	rows = append(rows, rowOrFail(whatUpdate, "≤ 200 ms", update, err, 200,
		"a new rollout written, then Update: stats the 10,000 files, compares them with the index, reads the new one"))

	progress("timing queries")
	var lat []time.Duration
	hits := map[string]int{}
	for round := 0; round < 10*n; round++ {
		for _, q := range searchQueries {
			pq := search.ParseQuery(q)
			t0 := time.Now()
			found, err := ix.Search(ctx, pq)
			if err != nil {
				return fail(err)
			}
			// The page Home shows: snippets of the newest 50 hits.
			page := make([]search.Hit, 0, len(found))
			for _, h := range found {
				page = append(page, h)
			}
			sort.Slice(page, func(i, j int) bool { return page[i].Path > page[j].Path })
			for _, h := range page[:min(len(page), homePage)] {
				if _, _, err := ix.Snippet(ctx, pq, h); err != nil {
					return fail(err)
				}
			}
			lat = append(lat, time.Since(t0))
			hits[q] = len(found)
		}
	}
	if hits["session04242"] != 1 || hits["hello"] < searchSessions {
		return fail(fmt.Errorf("queries found %v", hits))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p50, p99 := table.Percentile(lat, 50), table.Percentile(lat, 99)
	var counts []string
	for _, q := range searchQueries {
		counts = append(counts, fmt.Sprintf("%s: %d", q, hits[q]))
	}
	note := fmt.Sprintf("%d queries (%s sessions matched), each the index search plus the snippets of the first 50 hits", len(lat), strings.Join(counts, ", "))
	rows = append(rows, table.Against(whatP50, table.NewMeasure("", []time.Duration{p50}), 0, "-"))
	rows[len(rows)-1].Note = note
	rows = append(rows, table.Against(whatP99, table.NewMeasure("", []time.Duration{p99}), 50, "≤ 50 ms"))

	l := codexhome.NewLister(home)
	if _, err := l.List(ctx, codexhome.ListOptions{}); err != nil { // the app's lister is warm
		return fail(err)
	}
	find, err := timeRuns(n, func() error {
		res, err := search.Find(ctx, l, ix, "lighthouse", codexhome.ListOptions{Limit: homePage})
		if err == nil && len(res.Sessions) != homePage {
			err = fmt.Errorf("found %d, want %d", len(res.Sessions), homePage)
		}
		return err
	})
	rows = append(rows, rowOrFail(whatFind, "-", find, err, 0,
		"what the app's Sessions binding does for a search: re-lists the 10,000 files (warm lister), queries the index, 50 snippets"))

	var ixSize int64
	filepath.WalkDir(filepath.Dir(ix.File()), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				ixSize += fi.Size()
			}
		}
		return nil
	})
	r := table.Row{What: whatSize, Kind: table.KindRatio, A: table.NewValues("index", "MB", []float64{mb(ixSize)}),
		B: table.NewValues("rollouts", "MB", []float64{mb(size)}), Ratio: round3(float64(ixSize) / float64(size)), Target: "-", Status: table.StatusInfo}
	r.Note = "the index holds only the user's and the assistant's words (with WAL); rollouts are mostly bookkeeping"
	return append(rows, r)
}

func mb(b int64) float64 { return math.Round(float64(b)/(1<<20)*10) / 10 }

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
