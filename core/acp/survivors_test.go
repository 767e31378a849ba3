package acp

import (
	"context"
	"encoding/json"
	"testing"
)

// A request the app answers with nothing gets a result the agent can read
// ({}), not a response without one: JSON-RPC needs "result" on success.
func TestRequestAnsweredWithNothingGetsAnEmptyResult(t *testing.T) {
	p := newPeer(t, Options{})
	p.conn.HandleRequest("x/y", func(ctx context.Context, id, params json.RawMessage) (any, error) {
		return nil, nil
	})
	p.conn.Start()
	p.send(`{"jsonrpc":"2.0","id":3,"method":"x/y","params":{}}`)
	resp := p.next()
	if string(resp["result"]) != "{}" || string(resp["id"]) != "3" {
		t.Fatalf("response = %v, want result {}", resp)
	}
}

// A tool call reaches the app with its id, title, kind and status; a title
// that is not a string is absent, an id that is not one is an error.
func TestToolCallFieldsAreRead(t *testing.T) {
	got, errs := updates(t,
		`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read theme.json","kind":"read","status":"pending"}`,
		`{"sessionUpdate":"tool_call","toolCallId":"c2","title":5}`,
		`{"sessionUpdate":"tool_call","toolCallId":7}`)
	tc := got[0].Update.ToolCall
	if errs[0] != nil || tc == nil || tc.ToolCallID != "c1" {
		t.Fatalf("tool call = %+v, err %v", tc, errs[0])
	}
	if tc.Title == nil || *tc.Title != "Read theme.json" || tc.Kind == nil || *tc.Kind != "read" || tc.Status == nil || *tc.Status != "pending" {
		t.Errorf("title/kind/status = %v/%v/%v", tc.Title, tc.Kind, tc.Status)
	}
	if tc := got[1].Update.ToolCall; errs[1] != nil || tc == nil || tc.ToolCallID != "c2" || tc.Title != nil {
		t.Errorf("numeric title: %+v, err %v", tc, errs[1])
	}
	if errs[2] == nil {
		t.Error("a numeric toolCallId was accepted")
	}
}

// Numbers of several digits and with exponents, as the adapters put them in
// usage updates and raw inputs, are read in the one pass, not by falling
// back to encoding/json.
func TestNumbersTakeTheOnePassPath(t *testing.T) {
	var d lineDecoder
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":12345,"size":200000}}}`,
		`{"jsonrpc":"2.0","id":12,"result":{"n":-1.5e+3,"m":2E-3,"k":1e5}}`,
	} {
		var got decoded
		if !d.fast([]byte(line), &got) {
			t.Errorf("fell back to encoding/json: %s", line)
		}
	}
}
