package acp

import (
	"encoding/json"
	"errors"
	"fmt"
)

// JSON-RPC and ACP error codes (schema ErrorCode).
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800
	CodeAuthRequired     = -32000
	CodeResourceNotFound = -32002
)

// RPCError is a JSON-RPC error object, sent or received.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	if len(e.Data) > 0 && string(e.Data) != "null" {
		return fmt.Sprintf("agent error %d: %s (%s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("agent error %d: %s", e.Code, e.Message)
}

// ErrorCode returns the JSON-RPC code of err if it is (or wraps) an
// *RPCError, and 0 otherwise.
func ErrorCode(err error) int {
	var re *RPCError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}
