//go:build unix

// Package table holds what every part of the benchmark reports in: a
// measure (runs and their median), a row (a ratio or a ceiling and its
// status) and the report printed as one table and written as JSON.
package table

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

// Measure is one measured quantity, taken several times.
type Measure struct {
	Label  string          `json:"label"`
	Unit   string          `json:"unit"` // "ms" or "MB"
	Runs   []time.Duration `json:"-"`
	Values []float64       `json:"runs"`
	Median float64         `json:"median"`
}

func NewMeasure(label string, runs []time.Duration) Measure {
	m := Measure{Label: label, Unit: "ms", Runs: runs}
	for _, r := range runs {
		m.Values = append(m.Values, MS(r))
	}
	m.Median = MS(Median(runs))
	return m
}

// newValues is a Measure of values already in unit (from another tool,
// or not durations).
func NewValues(label, unit string, values []float64) Measure {
	return Measure{Label: label, Unit: unit, Values: values, Median: MedianFloat(values)}
}

// ms is d in milliseconds, to the microsecond.
func MS(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// medianFloat is median for plain values.
func MedianFloat(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// median of the runs (mean of the middle two for an even count); 0 for none.
func Median(runs []time.Duration) time.Duration {
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

// Percentile is the nearest-rank p-th percentile (0 < p <= 100) of sorted
// values: the smallest value with at least p% of all at or below it.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(k, len(sorted)-1))]
}

// Row kinds: a ratio of two measures taken side by side, or one measure
// against a fixed ceiling in its own unit.
const (
	KindRatio    = "ratio"
	KindAbsolute = "absolute"
)

// Row statuses. Only miss and error count as missed; skipped and n/a say
// why a row has no number (nothing built, nothing reported).
const (
	StatusOK      = "ok"
	StatusMiss    = "miss"
	StatusInfo    = "info"
	StatusError   = "error"
	StatusSkipped = "skipped"
	StatusNA      = "n/a"
)

// Row is one line of the table. For KindRatio, Ratio = A/B against Limit;
// for KindAbsolute, Ratio = A/Limit (so both read "≤ 1 is within a
// ceiling of 1×"); Limit 0 = no target, the row only informs.
type Row struct {
	What   string  `json:"what"`
	Kind   string  `json:"kind"`
	A      Measure `json:"a,omitzero"`
	B      Measure `json:"b,omitzero"`
	Ratio  float64 `json:"ratio"`
	Limit  float64 `json:"limit,omitempty"`
	Target string  `json:"target"`
	Status string  `json:"status"`
	Error  string  `json:"error,omitempty"` // why error, skipped or n/a
	Note   string  `json:"note,omitempty"`  // how it was measured, worst cases
}

// against is an absolute row: a's median against limit in a's unit.
func Against(what string, a Measure, limit float64, target string) Row {
	r := Row{What: what, Kind: KindAbsolute, A: a, Limit: limit, Target: target}
	switch {
	case len(a.Values) == 0:
		r.Status, r.Error = StatusError, "no runs"
	case limit == 0:
		r.Status = StatusInfo
	default:
		r.Ratio = a.Median / limit
		r.Status = StatusOK
		if a.Median > limit {
			r.Status = StatusMiss
		}
	}
	return r
}

// unmeasured is a row that has no number, with the reason.
func Unmeasured(what, target, status, why string) Row {
	return Row{What: what, Kind: KindAbsolute, Target: target, Status: status, Error: why}
}

func Compare(what string, a, b Measure, limit float64, target string) Row {
	r := Row{What: what, Kind: KindRatio, A: a, B: b, Limit: limit, Target: target}
	switch {
	case a.Median <= 0 || b.Median <= 0:
		r.Status = StatusError
		r.Error = "a measure has no runs"
	default:
		r.Ratio = a.Median / b.Median
		switch {
		case limit == 0:
			r.Status = StatusInfo
		case r.Ratio <= limit:
			r.Status = StatusOK
		default:
			r.Status = StatusMiss
		}
	}
	return r
}

// failed is a row for a comparison that could not be measured.
func Failed(what, target string, err error) Row {
	return Row{What: what, Target: target, Status: StatusError, Error: err.Error()}
}

// Report is the JSON written to -out.
type Report struct {
	Adapter string    `json:"adapter"`
	Version string    `json:"version"`
	Runs    int       `json:"runs"`
	When    time.Time `json:"when"`
	CPUs    int       `json:"cpus"`
	// Load averages (1, 5, 15 min) when the run started and ended: the
	// machine may be shared, and the numbers only mean something with it.
	LoadStart string `json:"loadStart"`
	LoadEnd   string `json:"loadEnd"`
	Rows      []Row  `json:"rows"`
}

func (r Report) PrintTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	adapter := "adapter not run"
	if r.Adapter != "" {
		adapter = r.Adapter
	}
	fmt.Fprintf(tw, "%s; %d CPUs; load average %s at start, %s at end; median of %d runs unless noted\n",
		adapter, r.CPUs, r.LoadStart, r.LoadEnd, r.Runs)
	fmt.Fprintln(tw, "comparison\tA\tB\tratio\ttarget\tresult")
	for _, row := range r.Rows {
		switch row.Status {
		case StatusError:
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%s\terror: %s\n", row.What, row.Target, row.Error)
			continue
		case StatusSkipped, StatusNA:
			a := "-" // a side measured against one that was not
			if len(row.A.Values) > 0 {
				a = formatMeasure(row.A)
			}
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t%s\t%s (%s)\n", row.What, a, row.Target, row.Status, row.Error)
			continue
		}
		b, ratio := "-", "-"
		if row.Kind == KindRatio {
			b, ratio = formatMeasure(row.B), formatRatio(row.Ratio)
		} else if row.Limit > 0 {
			ratio = formatRatio(row.Ratio)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", row.What, formatMeasure(row.A), b, ratio, row.Target, row.Status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range r.Rows {
		if row.Note != "" {
			fmt.Fprintf(w, "  * %s: %s\n", row.What, row.Note)
		}
	}
	return nil
}

// formatMeasure prints "label value unit" with as many decimals as the
// value's size deserves (a p50 of 0.004 ms and a 5 s turn alike).
func formatMeasure(m Measure) string {
	v := m.Median
	var num string
	switch {
	case v >= 100:
		num = fmt.Sprintf("%.0f", v)
	case v >= 10:
		num = fmt.Sprintf("%.1f", v)
	case v >= 1:
		num = fmt.Sprintf("%.2f", v)
	default:
		num = fmt.Sprintf("%.3f", v)
	}
	return strings.TrimSpace(m.Label + " " + num + " " + m.Unit)
}

// formatRatio shows three significant digits below 1, so a ratio just over
// a limit like 0.10 reads 0.101, not a "0.100" marked miss.
func formatRatio(r float64) string {
	switch {
	case r > 0 && r < 0.01:
		return fmt.Sprintf("1/%.0f", 1/r)
	case r < 1:
		return fmt.Sprintf("%.3g", r)
	}
	return fmt.Sprintf("%.3f", r)
}

func (r Report) WriteJSON(path string) error {
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
func (r Report) Missed() []string {
	var out []string
	for _, row := range r.Rows {
		if row.Status == StatusMiss || row.Status == StatusError {
			out = append(out, row.What)
		}
	}
	return out
}

func (r Report) Summary() string {
	if m := r.Missed(); len(m) > 0 {
		return "missed: " + strings.Join(m, "; ")
	}
	return "all targets met"
}

// loadAverage is /proc/loadavg's first three fields, or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
