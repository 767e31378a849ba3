package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"cdxtheme/core/acp"
)

// An agent's status notice is shown on one status line: a huge or
// multi-line message is folded to one line and cut, with an ellipsis, at
// a bounded length in characters (never inside one).
func TestAgentStatusIsOneBoundedLine(t *testing.T) {
	long := strings.Repeat("Reconnecting ☁ \n", 100_000) // 1.6 MB, many lines
	meta, _ := json.Marshal(map[string]any{"codex": map[string]any{"error": map[string]any{
		"message": long, "additionalDetails": "short\tdetails", "codexErrorInfo": "responseStreamDisconnected", "willRetry": true,
	}}})
	s, ok := agentStatus(&acp.SessionInfoUpdate{Meta: meta})
	if !ok {
		t.Fatal("the notice was not read")
	}
	if n := utf8.RuneCountInString(s.Message); n != 300 || !strings.HasSuffix(s.Message, "…") || strings.ContainsAny(s.Message, "\n\t") || !utf8.ValidString(s.Message) {
		t.Fatalf("message of %d characters: %.80q…", n, s.Message)
	}
	if s.Details != "short details" || !s.Retrying || s.Code != "responseStreamDisconnected" {
		t.Fatalf("status %+v", s)
	}
}
