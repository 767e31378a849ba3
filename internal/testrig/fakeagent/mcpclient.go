package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// themeTools plays a model that checks its own work with the app's MCP
// tools: it writes the "theme" scenario's theme, then starts the server
// named cdxtheme that the client gave in session/new (its command, args
// and env, as codex-acp hands them to Codex), calls theme_check and
// theme_render on it over stdio, and reports each call as codex-acp
// 2.6.0 does: a tool_call with rawInput {server, tool, arguments}, then a
// tool_call_update with rawOutput {result}. The server is the real one.
func themeTools(a *agent, t *turn) string {
	if stop := theme(a, t); stop != "end_turn" {
		return stop
	}
	var srv struct {
		Name    string   `json:"name"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Env     []struct{ Name, Value string }
	}
	found := false
	for _, raw := range t.ss.MCP {
		if json.Unmarshal(raw, &srv) == nil && srv.Name == "cdxtheme" {
			found = true
			break
		}
	}
	if !found {
		t.say(" No cdxtheme MCP server was offered.")
		return "end_turn"
	}
	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Env = os.Environ()
	for _, e := range srv.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.say(" The cdxtheme MCP server did not start: " + err.Error())
		return "end_turn"
	}
	defer func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	rd := bufio.NewReaderSize(out, 1<<20)
	id := 0
	call := func(method string, params any) (json.RawMessage, error) {
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := in.Write(append(b, '\n')); err != nil {
			return nil, err
		}
		line, err := rd.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var resp struct {
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(line, &resp); err != nil {
			return nil, err
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("%s", resp.Error.Message)
		}
		return resp.Result, nil
	}
	if _, err := call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "fakeagent", "version": "1"}}); err != nil {
		t.say(" initialize: " + err.Error())
		return "end_turn"
	}
	for i, tool := range []string{"theme_check", "theme_render"} {
		tcID := fmt.Sprintf("call_mcp_%d", i)
		input := map[string]any{"server": "cdxtheme", "tool": tool, "arguments": map[string]any{}}
		t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": tcID, "title": "mcp.cdxtheme." + tool, "kind": "execute",
			"status": "in_progress", "rawInput": input, "_meta": map[string]any{"is_mcp_tool_call": true}})
		res, err := call("tools/call", map[string]any{"name": tool, "arguments": map[string]any{}})
		if err != nil {
			t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tcID, "status": "failed",
				"rawOutput": map[string]any{"result": nil, "error": err.Error()}})
			continue
		}
		t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tcID, "status": "completed",
			"rawOutput": map[string]any{"result": res, "error": nil}})
	}
	t.say(" Checked the contrast and looked at the render.")
	return "end_turn"
}
