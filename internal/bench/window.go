package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// windowResult is what scripts/bench-window.sh writes: medians over its
// runs, null when nothing was measured.
type windowResult struct {
	Runs         int      `json:"runs"`
	FirstPaintMs *float64 `json:"firstPaintMs"`
	IdleMemoryKB *float64 `json:"idleMemoryKB"`
}

const (
	whatPaint  = "window: start → first painted frame (Xvfb)"
	whatMemory = "window: idle memory, app + WebKit (PSS)"
)

// windowRows reads the window measurement. app is the production binary it
// needs: when missing, both rows are skipped as "not built"; a missing or
// unreadable result file is an error, a null value "n/a".
func windowRows(resultPath, app string) []Row {
	const paintTarget, memTarget = "≤ 1000 ms", "≤ 150 MB"
	if _, err := os.Stat(app); err != nil {
		why := fmt.Sprintf("not built (%s missing; make build)", app)
		return []Row{unmeasured(whatPaint, paintTarget, StatusSkipped, why), unmeasured(whatMemory, memTarget, StatusSkipped, why)}
	}
	b, err := os.ReadFile(resultPath)
	if errors.Is(err, fs.ErrNotExist) {
		why := "no result: scripts/bench-window.sh not run (xvfb-run missing, or skipped)"
		return []Row{unmeasured(whatPaint, paintTarget, StatusSkipped, why), unmeasured(whatMemory, memTarget, StatusSkipped, why)}
	}
	var w windowResult
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	if err != nil {
		err = fmt.Errorf("read %s: %w", resultPath, err)
		return []Row{failed(whatPaint, paintTarget, err), failed(whatMemory, memTarget, err)}
	}
	note := fmt.Sprintf("median of %d runs of scripts/bench-window.sh", w.Runs)
	var rows []Row
	if w.FirstPaintMs == nil {
		rows = append(rows, unmeasured(whatPaint, paintTarget, StatusNA, "no paint report"))
	} else {
		r := against(whatPaint, newValues("", "ms", []float64{*w.FirstPaintMs}), 1000, paintTarget)
		r.Note = note
		rows = append(rows, r)
	}
	if w.IdleMemoryKB == nil {
		rows = append(rows, unmeasured(whatMemory, memTarget, StatusNA, "no memory sample (the app did not stay up)"))
	} else {
		r := against(whatMemory, newValues("", "MB", []float64{*w.IdleMemoryKB / 1024}), 150, memTarget)
		r.Note = note + "; MB = 2^20 bytes, shared pages split between processes"
		rows = append(rows, r)
	}
	return rows
}
