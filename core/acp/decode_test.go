package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// decodeCases are lines of every shape the decoder must agree with
// encoding/json on: what agents send, and what only a hostile or broken
// one would.
var decodeCases = []string{
	// The hot path, as the adapters write it.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello "}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","messageId":"m1","content":{"type":"text","text":"hm"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"q","annotations":{"audience":["user"]},"_meta":{"k":1}}},"_meta":{"trace":"x"}}}`,
	// Escapes and Unicode in the text.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a\"b\\c\/d\b\f\n\r\t \u00e9 \u20ac \ud83d\ude00 é €"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"lone \ud800 high, lone \udc00 low, pair-less \ud800\u0041, \u0000"}}}}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\xff1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"bad \xc3\x28 utf8 \xed\xa0\x80 surrogate \xf0\x9f\x98\"}}}}",
	"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"ctl \x01 char\"}}}}",
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"bad escape \x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"short \u12"}}}}`,
	// Whitespace everywhere, members in another order, params before method.
	" \t{ \"params\" : { \"update\" : { \"content\" : { \"text\" : \"x\" , \"type\" : \"text\" } , \"sessionUpdate\" : \"agent_message_chunk\" } , \"sessionId\" : \"s1\" } , \"method\" : \"session/update\" , \"jsonrpc\" : \"2.0\" } \r\n",
	`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"content":{"type":"text","text":"late kind"},"sessionUpdate":"agent_message_chunk"},"sessionId":"s1"}}`,
	// Keys encoding/json would match in another case, escaped, or twice.
	`{"jsonrpc":"2.0","Method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"SessionID":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"SessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","TEXT":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","Data":"zz"}}}}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"\u017fessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"x\"}}}}",
	`{"jsonrpc":"2.0","meth\u006fd":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","method":"other","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","sessionId":"s2","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","text":"y"}}}}`,
	`{"jsonrpc":"2.0","method":"session\/update","params":{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","messageId":"m\u0031","content":{"type":"te\u0078t","text":"x"}}}}`,
	// Wrong types, nulls, missing parts.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":5,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":5}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":null}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":null,"content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":7,"content":{"type":"text","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":[{"type":"text","text":"x"}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":null}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":{"type":"text","text":"no kind"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":null}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":"text"}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":null}`,
	`{"jsonrpc":"2.0","method":"session/update","params":[1,2]}`,
	`{"jsonrpc":"2.0","method":"session/update"}`,
	`{"jsonrpc":2,"method":"session/update","params":{}}`,
	`{"jsonrpc":"1.0","method":"session/update","params":{}}`,
	`{"jsonrpc":"2.0","method":7}`,
	// Other block types and unknown ones.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"aGk=","mimeType":"image/png","uri":"file:///x.png"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","uri":"file:///a","name":"a","size":12}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"resource","resource":{"uri":"file:///a","text":"body"}}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"smell","scent":"rose"},"_meta":{"m":1}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"smell","text":5}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"text":"no type"}}}}`,
	// Other update kinds: raw, with whatever content they carry.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read","kind":"read","status":"pending","content":[{"type":"content","content":{"type":"text","text":"x"}}],"locations":[{"path":"/a","line":3}],"rawInput":{"n":-1.5e+3}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":{"type":"text","text":7}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":12,"size":200000,"cost":{"amount":0.25,"currency":"USD"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"hologram_update","beam":{"x":[true,false,null,0,-0,1e5,2E-3,0.5]}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","messageId":5}}}`,
	// Known kinds in odd shapes: lenient where the schema says so, else raw.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c2","title":5,"content":[{"type":"diff","path":"/a","newText":"x"},7,{"type":"terminal","terminalId":"t"}],"locations":"nope"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":7}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"a","status":"pending"},{"content":5},"x"]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","input":{"hint":"what"}},{"name":"odd","input":"text"},{"description":"no name"}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"plan"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":3}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","type":"select","currentValue":"auto","options":[{"value":"auto","name":"Auto"}]}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"session_info_update","title":"T","updatedAt":9}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":"many","size":1}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":"free"}}}}`,
	// Requests, responses, errors, other notifications.
	`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`,
	`{"jsonrpc":"2.0","id":"req-\u00e9","method":"fs/read_text_file","params":{"path":"/etc/passwd"}}`,
	`{"jsonrpc":"2.0","id":3,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`,
	`{"jsonrpc":"2.0","id":"7","result":null}`,
	`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params","data":{"why":"x"}}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"2.0","id":4,"error":null,"result":{"x":1}}`,
	`{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"none"}}}`,
	`{"jsonrpc":"2.0","id":1.5e2,"result":{}}`,
	`{"jsonrpc":"2.0","id":-0,"result":{}}`,
	`{"jsonrpc":"2.0","extra":{"deep":[[[[{"a":"b"}]]]]},"id":1,"result":{}}`,
	// Not messages, not JSON.
	`{}`, `[]`, `null`, `"text"`, `42`, `true`,
	`Debugger listening on ws://127.0.0.1:9229`,
	`{"jsonrpc":"2.0"}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"} x`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1"`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","sessionId":"s2"}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":"unterminated`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","type":"image","text":"x"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":5,"text":"x"}}}}`,
	// Cut one brace short: a decoder that lost its place inside would end
	// exactly at the end of the line and take it for a whole message.
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","type":"image","text":"x"}}}`,
	`{"jsonrpc":"2.0","id":01,"result":{}}`,
	`{"jsonrpc":"2.0","id":1.,"result":{}}`,
	`{"jsonrpc":"2.0","id":.5,"result":{}}`,
	`{"jsonrpc":"2.0","id":1e,"result":{}}`,
	`{"jsonrpc":"2.0","id":+1,"result":{}}`,
	`{"jsonrpc":"2.0","id":tru,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1,}}`,
	`{"jsonrpc":"2.0","id":1,"result":[1,]}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a" 1}}`,
	`{"jsonrpc":"2.0","id":1,"result":{1:2}}`,
	`{"jsonrpc":"2.0",}`,
	`{,}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"\x00\"}}",
	"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
	`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
}

