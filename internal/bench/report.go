package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Measure is one timed path, run several times.
type Measure struct {
	Label  string          `json:"label"`
	Runs   []time.Duration `json:"-"`
	RunsMS []float64       `json:"runsMs"`
	Median float64         `json:"medianMs"`
}

func newMeasure(label string, runs []time.Duration) Measure {
	m := Measure{Label: label, Runs: runs}
	for _, r := range runs {
		m.RunsMS = append(m.RunsMS, ms(r))
	}
	m.Median = ms(median(runs))
	return m
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

// median of the runs (mean of the middle two for an even count); 0 for none.
func median(runs []time.Duration) time.Duration {
	if len(runs) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), runs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Row compares two measures: ratio = A/B against a ceiling (0 = no target,
// the row only informs).
type Row struct {
	What   string  `json:"what"`
	A      Measure `json:"a"`
	B      Measure `json:"b"`
	Ratio  float64 `json:"ratio"`
	Limit  float64 `json:"limit,omitempty"`
	Target string  `json:"target"`
	Status string  `json:"status"` // ok, miss, info, error
	Error  string  `json:"error,omitempty"`
}

func compare(what string, a, b Measure, limit float64, target string) Row {
	r := Row{What: what, A: a, B: b, Limit: limit, Target: target}
	switch {
	case a.Median <= 0 || b.Median <= 0:
		r.Status = "error"
		r.Error = "a measure has no runs"
	default:
		r.Ratio = a.Median / b.Median
		switch {
		case limit == 0:
			r.Status = "info"
		case r.Ratio <= limit:
			r.Status = "ok"
		default:
			r.Status = "miss"
		}
	}
	return r
}

// failed is a row for a comparison that could not be measured.
func failed(what, target string, err error) Row {
	return Row{What: what, Target: target, Status: "error", Error: err.Error()}
}

// Report is the JSON written to -out.
type Report struct {
	Adapter string    `json:"adapter"`
	Version string    `json:"version"`
	Runs    int       `json:"runs"`
	When    time.Time `json:"when"`
	Rows    []Row     `json:"rows"`
}

func (r Report) printTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s, median of %d runs (ms)\n", r.Adapter, r.Version, r.Runs)
	fmt.Fprintln(tw, "comparison\tA\tB\tratio A/B\ttarget\tresult")
	for _, row := range r.Rows {
		if row.Status == "error" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%s\terror: %s\n", row.What, row.Target, row.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s %.1f\t%s %.1f\t%s\t%s\t%s\n", row.What,
			row.A.Label, row.A.Median, row.B.Label, row.B.Median, formatRatio(row.Ratio), row.Target, row.Status)
	}
	return tw.Flush()
}

func formatRatio(r float64) string {
	if r < 0.01 {
		return fmt.Sprintf("1/%.0f", 1/r)
	}
	return fmt.Sprintf("%.3f", r)
}

func (r Report) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// missed lists the rows that failed their target or could not be measured.
func (r Report) missed() []string {
	var out []string
	for _, row := range r.Rows {
		if row.Status == "miss" || row.Status == "error" {
			out = append(out, row.What)
		}
	}
	return out
}

func (r Report) summary() string {
	if m := r.missed(); len(m) > 0 {
		return "missed: " + strings.Join(m, "; ")
	}
	return "all targets met"
}
