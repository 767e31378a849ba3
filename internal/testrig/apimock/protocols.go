package apimock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// content is a message content that is a string or a list of parts.
func contentTexts(raw json.RawMessage) (texts []string, toolResult bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, false
	}
	var parts []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	json.Unmarshal(raw, &parts)
	for _, p := range parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		case "tool_result":
			toolResult = true
			t, _ := contentTexts(p.Content)
			texts = append(texts, t...)
		}
	}
	return texts, toolResult
}

// said is what the user typed among a message's text parts: the last one
// that is not a reminder or context the agent added.
func said(texts []string) string {
	for i := len(texts) - 1; i >= 0; i-- {
		t := strings.TrimSpace(texts[i])
		if t != "" && !strings.HasPrefix(t, "<") {
			return t
		}
	}
	if len(texts) > 0 {
		return strings.TrimSpace(texts[len(texts)-1])
	}
	return ""
}

// openai serves Chat Completions.
func (s *Server) openai(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
		Tools []any `json:"tools"`
	}
	raw, err := readJSON(r, &body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{API: OpenAI, Path: r.URL.Path, Model: body.Model, Stream: body.Stream, Body: raw}
	for i, m := range body.Messages {
		texts, _ := contentTexts(m.Content)
		if m.Role == "system" {
			if len(body.Tools) == 0 && strings.Contains(strings.ToLower(strings.Join(texts, " ")), "title") {
				req.JSONMode = true // a title request, not a turn
			}
			continue
		}
		req.Texts = append(req.Texts, texts...)
		if i == len(body.Messages)-1 {
			req.ToolResult = m.Role == "tool"
			if m.Role == "user" {
				req.User = said(texts)
			}
		}
	}
	for i := len(body.Messages) - 1; i >= 0 && req.User == "" && !req.ToolResult; i-- {
		if body.Messages[i].Role == "user" {
			t, _ := contentTexts(body.Messages[i].Content)
			req.User = said(t)
		}
	}
	if body.ResponseFormat != nil && body.ResponseFormat.Type != "text" {
		req.JSONMode = true
	}
	reply := s.record(req)
	if req.JSONMode {
		reply = Reply{Text: "Mock title"}
	}
	id := fmt.Sprintf("chatcmpl-mock-%d", time.Now().UnixNano())
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !body.Stream {
		msg := map[string]any{"role": "assistant", "content": reply.Text}
		finish := "stop"
		if reply.Tool != "" {
			msg["content"] = nil
			msg["tool_calls"] = []any{map[string]any{"id": "call_mock", "type": "function", "function": map[string]any{"name": reply.Tool, "arguments": argsJSON(reply.Args)}}}
			finish = "tool_calls"
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	ev := newSSE(w)
	chunk := func(delta map[string]any, finish any) bool {
		return ev.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	finish := "stop"
	if reply.Tool != "" {
		finish = "tool_calls"
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": "call_mock", "type": "function",
			"function": map[string]any{"name": reply.Tool, "arguments": argsJSON(reply.Args)}}}}, nil)
	} else {
		chunk(map[string]any{"role": "assistant", "content": ""}, nil)
		for _, wd := range words(reply.Text) {
			if !pause(r.Context(), reply.Delay) || !chunk(map[string]any{"content": wd}, nil) {
				return
			}
		}
	}
	chunk(map[string]any{}, finish)
	ev.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": body.Model, "choices": []any{}, "usage": usage})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// gemini serves the Gemini API: models/M:streamGenerateContent,
