//go:build unix

package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		runs []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5 * ms}, 5 * ms},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms}, 5 * ms},
		{[]time.Duration{4 * ms, 1 * ms, 3 * ms, 100 * ms}, 3500 * time.Microsecond},
	}
	for _, tt := range tests {
		in := append([]time.Duration(nil), tt.runs...)
		if got := Median(tt.runs); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.runs, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.runs[i] {
				t.Fatalf("median reordered its input")
			}
		}
	}
}

func TestCompare(t *testing.T) {
	m := func(label string, d ...time.Duration) Measure { return NewMeasure(label, d) }
	tests := []struct {
		name   string
		a, b   Measure
		limit  float64
		status string
		ratio  float64
	}{
		{"within", m("warm", 10*time.Millisecond), m("load", 200*time.Millisecond), 0.1, "ok", 0.05},
		{"exactly at the limit", m("a", 105*time.Millisecond), m("b", 100*time.Millisecond), 1.05, "ok", 1.05},
		{"over", m("a", 300*time.Millisecond), m("b", 100*time.Millisecond), 1.2, "miss", 3},
		{"informational", m("a", time.Second), m("b", 2*time.Second), 0, "info", 0.5},
		{"no runs", m("a"), m("b", time.Second), 1, "error", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(tt.name, tt.a, tt.b, tt.limit, "x")
			if r.Status != tt.status {
				t.Errorf("status = %s, want %s", r.Status, tt.status)
			}
			if diff := r.Ratio - tt.ratio; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("ratio = %v, want %v", r.Ratio, tt.ratio)
			}
		})
	}
}

func TestFormatRatio(t *testing.T) {
	tests := map[float64]string{0.5: "0.5", 0.761: "0.761", 178.0 / 1768: "0.101", 1.2345: "1.234", 13.774: "13.774", 1.0 / 300: "1/300", 0.0001: "1/10000"}
	for in, want := range tests {
		if got := formatRatio(in); got != want {
			t.Errorf("formatRatio(%v) = %s, want %s", in, got, want)
		}
	}
}

func sampleReport() Report {
	ms := time.Millisecond
	return Report{
		Adapter: "@agentclientprotocol/codex-acp@2.6.0", Version: "2.6.0", Runs: 3,
		Rows: []Row{
			Compare("follow-up: warm vs per-turn load (seed)", NewMeasure("warm", []time.Duration{300 * ms, 310 * ms, 290 * ms}),
				NewMeasure("load", []time.Duration{5 * time.Second}), 0.1, "≤ 0.10"),
			Compare("first turn: engine vs bare", NewMeasure("engine", []time.Duration{4 * time.Second}),
				NewMeasure("bare", []time.Duration{3 * time.Second}), 1.05, "≤ 1.05"),
			Failed("model list: disk vs asking the agent", "≤ 1/300", errors.New("agent refused")),
		},
	}
}

func TestTableAndSummary(t *testing.T) {
	rep := sampleReport()
	var out bytes.Buffer
	if err := rep.PrintTable(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"warm 300 ms", "load 5000 ms", "0.06", "ok", "engine 4000 ms", "1.333", "miss", "error: agent refused"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	if got := rep.Missed(); len(got) != 2 || !strings.HasPrefix(got[0], "first turn") || !strings.HasPrefix(got[1], "model list") {
		t.Errorf("missed = %q", got)
	}
	if !strings.HasPrefix(rep.Summary(), "missed: first turn") {
		t.Errorf("summary = %q", rep.Summary())
	}
	ok := Report{Rows: rep.Rows[:1]}
	if ok.Summary() != "all targets met" {
		t.Errorf("summary = %q", ok.Summary())
	}
}

func TestWriteJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.json")
	if err := sampleReport().WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Adapter string
		Rows    []struct {
			What   string
			Status string
			Ratio  float64
			A      struct {
				Label  string
				Unit   string
				Median float64
				Runs   []float64
			}
		}
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Adapter == "" || len(back.Rows) != 3 || back.Rows[0].A.Median != 300 || back.Rows[0].A.Unit != "ms" || len(back.Rows[0].A.Runs) != 3 || back.Rows[0].Status != "ok" {
		t.Errorf("round trip = %+v", back)
	}
	if err := sampleReport().WriteJSON(filepath.Join(t.TempDir(), "missing", "x.json")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestAgainst(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		limit  float64
		status string
		ratio  float64
	}{
		{"under", []float64{40, 50, 60}, 100, StatusOK, 0.5},
		{"exactly at the ceiling", []float64{1}, 1, StatusOK, 1},
		{"over", []float64{3.5}, 1, StatusMiss, 3.5},
		{"median decides, not the worst run", []float64{0.5, 0.6, 9}, 1, StatusOK, 0.6},
		{"no target", []float64{1400}, 0, StatusInfo, 0},
		{"no runs", nil, 100, StatusError, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Against(tt.name, NewValues("", "ms", tt.values), tt.limit, "x")
			if r.Status != tt.status || r.Kind != KindAbsolute {
				t.Errorf("status = %s (%s), want %s", r.Status, r.Kind, tt.status)
			}
			if diff := r.Ratio - tt.ratio; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("ratio = %v, want %v", r.Ratio, tt.ratio)
			}
		})
	}
}