// sameDecoding fails the test unless the one-pass decoder and the plain
// encoding/json one read line alike.
func sameDecoding(t *testing.T, d *lineDecoder, line []byte) {
	t.Helper()
	var got decoded
	gotErr := d.decode(line, &got)
	want, wantErr := decodeSlow(line)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("line %q: one-pass err = %v, encoding/json err = %v", line, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if g, w := describe(got), describe(want); g != w {
		t.Fatalf("line %q decodes differently:\none-pass:      %s\nencoding/json: %s", line, g, w)
	}
}

// describe renders everything a decoded line means, raw parts as bytes.
func describe(m decoded) string {
	var b strings.Builder
	raw := func(name string, r []byte) {
		if r == nil {
			fmt.Fprintf(&b, "%s=<nil> ", name)
		} else {
			fmt.Fprintf(&b, "%s=%q ", name, r)
		}
	}
	fmt.Fprintf(&b, "jsonrpc=%q method=%q ", m.JSONRPC, m.Method)
	raw("id", m.ID)
	raw("params", m.Params)
	raw("result", m.Result)
	if m.Error != nil {
		fmt.Fprintf(&b, "error=%d/%q/%q ", m.Error.Code, m.Error.Message, m.Error.Data)
	}
	fmt.Fprintf(&b, "noteErr=%v ", m.noteErr != nil)
	if n := m.note; n != nil {
		u := n.Update
		fmt.Fprintf(&b, "session=%q kind=%q message=%q ", n.SessionID, u.Kind, u.MessageID)
		raw("meta", n.Meta)
		raw("update", u.Raw)
		variant, _ := json.Marshal(struct {
			ToolCall      *ToolCall
			Plan          *Plan
			ConfigOptions []ConfigOption
			Commands      []Command
			ModeID        string
			Usage         *UsageUpdate
			Info          *SessionInfoUpdate
		}{u.ToolCall, u.Plan, u.ConfigOptions, u.Commands, u.ModeID, u.Usage, u.Info})
		fmt.Fprintf(&b, "variant=%s ", variant)
		if c := u.Content; c != nil {
			fmt.Fprintf(&b, "block={type=%q text=%q data=%q mime=%q uri=%q name=%q title=%q ", c.Type, c.Text, c.Data, c.MimeType, c.URI, c.Name, c.Title)
			if c.Size != nil {
				fmt.Fprintf(&b, "size=%d ", *c.Size)
			}
			if c.Resource != nil {
				res, _ := json.Marshal(c.Resource)
				fmt.Fprintf(&b, "resource=%s ", res)
			}
			raw("annotations", c.Annotations)
			raw("blockMeta", c.Meta)
			raw("blockRaw", c.Raw)
			b.WriteString("}")
		}
	}
	return b.String()
}

func TestOnePassDecodingMatchesEncodingJSON(t *testing.T) {
	var d lineDecoder
	for _, line := range decodeCases {
		sameDecoding(t, &d, []byte(line))
	}
	// And every message both real adapters sent, as sent and re-encoded
	// compactly with every envelope member present.
	for _, name := range transcripts {
		for _, line := range transcriptLines(t, name) {
			sameDecoding(t, &d, line)
			var m envelope
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			compact, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			sameDecoding(t, &d, compact)
		}
	}
}

var transcripts = []string{"acp-codex-acp-2.6.0.transcript.jsonl", "acp-zed-codex-acp-0.16.0.transcript.jsonl"}

// transcriptLines returns the messages of a real wire log as lines.
func transcriptLines(t *testing.T, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		var w wireLine
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		if err := json.Unmarshal(l, &w); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w.Msg != nil {
			out = append(out, w.Msg)
		}
	}
	return out
}

