//go:build unix

// Package window measures the production window: first paint and idle
// memory from scripts/bench-window.sh against a bare Wails window, the
// fake agent's flood through it (windowflood) and a 400-turn chat
// reopened in it (windowlong).
package window

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"cdxtheme/internal/bench/table"
)

// windowResult is what scripts/bench-window.sh writes: medians over its
// runs, null when nothing was measured.
type windowResult struct {
	Runs int `json:"runs"`
	windowFigures
	// Bare is the bare Wails window of internal/bench/barewails, measured
	// in the same runs the same way; nil when it was not built.
	Bare *windowFigures `json:"bare"`
}

type windowFigures struct {
	FirstPaintMs *float64 `json:"firstPaintMs"`
	IdleMemoryKB *float64 `json:"idleMemoryKB"`
	IdleAnonKB   *float64 `json:"idleAnonKB"` // the anonymous part of the PSS
	// PairsKB (bare only): app and bare PSS of each run, measured back to
	// back; the ratio row is the median of their ratios.
	PairsKB [][2]float64 `json:"pairsKB,omitempty"`
}

const (
	whatPaint      = "window: start → first painted frame (Xvfb)"
	whatMemory     = "window: idle memory, app + WebKit (PSS)"
	whatMemoryBare = "window: idle memory, app vs bare Wails window (PSS)"
	whatPaintBare  = "window: first paint, app vs bare Wails window"
)

// windowRows reads the window measurement. app is the production binary it
// needs: when missing, both rows are skipped as "not built"; a missing or
// unreadable result file is an error, a null value "n/a".
func Rows(resultPath, app string) []table.Row {
	const paintTarget, memTarget, bareTarget = "≤ 1000 ms", "≤ 150 MB", "≤ 1.00"
	skipAll := func(why string) []table.Row {
		return []table.Row{table.Unmeasured(whatPaint, paintTarget, table.StatusSkipped, why), table.Unmeasured(whatMemory, memTarget, table.StatusSkipped, why),
			table.Unmeasured(whatMemoryBare, bareTarget, table.StatusSkipped, why), table.Unmeasured(whatPaintBare, "-", table.StatusSkipped, why)}
	}
	if _, err := os.Stat(app); err != nil {
		return skipAll(fmt.Sprintf("not built (%s missing; make build)", app))
	}
	b, err := os.ReadFile(resultPath)
	if errors.Is(err, fs.ErrNotExist) {
		return skipAll("no result: scripts/bench-window.sh not run (xvfb-run missing, or skipped)")
	}
	var w windowResult
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	if err != nil {
		err = fmt.Errorf("read %s: %w", resultPath, err)
		return []table.Row{table.Failed(whatPaint, paintTarget, err), table.Failed(whatMemory, memTarget, err), table.Failed(whatMemoryBare, bareTarget, err), table.Failed(whatPaintBare, "-", err)}
	}
	note := fmt.Sprintf("median of %d runs of scripts/bench-window.sh", w.Runs)
	var rows []table.Row
	if w.FirstPaintMs == nil {
		rows = append(rows, table.Unmeasured(whatPaint, paintTarget, table.StatusNA, "no paint report"))
	} else {
		r := table.Against(whatPaint, table.NewValues("", "ms", []float64{*w.FirstPaintMs}), 1000, paintTarget)
		r.Note = note
		rows = append(rows, r)
	}
	if w.IdleMemoryKB == nil {
		rows = append(rows, table.Unmeasured(whatMemory, memTarget, table.StatusNA, "no memory sample (the app did not stay up)"))
	} else {
		r := table.Against(whatMemory, table.NewValues("", "MB", []float64{*w.IdleMemoryKB / 1024}), 150, memTarget)
		r.Note = note + "; MB = 2^20 bytes, shared pages split between processes" + anonNote("of it", w.windowFigures)
		rows = append(rows, r)
	}
	return append(rows, bareRows(w, note, bareTarget)...)
}

// bareRows put the app beside the bare Wails window of the same runs.
func bareRows(w windowResult, note, bareTarget string) []table.Row {
	if w.Bare == nil {
		why := "no bare window measured (internal/bench/barewails not built: make bench builds it)"
		return []table.Row{table.Unmeasured(whatMemoryBare, bareTarget, table.StatusSkipped, why), table.Unmeasured(whatPaintBare, "-", table.StatusSkipped, why)}
	}
	mb := func(label string, kb *float64) table.Measure {
		return table.NewValues(label, "MB", []float64{*kb / 1024})
	}
	var mem, paint table.Row
	switch {
	case w.IdleMemoryKB == nil || w.Bare.IdleMemoryKB == nil:
		mem = table.Unmeasured(whatMemoryBare, bareTarget, table.StatusNA, "no memory sample of one of the two windows")
	default:
		mem = table.Compare(whatMemoryBare, mb("app", w.IdleMemoryKB), mb("bare", w.Bare.IdleMemoryKB), 1, bareTarget)
		pairNote := ""
		if r := pairRatio(w.Bare.PairsKB); r > 0 && mem.Status != table.StatusError {
			// Other processes sharing WebKit's pages move both windows of
			// a pair alike, but not windows minutes apart.
			mem.Ratio, mem.Status = r, table.StatusOK
			if r > mem.Limit {
				mem.Status = table.StatusMiss
			}
			pairNote = fmt.Sprintf("; ratio = median of %d back-to-back pairs (of the medians: %.3f)", len(w.Bare.PairsKB), mem.A.Median/mem.B.Median)
		}
		mem.Note = note + ", the two windows alternating; the same method (PSS of the process and its WebKit children after the same idle time)" + pairNote + ". " +
			"PSS splits shared library pages with every other process mapping them, so a WebKit started elsewhere on the machine lowers both" +
			anonNote("app", w.windowFigures) + anonNote("bare", *w.Bare)
	}
	switch {
	case w.FirstPaintMs == nil || w.Bare.FirstPaintMs == nil:
		paint = table.Unmeasured(whatPaintBare, "-", table.StatusNA, "no paint report of one of the two windows")
	default:
		paint = table.Compare(whatPaintBare, table.NewValues("app", "ms", []float64{*w.FirstPaintMs}), table.NewValues("bare", "ms", []float64{*w.Bare.FirstPaintMs}), 0, "-")
		paint.Note = "the bare window's page is one paragraph and a script that reports its second animation frame"
	}
	return []table.Row{mem, paint}
}

// pairRatio is the median of app/bare over the pairs; 0 without any.
func pairRatio(pairs [][2]float64) float64 {
	var r []float64
	for _, p := range pairs {
		if p[0] > 0 && p[1] > 0 {
			r = append(r, p[0]/p[1])
		}
	}
	return table.MedianFloat(r)
}

// anonNote gives the anonymous (private, heap-like) part of a PSS figure,
// which other processes on the machine do not change.
func anonNote(whose string, f windowFigures) string {
	if f.IdleAnonKB == nil {
		return ""
	}
	return fmt.Sprintf("; %s anonymous (heaps, not shared) %.1f MB", whose, *f.IdleAnonKB/1024)
}
