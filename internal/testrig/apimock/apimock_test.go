package apimock

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
)

// A streamed Chat Completions turn arrives as one delta per word that join
// back to the reply, and the request is recorded with its conversation.
func TestOpenAIStreamsTheReplyAndRecordsTheTurn(t *testing.T) {
	s, err := Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"m2","stream":true,"tools":[{}],"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"first"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"text","text":"<reminder>"},{"type":"text","text":"second"}]}]}`
	resp, err := http.Post(s.URL()+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var text strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if i := strings.Index(line, `"content":"`); i >= 0 {
			rest := line[i+len(`"content":"`):]
			text.WriteString(rest[:strings.IndexByte(rest, '"')])
		}
	}
	if text.String() != "Hello from the mock model! You said: second" {
		t.Fatalf("streamed %q", text.String())
	}
	turns := s.Turns()
	if len(turns) != 1 || turns[0].Model != "m2" || turns[0].User != "second" || !turns[0].Carries("first") || turns[0].Carries("be brief") {
		t.Fatalf("recorded %+v", turns)
	}
}
