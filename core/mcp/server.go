// Package mcp is the app's Model Context Protocol server: the tools that
// let an agent check its own work on a theme (the app's contrast check, a
// rendered picture, the role catalogue, an exporter's output) while it
// works, instead of after its turn. It speaks MCP over stdio
// (newline-delimited JSON-RPC 2.0, revision 2025-11-25) and is bound to
// one workspace, which it only reads: the agent writes theme.json itself.
//
// Everything a request carries is untrusted (the agent's model writes the
// arguments): every message and every answer is bounded, a path must lie
// inside the workspace (core/inside) and is read as a regular file that is
// not a link (core/fsread), and a malformed request gets a JSON-RPC error,
// never a crash.
package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// ProtocolVersion is the MCP revision this server implements; Supported
// are those it accepts from a client (a client asking for another gets
// this one, as the specification's version negotiation says).
const ProtocolVersion = "2025-11-25"

var supported = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Bounds.
const (
	// MaxMessage bounds one incoming line; a request is a few hundred
	// bytes, so anything near this is not a request.
	MaxMessage = 1 << 20
	// MaxResult bounds one answer (a rendered PNG in base64 is the
	// largest, well under it).
	MaxResult = 4 << 20
)

// JSON-RPC error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
)

// Config binds a server to its workspace.
type Config struct {
	// Dir is the workspace folder holding theme.json.
	Dir string
	// EditsFile is the app's hand-edit record of this workspace (the
	// locked colours and the designer's own edits), "" when there is
	// none. It lives outside the workspace, where the agent cannot write.
	EditsFile string
	// Version is the app's version, for serverInfo.
	Version string
}

// Server answers MCP requests for one workspace.
type Server struct {
	cfg Config
	mu  sync.Mutex // one writer on the stream
}

// New checks that dir is a folder and returns its server.
func New(cfg Config) (*Server, error) {
	fi, err := os.Stat(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s: not a folder", cfg.Dir)
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	return &Server{cfg: cfg}, nil
}

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// Serve answers the requests read from r on w until r ends or ctx is
// done. Each line is one message; requests are answered in order.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for ctx.Err() == nil {
		line, err := readLine(br, MaxMessage)
		if errors.Is(err, errTooLong) {
			s.write(w, errorResponse(nil, codeParse, fmt.Sprintf("message over %d bytes", MaxMessage)))
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if out := s.Handle(ctx, line); out != nil {
				if werr := s.write(w, out); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mcp: read: %w", err)
		}
	}
	return ctx.Err()
}

var errTooLong = errors.New("line too long")

// readLine reads one line of at most limit bytes; a longer one is read to
// its end and dropped (errTooLong), so one huge message cannot take the
// memory and the next one is still read.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var buf []byte
	over := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !over {
			if len(buf)+len(chunk) > limit {
				over, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errTooLong
		}
		return buf, err
	}
}

func (s *Server) write(w io.Writer, msg []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := w.Write(append(msg, '\n'))
	return err
}

func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}})
	return b
}

// Handle answers one message: the response's bytes, or nil for a
// notification (or a response from the client, which this server never
// asks for).
func (s *Server) Handle(ctx context.Context, line []byte) (out []byte) {
	var req request
	defer func() {
		// A bug in a tool must cost one request, not the server.
		if r := recover(); r != nil {
			out = errorResponse(req.ID, codeInternal, fmt.Sprintf("internal error: %v", r))
		}
	}()
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return errorResponse(nil, codeInvalidRequest, "batches are not supported (MCP 2025-06-18 removed them)")
	}
	if err := json.Unmarshal(trimmed, &req); err != nil {
		return errorResponse(nil, codeParse, "not a JSON-RPC message: "+err.Error())
	}
	if !validID(req.ID) {
		return errorResponse(nil, codeInvalidRequest, "id must be a string or a number")
	}
	if req.Method == nil {
		if len(req.ID) > 0 {
			return nil // a response to nothing we asked: ignore
		}
		return errorResponse(nil, codeInvalidRequest, "a message without a method")
	}
	notification := len(req.ID) == 0
	if req.JSONRPC != "2.0" {
		if notification {
			return nil
		}
		return errorResponse(req.ID, codeInvalidRequest, `jsonrpc must be "2.0"`)
	}
	if notification {
		return nil // initialized, cancelled, …: nothing to do
	}
	result, rerr := s.dispatch(ctx, *req.Method, req.Params)
	if rerr != nil {
		return errorResponse(req.ID, rerr.Code, rerr.Message)
	}
	b, err := json.Marshal(response{JSONRPC: "2.0", ID: req.ID, Result: result})
	if err != nil {
		return errorResponse(req.ID, codeInternal, "encode the result: "+err.Error())
	}
	if len(b) > MaxResult {
		return errorResponse(req.ID, codeInternal, fmt.Sprintf("the result is %d bytes, over the %d bytes this server sends", len(b), MaxResult))
	}
	return b
}

// validID: absent (a notification), a string or a number; null is not an
// id MCP allows.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	switch id[0] {
	case '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
	return false
}

func (s *Server) dispatch(ctx context.Context, method string, params json.RawMessage) (any, *rpcError) {
	switch method {
	case "initialize":
		return s.initialize(params)
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return map[string]any{"tools": tools()}, nil
	case "tools/call":
		return s.call(ctx, params)
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q not found (this server offers initialize, ping, tools/list and tools/call)", method)}
}

func (s *Server) initialize(params json.RawMessage) (any, *rpcError) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &rpcError{Code: codeInvalidParams, Message: "initialize params: " + err.Error()}
		}
	}
	version := ProtocolVersion
	for _, v := range supported {
		if v == p.ProtocolVersion {
			version = v
		}
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
		"serverInfo":      map[string]any{"name": ServerName, "title": "CDXTheme theme tools", "version": s.cfg.Version},
		"instructions":    instructions,
	}, nil
}

// ServerName is the server's name, which agents put before its tools'
// names (Codex: mcp__cdxtheme__theme_check).
const ServerName = "cdxtheme"

const instructions = `Tools for the colour theme in this workspace's theme.json. They only read; you write theme.json yourself. ` +
	`After every change to theme.json, call theme_check and fix what it reports (parse errors, contrast pairs below target, locked colours you changed) before you say you are done. ` +
	`If you can read images, call theme_render to look at the theme. theme_roles lists every role and what it derives from; theme_export shows what one editor or terminal receives.`
