//go:build unix

package turns

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/bench/table"
)

// streamRun is one prompt's worth of chunks through the engine.
type streamRun struct {
	P50, P99, Max time.Duration
	Rate          float64 // chunks per second, from the first and last stamps
	Chunks        int
	// CPU is this process's user+system CPU time during the run: the cost
	// of the core's work whatever else loads the machine.
	CPU time.Duration
}

// summarize turns one run's latencies and send stamps into a streamRun.
func summarize(lat []time.Duration, firstSent, lastSent int64) streamRun {
	s := append([]time.Duration(nil), lat...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	r := streamRun{Chunks: len(s)}
	if len(s) == 0 {
		return r
	}
	r.P50, r.P99, r.Max = table.Percentile(s, 50), table.Percentile(s, 99), s[len(s)-1]
	if span := lastSent - firstSent; len(s) > 1 && span > 0 {
		r.Rate = float64(len(s)-1) / (float64(span) / 1e9)
	}
	return r
}

// streamBench drives the bench binary, re-executed as the streaming agent,
// with chat.Engine: every text event's delay is the emit time minus the
// stamp the agent wrote into the line. That covers the pipe, framing, JSON,
// the connection's queue and dispatcher and the engine's event mapping —
// the core, not the app's 16 ms UI batching (stream.FlushInterval in app/stream).
type streamBench struct {
	exe    string // this binary
	cwd    string
	chunks int
	rate   int
	log    zerolog.Logger
}

func (s streamBench) run(ctx context.Context) (streamRun, error) {
	e := chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{Override: agent.Command{Path: s.exe, Args: []string{AgentArg}}.String()},
		Version: "bench",
		Timeout: time.Duration(s.chunks/s.rate+30) * time.Second,
		Env:     []string{envChunks + "=" + strconv.Itoa(s.chunks), envRate + "=" + strconv.Itoa(s.rate)},
		Log:     s.log,
	})
	defer e.Close()
	lat := make([]time.Duration, 0, s.chunks)
	var first, last int64
	var bad int
	cpu0 := cpuTime()
	_, err := e.Run(ctx, chat.Turn{Cwd: s.cwd, Prompt: prompt.Text("stream"), Decider: permission.Policy("deny")}, func(ev chat.Event) {
		if ev.Type() != chat.EventText {
			return
		}
		now := time.Now().UnixNano()
		sent, ok := sentAt(chat.TextOf(ev))
		if !ok {
			bad++
			return
		}
		if first == 0 {
			first = sent
		}
		last = sent
		lat = append(lat, time.Duration(now-sent))
	})
	if err != nil {
		return streamRun{}, fmt.Errorf("stream turn: %w", err)
	}
	if len(lat) != s.chunks || bad != 0 {
		return streamRun{}, fmt.Errorf("stream turn: %d of %d chunks arrived as text events, %d unreadable", len(lat), s.chunks, bad)
	}
	r := summarize(lat, first, last)
	r.CPU = cpuTime() - cpu0
	return r, nil
}

