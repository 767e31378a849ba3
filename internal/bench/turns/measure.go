//go:build unix

package turns

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/bench/bare"
	"cdxtheme/internal/bench/table"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// bench holds what every measurement shares: one adapter, one mock model,
// one offline Codex home, one workspace.
type bench struct {
	adapter peers.Adapter
	mock    *respmock.Server
	home    *peers.Home
	cwd     string
	n       int
	timeout time.Duration
	log     zerolog.Logger
	seq     int
}

// answer makes every reply start with a token naming its prompt, so the
// first chunk of *this* turn is told apart from history a session/load
// replays before the prompt is even sent.
func answer(r respmock.Request) respmock.Reply {
	return respmock.Message("answer-" + r.LastUserText() + " is here.")
}

func firstWord(prompt string) string { return "answer-" + prompt + " " }

// nextPrompt is a prompt no earlier turn used.
func (b *bench) nextPrompt() string {
	b.seq++
	return fmt.Sprintf("turn-%d", b.seq)
}

func (b *bench) runCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), b.timeout)
}

// ---- bare client paths ------------------------------------------------------

// watcher turns agent_message_chunk notifications into "the chunk starting
// with want arrived" signals.
type watcher struct {
	mu   sync.Mutex
	want string
	hit  chan time.Time
}

func newWatcher() *watcher { return &watcher{} }

func (w *watcher) expect(want string) <-chan time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.want, w.hit = want, make(chan time.Time, 1)
	return w.hit
}

func (w *watcher) onNotify(method string, params json.RawMessage) {
	if method != "session/update" {
		return
	}
	now := time.Now()
	var p struct {
		Update struct {
			SessionUpdate string `json:"sessionUpdate"`
			Content       struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	}
	if json.Unmarshal(params, &p) != nil || p.Update.SessionUpdate != "agent_message_chunk" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hit != nil && strings.HasPrefix(p.Update.Content.Text, w.want) {
		w.hit <- now
		w.hit = nil
	}
}

func (b *bench) startBare(w *watcher) (*bare.Client, error) {
	return bare.Start(bare.Options{
		Path: b.adapter.Path, Args: b.adapter.Args, Env: b.home.Env(), Dir: b.cwd, OnNotify: w.onNotify,
	})
}

// promptTimed sends a prompt and returns the time from start to its first
// chunk, after the prompt has finished.
func promptTimed(ctx context.Context, c *bare.Client, w *watcher, sid, prompt string, start time.Time) (time.Duration, error) {
	hit := w.expect(firstWord(prompt))
	stop, err := c.Prompt(ctx, sid, prompt)
	if err != nil {
		return 0, err
	}
	select {
	case t := <-hit:
		return t.Sub(start), nil
	default:
		return 0, fmt.Errorf("prompt %q ended (%s) without its answer", prompt, stop)
	}
}

// bareFirstTurn: spawn → initialize → session/new → prompt, all fresh.
func (b *bench) bareFirstTurn() (time.Duration, error) {
	ctx, cancel := b.runCtx()
	defer cancel()
	w := newWatcher()
	start := time.Now()
	c, err := b.startBare(w)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return 0, fmt.Errorf("bare first turn: %w", err)
	}
	sid, err := c.OpenSession(ctx, "new", b.cwd, "")
	if err != nil {
		return 0, fmt.Errorf("bare first turn: %w", err)
	}
	d, err := promptTimed(ctx, c, w, sid, b.nextPrompt(), start)
	if err != nil {
		return 0, fmt.Errorf("bare first turn: %w", err)
	}
	return d, nil
}

// bareConn is an open connection with a session: the floor for a
// follow-up turn is one prompt on it.
type bareConn struct {
	c   *bare.Client
	w   *watcher
	sid string
}

func (b *bench) openBare() (*bareConn, error) {
	ctx, cancel := b.runCtx()
	defer cancel()
	w := newWatcher()
	c, err := b.startBare(w)
	if err != nil {
		return nil, err
	}
	sid, err := bare.FirstTurn(ctx, c, b.cwd, b.nextPrompt())
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("bare session: %w", err)
	}
	return &bareConn{c: c, w: w, sid: sid}, nil
}

