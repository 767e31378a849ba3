//go:build unix

package turns

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/chat"
	"cdxtheme/internal/bench/table"
)

// Pre-warm rows, in table order.
const (
	whatPrewarmCold = "first turn: pre-warmed vs cold"
	whatPrewarmWarm = "first turn: pre-warmed vs warm follow-up"
)

// MeasurePrewarm compares a build's first turn on an agent the New build
// view pre-warmed (Engine.Prewarm, then the turn once it is ready, as when
// the user types for a moment) with a cold first turn (spawn, initialize,
// session/new, prompt) and with a follow-up on the warm connection. The
// three run in turn, each pre-warmed first turn in a folder of its own.
func MeasurePrewarm(cfg Config, log zerolog.Logger, progress func(string)) (rows []table.Row, version string) {
	fail := func(err error) []table.Row {
		return []table.Row{table.Failed(whatPrewarmCold, "≤ 0.25", err), table.Failed(whatPrewarmWarm, "≤ 1.30", err)}
	}
	b, done, err := newBench(cfg, log, progress)
	if err != nil {
		return fail(err), ""
	}
	version = b.adapter.Version
	pre, cold, warm, err := b.prewarmTurns(progress)
	if derr := done(); err == nil {
		err = derr
	}
	if err != nil {
		return fail(err), version
	}
	rows = []table.Row{
		table.Compare(whatPrewarmCold, pre, cold, 0.25, "≤ 0.25"),
		table.Compare(whatPrewarmWarm, pre, warm, 1.3, "≤ 1.30"),
	}
	rows[0].Note = "time from sending to the first chunk of the answer, " + b.adapter.Name +
		" against the loopback mock model; pre-warmed: the agent was started, initialized and its session/new done while the view was open"
	return rows, version
}

func (b *bench) prewarmTurns(progress func(string)) (pre, cold, warm table.Measure, err error) {
	progress("first turn: pre-warmed, cold, and a warm follow-up, in turn")
	we := b.engine(true)
	defer we.Close()
	_, sid, err := b.engineTurn(we, "")
	if err != nil {
		return pre, cold, warm, err
	}
	// The first follow-up carries Codex's one-off title request.
	if _, _, err := b.engineTurn(we, sid); err != nil {
		return pre, cold, warm, err
	}
	var rp, rc, rw []time.Duration
	for i := 0; i < b.n; i++ {
		d, err := b.prewarmedFirstTurn(i)
		if err != nil {
			return pre, cold, warm, err
		}
		rp = append(rp, d)
		if d, err = b.engineFirstTurn(); err != nil {
			return pre, cold, warm, err
		}
		rc = append(rc, d)
		if d, _, err = b.engineTurn(we, sid); err != nil {
			return pre, cold, warm, err
		}
		rw = append(rw, d)
	}
	return table.NewMeasure("pre-warmed", rp), table.NewMeasure("cold", rc), table.NewMeasure("warm", rw), nil
}

// prewarmedFirstTurn pre-warms a fresh engine for a new build folder, waits
// until the agent is ready (untimed: the user is typing), then times the
// first turn.
func (b *bench) prewarmedFirstTurn(i int) (time.Duration, error) {
	cwd := filepath.Join(filepath.Dir(b.cwd), fmt.Sprintf("build-%d-%d", i, time.Now().UnixNano()))
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		return 0, err
	}
	e := b.engine(true)
	defer e.Close()
	if !e.Prewarm(chat.Turn{Cwd: cwd}) {
		return 0, errors.New("Prewarm started nothing")
	}
	deadline := time.Now().Add(b.timeout)
	for !e.Warm(chat.Turn{Cwd: cwd}) {
		if time.Now().After(deadline) {
			return 0, errors.New("the pre-warmed agent never became ready")
		}
		time.Sleep(5 * time.Millisecond)
	}
	saved := b.cwd
	b.cwd = cwd
	d, _, err := b.engineTurn(e, "")
	b.cwd = saved
	return d, err
}