// bareRead is the floor of the CPU measurement: the same agent, the same
// pipe, the same chunks, read by a plain bufio line reader that decodes
// nothing. What it costs is the kernel's pipe and Go's wake-ups for a line
// arriving every 100 µs; what the core costs above it is its own work.
func (s streamBench) bareRead(ctx context.Context) (perChunk time.Duration, err error) {
	cmd := exec.CommandContext(ctx, s.exe, AgentArg)
	cmd.Env = append(os.Environ(), envChunks+"="+strconv.Itoa(s.chunks), envRate+"="+strconv.Itoa(s.rate))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("bare reader: start the agent: %w", err)
	}
	defer func() {
		_ = stdin.Close()
		if werr := cmd.Wait(); werr != nil && err == nil {
			err = fmt.Errorf("bare reader: agent: %w", werr)
		}
	}()
	br := bufio.NewReaderSize(stdout, 64<<10)
	cpu0 := cpuTime()
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"`+streamSession+`","prompt":[]}}`+"\n"); err != nil {
		return 0, fmt.Errorf("bare reader: prompt: %w", err)
	}
	for n := 0; n <= s.chunks; n++ { // the chunks, then the prompt's answer
		if _, err := br.ReadSlice('\n'); err != nil {
			return 0, fmt.Errorf("bare reader: line %d of %d: %w", n, s.chunks+1, err)
		}
	}
	return (cpuTime() - cpu0) / time.Duration(s.chunks), nil
}

// cpuTime is the user+system CPU time this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// streamRows measures n runs and gives the p50, p99 and CPU rows, the
// table's value being the median over runs, and the CPU row beside a bare
// line reader of the same pipe (run alternately with the engine).
func streamRows(ctx context.Context, s streamBench, n int) []table.Row {
	const (
		what50   = "stream: agent stdout line → core event, p50"
		what99   = "stream: agent stdout line → core event, p99"
		whatCPU  = "stream: core CPU time per chunk"
		whatBare = "stream: core CPU per chunk vs a bare line reader"
	)
	var p50, p99, rates, cpu, bare []float64
	var worst time.Duration
	for i := 0; i < n; i++ {
		r, err := s.run(ctx)
		if err == nil {
			var floor time.Duration
			floor, err = s.bareRead(ctx)
			bare = append(bare, float64(floor)/1e3)
		}
		if err != nil {
			return []table.Row{table.Failed(what50, "-", err), table.Failed(what99, "≤ 1 ms", err), table.Failed(whatCPU, "≤ 8 µs", err), table.Failed(whatBare, "-", err)}
		}
		p50 = append(p50, table.MS(r.P50))
		p99 = append(p99, table.MS(r.P99))
		rates = append(rates, r.Rate)
		cpu = append(cpu, math.Round(float64(r.CPU)/float64(r.Chunks))/1e3) // µs, to the ns
		worst = max(worst, r.Max)
	}
	note := fmt.Sprintf("%d runs × %d chunks asked at %d/s, achieved %.0f/s (median); max %.3f ms. "+
		"Core only (pipe → acp.Conn → chat.Engine emit); the app then batches UI events every %d ms (stream.FlushInterval in app/stream, a design constant). "+
		"The agent paces with ~1 ms sleeps, so chunks leave in bursts of ~%d.",
		n, s.chunks, s.rate, table.MedianFloat(rates), table.MS(worst), 16, max(1, s.rate/1000))
	r50 := table.Against(what50, table.NewValues("p50", "ms", p50), 0, "-")
	r99 := table.Against(what99, table.NewValues("p99", "ms", p99), 1, "≤ 1 ms")
	r99.Note = note
	core := table.NewValues("", "µs", cpu)
	rc := table.Against(whatCPU, core, 8, "≤ 8 µs")
	rc.Note = fmt.Sprintf("getrusage of the bench process (reader, dispatcher, engine, GC) over a run / chunks; "+
		"at %d chunks/s that is %.0f%% of one core. It does not count waiting, but a loaded machine still raises it "+
		"(context switches, caches): the next row is the floor on the same pipe, measured alternately.",
		s.rate, table.MedianFloat(cpu)*float64(s.rate)/1e4)
	rb := table.Compare(whatBare, core, table.NewValues("bare", "µs", bare), 0, "-")
	rb.Note = "B: the same agent and pipe read by a bufio line reader that decodes nothing (pipe reads and wake-ups only); " +
		"A − B is the core's own work per chunk: framing, the one-pass decoding, dispatch, the engine's event"
	return []table.Row{r50, r99, rc, rb}
}

// streamBenchFor sets up a streamBench in a fresh temp workspace.
func streamBenchFor(chunks, rate int, log zerolog.Logger) (streamBench, func(), error) {
	exe, err := os.Executable()
	if err != nil {
		return streamBench{}, nil, fmt.Errorf("find the bench binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "cdxtheme-bench-stream-")
	if err != nil {
		return streamBench{}, nil, err
	}
	return streamBench{exe: exe, cwd: dir, chunks: chunks, rate: rate, log: log}, func() { _ = os.RemoveAll(dir) }, nil
}