// The fast path must really be the path: every update of the real
// adapters, and the chunk shapes they send, are read in one pass.
func TestRealUpdatesTakeTheOnePassPath(t *testing.T) {
	var d lineDecoder
	n := 0
	for _, name := range transcripts {
		for _, line := range transcriptLines(t, name) {
			var got decoded
			if !d.fast(line, &got) {
				if !bytes.Contains(line, []byte(`"error":`)) {
					t.Errorf("%s: fell back to encoding/json for %s", name, line)
				}
				continue
			}
			if got.Method == MethodSessionUpdate {
				n++
				if got.note == nil || got.noteErr != nil {
					t.Errorf("%s: update not decoded in the pass: %s", name, line)
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d updates in the transcripts", n)
	}
	for _, line := range decodeCases[:5] {
		var got decoded
		if !d.fast([]byte(line), &got) || got.note == nil || got.note.Update.Content == nil {
			t.Errorf("chunk fell back to encoding/json: %s", line)
		}
	}
}

// The raw parts share the line (no copies), and the ids of a stream of
// chunks share one string.
func TestOnePassKeepsRawPartsOfTheLine(t *testing.T) {
	var d lineDecoder
	line := []byte(decodeCases[2])
	var m decoded
	if !d.fast(line, &m) {
		t.Fatal("fell back")
	}
	for name, part := range map[string][]byte{"params": m.Params, "update": m.note.Update.Raw, "block": m.note.Update.Content.Raw, "meta": m.note.Meta} {
		if i := bytes.Index(line, part); i < 0 || &line[i] != &part[0] {
			t.Errorf("%s is not a subslice of the line", name)
		}
	}
	var m2 decoded
	if !d.fast([]byte(decodeCases[2]), &m2) {
		t.Fatal("fell back")
	}
	if m2.note.SessionID != "s1" || unsafe.StringData(m.note.SessionID) != unsafe.StringData(m2.note.SessionID) {
		t.Error("the session id of the second chunk is a new string")
	}
}

func FuzzDecodeLine(f *testing.F) {
	for _, line := range decodeCases {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var d lineDecoder
		sameDecoding(t, &d, line)
	})
}
