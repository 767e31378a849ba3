//go:build unix

package turns

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cdxtheme/internal/bench/table"
)

// TestMain lets the test binary be the streaming agent, as the bench
// binary is: streamBenchFor re-executes os.Executable.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == AgentArg {
		os.Exit(RunStreamAgent())
	}
	os.Exit(m.Run())
}

func durations(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, v := range ms {
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out
}

func TestSummarize(t *testing.T) {
	// 1,000 chunks sent 100 µs apart over 99.9 ms: 10,000/s.
	lat := make([]time.Duration, 1000)
	for i := range lat {
		lat[i] = 100 * time.Microsecond
	}
	lat[500] = 5 * time.Millisecond // one slow event must not move p50 or p99
	lat[3] = 2 * time.Millisecond
	r := summarize(lat, 1_000_000_000, 1_000_000_000+999*100_000)
	if r.P50 != 100*time.Microsecond || r.P99 != 100*time.Microsecond || r.Max != 5*time.Millisecond || r.Chunks != 1000 {
		t.Errorf("summarize = %+v", r)
	}
	if r.Rate < 9999 || r.Rate > 10001 {
		t.Errorf("rate = %.1f/s, want 10000", r.Rate)
	}
	if lat[500] != 5*time.Millisecond {
		t.Error("summarize sorted its input")
	}
	if r := summarize(nil, 0, 0); r.Chunks != 0 || r.Rate != 0 {
		t.Errorf("empty summarize = %+v", r)
	}
}

func TestSentAt(t *testing.T) {
	tests := []struct {
		text string
		want int64
		ok   bool
	}{
		{"1733133133123456789 ", 1733133133123456789, true},
		{"42", 42, true},
		{"", 0, false},
		{"hello 12", 0, false},
		{"99999999999999999999999 ", 0, false}, // overflows int64
	}
	for _, tt := range tests {
		got, ok := sentAt(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("sentAt(%q) = %d, %v; want %d, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

// TestStreamAgentSpeaksACP drives the agent with raw lines, as a client
// would: it must answer every request, stream exactly the asked chunks with
// rising stamps before the prompt's answer, and survive a garbage line.
func TestStreamAgentSpeaksACP(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`not json at all`,
		`{"jsonrpc":"2.0","id":"a","method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"bench-stream","prompt":[]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/load","params":{}}`,
	}, "\n") + "\n"
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := streamAgent(strings.NewReader(in), pw, 25, 100000)
		pw.CloseWithError(err)
		done <- err
	}()
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result map[string]any  `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
		Params struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				SessionUpdate string `json:"sessionUpdate"`
				Content       struct {
					Type, Text string
				} `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	var got []msg
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		var m msg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("agent wrote a line that is not JSON: %q", sc.Text())
		}
		got = append(got, m)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 2+25+2 {
		t.Fatalf("got %d lines, want 29", len(got))
	}
	if string(got[0].ID) != "0" || got[0].Result["protocolVersion"] != float64(1) {
		t.Errorf("initialize answer = %+v", got[0])
	}
	if string(got[1].ID) != `"a"` || got[1].Result["sessionId"] != streamSession {
		t.Errorf("session/new answer = %+v", got[1])
	}
	var prev int64
	for i, m := range got[2:27] {
		if m.Method != "session/update" || m.Params.Update.SessionUpdate != "agent_message_chunk" || m.Params.SessionID != streamSession {
			t.Fatalf("line %d is not a chunk: %+v", i+2, m)
		}
		stamp, ok := sentAt(m.Params.Update.Content.Text)
		if !ok || stamp < prev {
			t.Fatalf("chunk %d stamp %q not rising after %d", i, m.Params.Update.Content.Text, prev)
		}
		prev = stamp
	}
	if string(got[27].ID) != "2" || got[27].Result["stopReason"] != "end_turn" {
		t.Errorf("prompt answer = %+v", got[27])
	}
	if string(got[28].ID) != "3" || got[28].Error == nil || got[28].Error.Code != -32601 {
		t.Errorf("unknown method answer = %+v", got[28])
	}
}

func TestStreamAgentRefusesBadSettings(t *testing.T) {
	if err := streamAgent(strings.NewReader(""), io.Discard, 0, 10); err == nil {
		t.Error("0 chunks accepted")
	}
	if err := streamAgent(strings.NewReader(""), io.Discard, 10, 0); err == nil {
		t.Error("rate 0 accepted")
	}
}

// TestStreamRowsThroughEngine runs the real measurement, small: the test
// binary re-executed as the agent, chat.Engine reading its pipe. It checks
// that every chunk was timed, not how fast (that is the benchmark's job).
func TestStreamRowsThroughEngine(t *testing.T) {
	sb, cleanup, err := streamBenchFor(300, 3000, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	run, err := sb.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if run.Chunks != 300 || run.P50 <= 0 || run.P99 < run.P50 || run.Max < run.P99 || run.Rate <= 0 || run.CPU <= 0 {
		t.Errorf("run = %+v", run)
	}
	floor, err := sb.bareRead(context.Background())
	if err != nil || floor <= 0 {
		t.Fatalf("bare reader: %v, %v per chunk", floor, err)
	}
	rows := streamRows(context.Background(), sb, 2)
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if r.Status == table.StatusError || len(r.A.Values) != 2 || r.A.Median <= 0 {
			t.Errorf("row %q = %+v", r.What, r)
		}
	}
	if rows[1].Limit != 1 || !strings.Contains(rows[1].Note, "achieved") || !strings.Contains(rows[1].Note, "16 ms") {
		t.Errorf("p99 row = %+v", rows[1])
	}
	if rows[2].Limit != 8 || rows[2].Target != "≤ 8 µs" {
		t.Errorf("CPU row = %+v", rows[2])
	}
	if r := rows[3]; r.Kind != table.KindRatio || len(r.B.Values) != 2 || r.B.Median <= 0 || r.Ratio <= 0 {
		t.Errorf("bare reader row = %+v", r)
	}
}

func TestStreamRowsReportAFailingAgent(t *testing.T) {
	sb := streamBench{exe: "/nonexistent/agent", cwd: t.TempDir(), chunks: 10, rate: 100, log: zerolog.Nop()}
	rows := streamRows(context.Background(), sb, 1)
	if len(rows) != 4 || rows[0].Status != table.StatusError || rows[1].Status != table.StatusError || rows[2].Status != table.StatusError || rows[3].Status != table.StatusError || rows[1].Error == "" {
		t.Errorf("rows = %+v", rows)
	}
}