func (b *bench) bareFollowUp(bc *bareConn) (time.Duration, error) {
	ctx, cancel := b.runCtx()
	defer cancel()
	d, err := promptTimed(ctx, bc.c, bc.w, bc.sid, b.nextPrompt(), time.Now())
	if err != nil {
		return 0, fmt.Errorf("bare follow-up: %w", err)
	}
	return d, nil
}

// seedLoad is the seed's follow-up path, done raw: spawn → initialize →
// session/load (history replayed) → set the model → prompt.
func (b *bench) seedLoad(sid string) (time.Duration, error) {
	ctx, cancel := b.runCtx()
	defer cancel()
	w := newWatcher()
	start := time.Now()
	c, err := b.startBare(w)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return 0, fmt.Errorf("seed load turn: %w", err)
	}
	if _, err := c.OpenSession(ctx, "load", b.cwd, sid); err != nil {
		return 0, fmt.Errorf("seed load turn: %w", err)
	}
	if _, err := c.Call(ctx, "session/set_config_option", map[string]any{
		"sessionId": sid, "configId": "model", "value": peers.DefaultModel,
	}); err != nil {
		return 0, fmt.Errorf("seed load turn: %w", err)
	}
	d, err := promptTimed(ctx, c, w, sid, b.nextPrompt(), start)
	if err != nil {
		return 0, fmt.Errorf("seed load turn: %w", err)
	}
	return d, nil
}

// ---- engine paths -----------------------------------------------------------

func (b *bench) engine(warm bool) *chat.Engine {
	return chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{Override: b.adapter.Words()},
		Version: "bench",
		Warm:    warm,
		Timeout: b.timeout,
		Env:     b.home.Env(),
		Log:     b.log,
	})
}

// engineTurn runs one engine turn and returns the time to the first text
// event of its answer, and the session id.
func (b *bench) engineTurn(e *chat.Engine, sid string) (time.Duration, string, error) {
	ctx, cancel := b.runCtx()
	defer cancel()
	said := b.nextPrompt()
	want := firstWord(said)
	var first time.Time
	start := time.Now()
	res, err := e.Run(ctx, chat.Turn{SessionID: sid, Cwd: b.cwd, Prompt: prompt.Text(said),
		Decider: permission.Policy("deny")}, func(ev chat.Event) {
		if ev.Type() == chat.EventText && first.IsZero() && strings.HasPrefix(chat.TextOf(ev), want) {
			first = time.Now()
		}
	})
	if err != nil {
		return 0, "", fmt.Errorf("engine turn: %w", err)
	}
	if first.IsZero() {
		return 0, res.SessionID, fmt.Errorf("engine turn %q ended (%s) without its answer", said, res.StopReason)
	}
	return first.Sub(start), res.SessionID, nil
}

// engineFirstTurn: a fresh engine, no session: spawn → initialize → new → prompt.
func (b *bench) engineFirstTurn() (time.Duration, error) {
	e := b.engine(false)
	defer e.Close()
	d, _, err := b.engineTurn(e, "")
	return d, err
}

// pair alternates two paths run for run, so load on the machine drifting
// during the benchmark weighs on both alike.
func pair(n int, a, b func() (time.Duration, error)) (ra, rb []time.Duration, err error) {
	for i := 0; i < n; i++ {
		da, err := a()
		if err != nil {
			return nil, nil, err
		}
		db, err := b()
		if err != nil {
			return nil, nil, err
		}
		ra, rb = append(ra, da), append(rb, db)
	}
	return ra, rb, nil
}

// firstTurns compares the engine's first turn with the bare client's.
func (b *bench) firstTurns() (engine, bareM table.Measure, err error) {
	re, rb, err := pair(b.n, b.engineFirstTurn, b.bareFirstTurn)
	if err != nil {
		return engine, bareM, err
	}
	return table.NewMeasure("engine", re), table.NewMeasure("bare", rb), nil
}

