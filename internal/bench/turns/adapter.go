//go:build unix

// Package turns measures the turn paths of core/chat against the real
// @agentclientprotocol/codex-acp adapter and a loopback mock model, next
// to a bare client doing the least the protocol allows (adapter), a
// pre-warmed first turn (prewarm), follow-ups through serve (serve), the
// core's per-chunk overhead with the bench binary re-executed as a
// streaming agent (stream), and `cdxtheme chat` against other ACP clients
// (cli).
package turns

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/fixtures"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// modelsCache is the models_cache.json codex-cli 0.166 wrote.
var modelsCache = fixtures.Read("models_cache.json")

// Config is what the turn parts take of the run's flags.
type Config struct {
	Adapter      string        // peers.TS or peers.Rust
	N            int           // runs per measurement
	Timeout      time.Duration // bound of one turn
	StreamChunks int           // chunks per streaming run
	StreamRate   int           // chunks per second the streaming agent writes
}

// MeasureStream streams chunks from the bench binary re-executed as an
// agent through chat.Engine, cfg.N runs.
func MeasureStream(ctx context.Context, cfg Config, log zerolog.Logger, progress func(string)) []table.Row {
	progress(fmt.Sprintf("streaming %d chunks at %d/s through chat.Engine, %d runs", cfg.StreamChunks, cfg.StreamRate, cfg.N))
	sb, cleanup, err := streamBenchFor(cfg.StreamChunks, cfg.StreamRate, log)
	if err != nil {
		return []table.Row{table.Failed("stream: agent stdout line → core event", "≤ 1 ms", err)}
	}
	defer cleanup()
	return streamRows(ctx, sb, cfg.N)
}

// Adapter rows, in table order.
const (
	whatWarmLoad = "follow-up: warm vs per-turn load (seed)"
	whatWarmBare = "follow-up: warm vs bare open connection"
	whatResume   = "follow-up: per-turn resume vs per-turn load"
	whatFirst    = "first turn: engine vs bare"
	whatModels   = "model list: disk vs asking the agent"
)

// AdapterFailed is every adapter row failing with err (e.g. peers not installed).
func AdapterFailed(err error) (adapter, models []table.Row) {
	return []table.Row{table.Failed(whatWarmLoad, "≤ 0.10", err), table.Failed(whatWarmBare, "≤ 1.20", err),
			table.Failed(whatResume, "-", err), table.Failed(whatFirst, "≤ 1.05", err)},
		[]table.Row{table.Failed(whatModels, "≤ 1/300", err)}
}

// newBench sets up the real adapter, a mock model and an offline Codex
// home, and runs one untimed turn so disk caches do not favour whichever
// path runs first. done tears it down and says whether the adapter left
// processes behind.
func newBench(cfg Config, log zerolog.Logger, progress func(string)) (b *bench, done func() error, err error) {
	dir, err := peers.Dir()
	if err != nil {
		return nil, nil, err
	}
	adapter, err := peers.Find(dir, cfg.Adapter)
	if err != nil {
		return nil, nil, err
	}
	mock, err := respmock.Start(context.Background(), answer)
	if err != nil {
		return nil, nil, err
	}
	home, err := peers.NewHome(peers.HomeOptions{BaseURL: mock.BaseURL()})
	if err != nil {
		mock.Close()
		return nil, nil, err
	}
	done = func() error {
		var err error
		if left := home.WaitGone(10 * time.Second); len(left) != 0 {
			err = fmt.Errorf("adapter processes left behind: %v", left)
		}
		if cerr := home.Close(); cerr != nil && err == nil {
			err = cerr
		}
		mock.Close()
		return err
	}
	cwd := filepath.Join(filepath.Dir(home.Dir), "workspace")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		done()
		return nil, nil, err
	}
	b = &bench{adapter: adapter, mock: mock, home: home, cwd: cwd, n: cfg.N, timeout: cfg.Timeout, log: log}
	progress("warming up " + adapter.Name)
	if _, err := b.bareFirstTurn(); err != nil {
		done()
		return nil, nil, fmt.Errorf("warm-up turn: %w", err)
	}
	return b, done, nil
}

// MeasureAdapter runs the turn paths on the real adapter against the mock
// model; an error means the adapter could not be set up at all.
func MeasureAdapter(cfg Config, log zerolog.Logger, logBuf *table.SyncBuffer, progress func(string)) (adapterRows, modelRows []table.Row, version string, err error) {
	b, done, err := newBench(cfg, log, progress)
	if err != nil {
		return nil, nil, "", err
	}
	defer func() {
		if derr := done(); derr != nil && err == nil {
			err = derr
		}
	}()
	adapter := b.adapter
	progress("first turn: engine and bare client, alternating")
	engineFirst, bareFirst, errFirst := b.firstTurns()
	progress("follow-up: engine warm connection and bare open connection, alternating")
	warm, bareFollow, errWarm := b.warmFollowUps()
	progress("follow-up: engine per-turn reconnect and seed spawn + session/load, alternating")
	// The engine's log tells whether a per-turn reconnect fell back from
	// session/resume to session/load.
	logBuf.Reset()
	cold, load, errCold := b.perTurnFollowUps()
	replayed := strings.Contains(logBuf.String(), "session/load")
	progress("model list")
	disk, errD := b.diskModels(modelsCache)
	asked, errA := b.agentModels()

	row := func(what string, a, bm table.Measure, limit float64, target string, errs ...error) table.Row {
		if err := errors.Join(errs...); err != nil {
			return table.Failed(what, target, err)
		}
		return table.Compare(what, a, bm, limit, target)
	}
	coldWhat := whatResume
	if replayed {
		coldWhat = "follow-up: per-turn engine (fell back to load) vs seed load"
	}
	adapterRows = []table.Row{
		row(whatWarmLoad, warm, load, 0.1, "≤ 0.10", errWarm, errCold),
		row(whatWarmBare, warm, bareFollow, 1.2, "≤ 1.20", errWarm),
		row(coldWhat, cold, load, 0, "-", errCold),
		row(whatFirst, engineFirst, bareFirst, 1.05, "≤ 1.05", errFirst),
	}
	adapterRows[0].Note = "this and the next three rows: time to the first chunk of the answer, " + adapter.Name +
		" against the loopback mock model, the two sides run alternately"
	modelRows = []table.Row{row(whatModels, disk, asked, 1.0/300, "≤ 1/300", errD, errA)}
	return adapterRows, modelRows, adapter.Version, nil
}
