//go:build unix

package turns

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// AgentArg, as the first argument, turns the bench binary into the
// streaming agent the line-to-event measurement drives through a real pipe.
const AgentArg = "_stream-agent"

// Environment of the streaming agent: how many chunks one prompt answers
// with, and how many per second.
const (
	envChunks = "CDXTHEME_BENCH_CHUNKS"
	envRate   = "CDXTHEME_BENCH_RATE"
)

// streamSession is the only session the streaming agent knows.
const streamSession = "bench-stream"

// streamAgent is a minimal ACP v1 agent, written with raw JSON rather than
// core/acp so it exercises our client rather than agreeing with it: it
// answers initialize, session/new and session/prompt; a prompt is answered
// with chunks agent_message_chunk lines paced at rate per second, each
// carrying the wall-clock nanoseconds at which it was written.
func streamAgent(in io.Reader, out io.Writer, chunks, rate int) error {
	if chunks < 1 || rate < 1 {
		return fmt.Errorf("stream agent: chunks %d and rate %d must be positive", chunks, rate)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Method == "" || len(msg.ID) == 0 {
			continue // responses and notifications (session/cancel) need no answer
		}
		var result any
		var rpcErr map[string]any
		switch msg.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}}
		case "session/new":
			result = map[string]any{"sessionId": streamSession}
		case "session/prompt":
			if err := paceChunks(out, chunks, rate); err != nil {
				return err
			}
			result = map[string]any{"stopReason": "end_turn"}
		default:
			rpcErr = map[string]any{"code": -32601, "message": "method not found: " + msg.Method}
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
		if rpcErr != nil {
			reply["error"] = rpcErr
		} else {
			reply["result"] = result
		}
		b, err := json.Marshal(reply)
		if err != nil {
			return err
		}
		if _, err := out.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("stream agent: write: %w", err)
		}
	}
	return sc.Err()
}

// chunkPrefix and chunkSuffix frame a chunk line around its stamp.
const (
	chunkPrefix = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + streamSession +
		`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`
	chunkSuffix = ` "}}}}` + "\n"
)

// paceChunks writes chunk i when it is due (start + i/rate). Go's sleep is
// about 1 ms coarse on Linux, so chunks that fell due during a sleep go out
// back to back; each is stamped just before its own write, so the stamp is
// the time the line entered the pipe.
func paceChunks(out io.Writer, chunks, rate int) error {
	interval := time.Second / time.Duration(rate)
	line := make([]byte, 0, len(chunkPrefix)+len(chunkSuffix)+20)
	start := time.Now()
	for i := 0; i < chunks; i++ {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		line = append(line[:0], chunkPrefix...)
		line = strconv.AppendInt(line, time.Now().UnixNano(), 10)
		line = append(line, chunkSuffix...)
		if _, err := out.Write(line); err != nil {
			return fmt.Errorf("stream agent: write chunk %d: %w", i, err)
		}
	}
	return nil
}

// sentAt reads the stamp out of a chunk's text.
func sentAt(text string) (int64, bool) {
	end := 0
	for end < len(text) && text[end] >= '0' && text[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(text[:end], 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

func RunStreamAgent() int {
	chunks, err1 := strconv.Atoi(os.Getenv(envChunks))
	rate, err2 := strconv.Atoi(os.Getenv(envRate))
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "stream agent: %s and %s must be integers\n", envChunks, envRate)
		return 2
	}
	if err := streamAgent(os.Stdin, os.Stdout, chunks, rate); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