// warmFollowUps compares follow-ups on the engine's warm connection with
// prompts on a bare open connection. Each side first has one untimed
// follow-up, which carries Codex's one-off title request.
func (b *bench) warmFollowUps() (warm, bareM table.Measure, err error) {
	e := b.engine(true)
	defer e.Close()
	_, sid, err := b.engineTurn(e, "")
	if err != nil {
		return warm, bareM, err
	}
	if _, _, err := b.engineTurn(e, sid); err != nil {
		return warm, bareM, err
	}
	bc, err := b.openBare()
	if err != nil {
		return warm, bareM, err
	}
	defer bc.c.Close()
	if _, err := b.bareFollowUp(bc); err != nil {
		return warm, bareM, err
	}
	rw, rb, err := pair(b.n, func() (time.Duration, error) {
		d, _, err := b.engineTurn(e, sid)
		return d, err
	}, func() (time.Duration, error) { return b.bareFollowUp(bc) })
	if err != nil {
		return warm, bareM, err
	}
	return table.NewMeasure("warm", rw), table.NewMeasure("bare", rb), nil
}

// perTurnFollowUps compares the engine reconnecting per turn (it resumes
// when the agent offers session/resume) with the seed's spawn + load, on
// the same session so both see the same history.
func (b *bench) perTurnFollowUps() (resume, load table.Measure, err error) {
	e := b.engine(false)
	defer e.Close()
	_, sid, err := b.engineTurn(e, "")
	if err != nil {
		return resume, load, err
	}
	rr, rl, err := pair(b.n, func() (time.Duration, error) {
		d, _, err := b.engineTurn(e, sid)
		return d, err
	}, func() (time.Duration, error) { return b.seedLoad(sid) })
	if err != nil {
		return resume, load, err
	}
	return table.NewMeasure("resume", rr), table.NewMeasure("load", rl), nil
}

// ---- model list ---------------------------------------------------------------

// diskModels reads the model list the way the app does, from CODEX_HOME.
func (b *bench) diskModels(cache []byte) (table.Measure, error) {
	if err := os.WriteFile(filepath.Join(b.home.Dir, "models_cache.json"), cache, 0o600); err != nil {
		return table.Measure{}, fmt.Errorf("model list from disk: %w", err)
	}
	h := codexhome.Home{Dir: b.home.Dir}
	var runs []time.Duration
	for i := 0; i < b.n; i++ {
		start := time.Now()
		list := h.Models()
		d := time.Since(start)
		if list.Source != codexhome.ModelsFromCache || len(list.Models) == 0 {
			return table.Measure{}, fmt.Errorf("model list from disk: source %q, %d models (%v)", list.Source, len(list.Models), list.Warnings)
		}
		runs = append(runs, d)
	}
	return table.NewMeasure("disk", runs), nil
}

// agentModels asks the agent: spawn → initialize → session/new, and reads
// the model config option.
func (b *bench) agentModels() (table.Measure, error) {
	var runs []time.Duration
	for i := 0; i < b.n; i++ {
		ctx, cancel := b.runCtx()
		start := time.Now()
		c, err := b.startBare(newWatcher())
		if err != nil {
			cancel()
			return table.Measure{}, err
		}
		n, err := func() (int, error) {
			if err := c.Initialize(ctx); err != nil {
				return 0, err
			}
			res, err := c.Call(ctx, "session/new", map[string]any{"cwd": b.cwd, "mcpServers": []any{}})
			if err != nil {
				return 0, err
			}
			return countModels(res)
		}()
		d := time.Since(start)
		_ = c.Close()
		cancel()
		if err != nil {
			return table.Measure{}, fmt.Errorf("model list from the agent: %w", err)
		}
		if n == 0 {
			return table.Measure{}, fmt.Errorf("model list from the agent: no model option in session/new")
		}
		runs = append(runs, d)
	}
	return table.NewMeasure("agent", runs), nil
}

// countModels counts the values of the config option of category "model".
func countModels(newResult json.RawMessage) (int, error) {
	var r struct {
		ConfigOptions []struct {
			ID       string            `json:"id"`
			Category string            `json:"category"`
			Options  []json.RawMessage `json:"options"`
		} `json:"configOptions"`
	}
	if err := json.Unmarshal(newResult, &r); err != nil {
		return 0, fmt.Errorf("read session/new result: %w", err)
	}
	for _, o := range r.ConfigOptions {
		if o.Category == "model" || o.ID == "model" {
			return len(o.Options), nil
		}
	}
	return 0, nil
}
