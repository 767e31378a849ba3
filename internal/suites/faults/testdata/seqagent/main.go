// Command seqagent is the smallest ACP v1 agent that answers a prompt with
// SEQ_AGENT_COUNT agent_message_chunk updates "0,", "1,", "2,", ... written
// in one burst before the prompt's response, so a client can check that a
// burst arrives complete and in order (the fake agent's burst repeats one
// identical chunk). It speaks raw JSON on purpose: no code shared with the
// client under test.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
}

func main() {
	n, err := strconv.Atoi(os.Getenv("SEQ_AGENT_COUNT"))
	if err != nil || n < 0 {
		n = 100000
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(b)
		out.WriteByte('\n')
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m msg
		if json.Unmarshal(line, &m) != nil || m.Method == "" || len(m.ID) == 0 {
			continue // notifications (session/cancel) and responses: nothing to do
		}
		var result any
		switch m.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}}
		case "session/new":
			result = map[string]any{"sessionId": "seq-session"}
		case "session/prompt":
			for i := 0; i < n; i++ {
				send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
					"sessionId": "seq-session",
					"update": map[string]any{"sessionUpdate": "agent_message_chunk",
						"content": map[string]any{"type": "text", "text": strconv.Itoa(i) + ","}},
				}})
			}
			result = map[string]any{"stopReason": "end_turn"}
		default:
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "Method not found: " + m.Method}})
			out.Flush()
			continue
		}
		send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		if err := out.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "seqagent:", err)
			return
		}
	}
}