func TestMedianFloat(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{9, 1, 5}, 5}, {[]float64{4, 1, 3, 100}, 3.5}}
	for _, tt := range tests {
		if got := MedianFloat(tt.in); got != tt.want {
			t.Errorf("MedianFloat(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFormatMeasure(t *testing.T) {
	tests := []struct {
		m    Measure
		want string
	}{
		{NewValues("warm", "ms", []float64{5724.51}), "warm 5725 ms"},
		{NewValues("", "ms", []float64{42.25}), "42.2 ms"},
		{NewValues("p99", "ms", []float64{3.593}), "p99 3.59 ms"},
		{NewValues("p50", "ms", []float64{0.004}), "p50 0.004 ms"},
		{NewValues("", "MB", []float64{123.4}), "123 MB"},
		{NewMeasure("disk", []time.Duration{150 * time.Microsecond}), "disk 0.150 ms"},
	}
	for _, tt := range tests {
		if got := formatMeasure(tt.m); got != tt.want {
			t.Errorf("formatMeasure(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

// Absolute rows, skipped and n/a rows, and notes all reach the table; only
// misses and errors count as missed.
func TestTableWithEveryKindOfRow(t *testing.T) {
	p99 := Against("stream p99", NewValues("p99", "ms", []float64{0.3}), 1, "≤ 1 ms")
	p99.Note = "core only"
	rep := Report{CPUs: 2, LoadStart: "3.10 2.00 1.00", LoadEnd: "4.00 3.00 2.00", Runs: 7, Rows: []Row{
		p99,
		Against("list cold", NewValues("", "ms", []float64{1359}), 100, "≤ 100 ms"),
		Unmeasured("paint", "≤ 1000 ms", StatusNA, "no paint report"),
		Unmeasured("memory", "≤ 150 MB", StatusSkipped, "not built"),
	}}
	var out bytes.Buffer
	if err := rep.PrintTable(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"adapter not run; 2 CPUs; load average 3.10 2.00 1.00 at start, 4.00 3.00 2.00 at end",
		"p99 0.300 ms", "0.3 ", "1359 ms", "13.590", "n/a (no paint report)", "skipped (not built)", "* stream p99: core only"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	if got := rep.Missed(); len(got) != 1 || got[0] != "list cold" {
		t.Errorf("missed = %q", got)
	}
}

func TestLoadAverage(t *testing.T) {
	got := LoadAverage()
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if got != "unknown" {
			t.Errorf("loadAverage without /proc = %q", got)
		}
		return
	}
	if f := strings.Fields(got); len(f) != 3 {
		t.Errorf("loadAverage = %q, want three numbers", got)
	}
}

func TestPercentile(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 99, 0},
		{"one value is every percentile", durations(7), 1, 7 * time.Millisecond},
		{"p50 of 1..100 is 50", hundred, 50, 50 * time.Millisecond},
		{"p99 of 1..100 is 99, not the max", hundred, 99, 99 * time.Millisecond},
		{"p100 is the max", hundred, 100, 100 * time.Millisecond},
		{"p99 of 10 values is the largest", durations(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 99, 10 * time.Millisecond},
		{"p50 of 4 values is the second (nearest rank)", durations(1, 2, 3, 4), 50, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("Percentile(p%.0f) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

func durations(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, v := range ms {
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out
}
