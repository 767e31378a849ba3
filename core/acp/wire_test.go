package acp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// updates sends each update (the value of "update") through a real Conn
// and returns what its handler got, with the decode error of each.
func updates(t *testing.T, bodies ...string) ([]SessionNotification, []error) {
	t.Helper()
	p := newPeer(t, Options{})
	var got []SessionNotification
	var errs []error
	p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
		got = append(got, n)
		errs = append(errs, err)
	})
	p.conn.Start()
	for _, b := range bodies {
		p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + b + `}}`)
	}
	p.barrier()
	if len(got) != len(bodies) {
		t.Fatalf("%d updates handled, %d sent", len(got), len(bodies))
	}
	return got, errs
}

// Text with JSON escapes reads as encoding/json reads it: accents, CJK,
// an emoji as a surrogate pair, hex digits of either case, control escapes.
func TestEscapedTextReadsAsJSONSaysIt(t *testing.T) {
	texts := []string{`caf\u00e9`, `CAF\u00C9`, `\u4e2d\u6587`, `\ud83d\ude00 ok`, `tab\there\nline \"q\" \\ \/`, `\u00aF\u00Af`, `\u00A9\u00FA\u00fa\u0039`}
	var bodies []string
	for _, s := range texts {
		bodies = append(bodies, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+s+`"}}`)
	}
	got, _ := updates(t, bodies...)
	for i, s := range texts {
		var want string
		if err := json.Unmarshal([]byte(`"`+s+`"`), &want); err != nil {
			t.Fatal(err)
		}
		if c := got[i].Update.Content; c == nil || c.Text != want {
			t.Errorf("%s read as %+v, want %q", s, c, want)
		}
	}
}

// A \u escape with a digit that is not hex is refused, as encoding/json
// refuses it, instead of being read as some other character.
func TestBadUnicodeEscapeIsNotReadAsText(t *testing.T) {
	for _, esc := range []string{`\u00G9`, `\u00g9`, `\u0:41`} {
		p := newPeer(t, Options{})
		var texts []string
		p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) {
			if n.Update.Content != nil {
				texts = append(texts, n.Update.Content.Text)
			}
		})
		p.conn.Start()
		p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x` + esc + `"}}}}`)
		p.barrier()
		if len(texts) != 0 || p.conn.BadLines() != 1 {
			t.Errorf("%s: read as %q, %d bad lines; want a bad line", esc, texts, p.conn.BadLines())
		}
	}
}

// Read through encoding/json (tool call content, saved blocks), an
// unknown block keeps its type too.
func TestUnknownBlockKeepsItsTypeThroughEncodingJSON(t *testing.T) {
	var b ContentBlock
	if err := json.Unmarshal([]byte(`{"type":"smell","text":5}`), &b); err != nil || b.Type != "smell" || b.Known() {
		t.Fatalf("block = %+v, err = %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"type":"text","text":5}`), &b); err == nil {
		t.Fatal("a text block with a number for text was read")
	}
}

// A block of a type this client does not know keeps its type even when it
// uses our field names for something else; a known block whose fields are
// of the wrong type is an error, never an empty chunk.
func TestContentBlocksOfUnknownAndWrongShape(t *testing.T) {
	got, errs := updates(t,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"smell","text":5,"data":{"x":1}}}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":5}}`,
	)
	if c := got[0].Update.Content; errs[0] != nil || c == nil || c.Type != "smell" || c.Known() {
		t.Errorf("unknown block = %+v (%v)", c, errs[0])
	}
	if errs[1] == nil || !strings.Contains(errs[1].Error(), "text") {
		t.Errorf("a text block with a number for text: err = %v, content %+v", errs[1], got[1].Update.Content)
	}
}

// The usage update's cost is there when the agent sent one, nil when it
// sent null or nothing.
func TestUsageCost(t *testing.T) {
	got, _ := updates(t,
		`{"sessionUpdate":"usage_update","used":10,"size":100,"cost":{"amount":0.25,"currency":"USD"}}`,
		`{"sessionUpdate":"usage_update","used":10,"size":100,"cost":null}`,
		`{"sessionUpdate":"usage_update","used":12,"size":100}`,
	)
	if u := got[0].Update.Usage; u == nil || u.Cost == nil || u.Cost.Amount != 0.25 || u.Cost.Currency != "USD" || u.Used != 10 || u.Size != 100 {
		t.Errorf("usage with a cost = %+v", u)
	}
	for _, i := range []int{1, 2} {
		if u := got[i].Update.Usage; u == nil || u.Cost != nil {
			t.Errorf("usage %d without a cost = %+v", i, u)
		}
	}
}

// A command without a name cannot be offered: it is left out, the others
// stay, also one whose input has another shape.
func TestCommandsWithoutANameAreLeftOut(t *testing.T) {
	got, _ := updates(t, `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"","description":"ghost"},{"name":"review","description":"Review"},{"name":"init","description":"Init","input":"odd"}]}`)
	var names []string
	for _, c := range got[0].Update.Commands {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "review,init" {
		t.Fatalf("commands = %v", names)
	}
}

// An agent answering one request twice cannot stall the link: the second
// answer is dropped, and later calls still get theirs.
func TestDuplicateResponsesAreDropped(t *testing.T) {
	p := newPeer(t, Options{})
	p.conn.Start()
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req := p.next()
	for range 3 {
		p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"sessions":[]}}`)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	req = p.next()
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"sessions":[]}}`)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the link stalled on a duplicate response")
	}
}