// :generateContent and :countTokens.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	model, method, _ := strings.Cut(path[i+len("/models/"):], ":")
	var body struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string          `json:"text"`
				FunctionResponse json.RawMessage `json:"functionResponse"`
				Thought          bool            `json:"thought"`
			} `json:"parts"`
		} `json:"contents"`
		GenerationConfig struct {
			ResponseMimeType string `json:"responseMimeType"`
		} `json:"generationConfig"`
	}
	raw, err := readJSON(r, &body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if method == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"totalTokens": 10}`)
		return
	}
	req := Request{API: Gemini, Path: path, Model: model, Stream: method == "streamGenerateContent", Body: raw,
		JSONMode: body.GenerationConfig.ResponseMimeType == "application/json"}
	for ci, c := range body.Contents {
		var texts []string
		result := false
		for _, p := range c.Parts {
			if p.Text != "" && !p.Thought {
				texts = append(texts, p.Text)
			}
			if len(p.FunctionResponse) > 0 {
				result = true
			}
		}
		req.Texts = append(req.Texts, texts...)
		if ci == len(body.Contents)-1 {
			req.ToolResult = result
		}
		if c.Role == "user" && len(texts) > 0 {
			req.User = said(texts)
		}
	}
	reply := s.record(req)
	if req.JSONMode {
		// gemini-cli's structured side requests (whose turn is next, loop
		// checks): the user speaks next, nothing loops.
		reply = Reply{Text: `{"next_speaker": "user", "reasoning": "The model answered.", "is_stuck": false}`}
	}
	usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	candidate := func(parts []any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			c["finishReason"] = finish
		}
		return map[string]any{"candidates": []any{c}, "usageMetadata": usage, "modelVersion": model}
	}
	if !req.Stream {
		parts := []any{map[string]any{"text": reply.Text}}
		if reply.Tool != "" {
			parts = []any{map[string]any{"functionCall": map[string]any{"name": reply.Tool, "args": reply.Args}}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(candidate(parts, "STOP"))
		return
	}
	ev := newSSE(w)
	if reply.Tool != "" {
		ev.event("", candidate([]any{map[string]any{"functionCall": map[string]any{"name": reply.Tool, "args": reply.Args}}}, "STOP"))
		return
	}
	ws := words(reply.Text)
	for i, wd := range ws {
		finish := ""
		if i == len(ws)-1 {
			finish = "STOP"
		}
		if !pause(r.Context(), reply.Delay) || !ev.event("", candidate([]any{map[string]any{"text": wd}}, finish)) {
			return
		}
	}
}

// anthropic serves Messages.
func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		System json.RawMessage `json:"system"`
		Tools  []any           `json:"tools"`
	}
	raw, err := readJSON(r, &body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{API: Anthropic, Path: r.URL.Path, Model: body.Model, Stream: body.Stream, Body: raw}
	for i, m := range body.Messages {
		texts, result := contentTexts(m.Content)
		req.Texts = append(req.Texts, texts...)
		if m.Role == "user" && !result && len(texts) > 0 {
			req.User = said(texts)
		}
		if i == len(body.Messages)-1 {
			req.ToolResult = result
		}
	}
	sys, _ := contentTexts(body.System)
	if len(body.Tools) == 0 && strings.Contains(strings.ToLower(strings.Join(sys, " ")), "title") {
		req.JSONMode = true // a title or topic request, not a turn
	}
	reply := s.record(req)
	if req.JSONMode {
		reply = Reply{Text: `{"title": "Mock title", "isNewTopic": false}`}
	}
	id := fmt.Sprintf("msg_mock_%d", time.Now().UnixNano())
	stop := "end_turn"
	var content []any
	if reply.Tool != "" {
		stop = "tool_use"
		content = []any{map[string]any{"type": "tool_use", "id": "toolu_mock", "name": reply.Tool, "input": reply.Args}}
	} else {
		content = []any{map[string]any{"type": "text", "text": reply.Text}}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	if !body.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant", "model": body.Model,
			"content": content, "stop_reason": stop, "usage": usage})
		return
	}
	ev := newSSE(w)
	ev.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": body.Model, "content": []any{}, "stop_reason": nil, "usage": usage}})
	if reply.Tool != "" {
		ev.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_mock", "name": reply.Tool, "input": map[string]any{}}})
		ev.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(reply.Args)}})
	} else {
		ev.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, wd := range words(reply.Text) {
			if !pause(r.Context(), reply.Delay) || !ev.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": wd}}) {
				return
			}
		}
	}
	ev.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
	ev.event("message_stop", map[string]any{"type": "message_stop"})
}
