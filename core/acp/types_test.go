package acp

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

type wireLine struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

// transcript returns the agent→client messages of a real wire log, and the
// client's requests by id (per probe run, ids restart; we key by order).
func transcript(t *testing.T, name string) (fromAgent []envelope, fromClient []envelope) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l wireLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.Msg == nil {
			continue // a _comment line
		}
		var m envelope
		if err := json.Unmarshal(l.Msg, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.Dir == "agent->client" {
			fromAgent = append(fromAgent, m)
		} else {
			fromClient = append(fromClient, m)
		}
	}
	return fromAgent, fromClient
}

// Every session/update both real adapters sent decodes, chunks carry their
// text, and re-encoding gives back exactly what the agent sent.
func TestRealTranscriptUpdates(t *testing.T) {
	for _, name := range []string{"acp-codex-acp-2.6.0.transcript.jsonl", "acp-zed-codex-acp-0.16.0.transcript.jsonl"} {
		t.Run(name, func(t *testing.T) {
			agent, _ := transcript(t, name)
			kinds := map[string]int{}
			for _, m := range agent {
				if m.Method != MethodSessionUpdate {
					continue
				}
				var n SessionNotification
				if err := json.Unmarshal(m.Params, &n); err != nil {
					t.Fatalf("update %s: %v", m.Params, err)
				}
				kinds[n.Update.Kind]++
				if n.SessionID == "" {
					t.Errorf("update without session id: %s", m.Params)
				}
				if n.Update.IsChunk() && (n.Update.Content == nil || !n.Update.Content.Known()) {
					t.Errorf("chunk without a known content block: %s", n.Update.Raw)
				}
				u := n.Update
				typed := map[string]bool{
					UpdateToolCall: u.ToolCall != nil && u.ToolCall.ToolCallID != "", UpdateToolCallUpdate: u.ToolCall != nil && u.ToolCall.ToolCallID != "",
					UpdatePlan: u.Plan != nil, UpdateConfigOption: u.ConfigOptions != nil, UpdateAvailableCommands: len(u.Commands) > 0,
					UpdateCurrentMode: u.ModeID != "", UpdateUsage: u.Usage != nil && u.Usage.Size > 0, UpdateSessionInfo: u.Info != nil,
				}
				if ok, known := typed[u.Kind]; known && !ok {
					t.Errorf("%s not decoded into its variant: %+v", u.Kind, u)
				}
				out, err := json.Marshal(n.Update)
				if err != nil {
					t.Fatal(err)
				}
				var a, b any
				json.Unmarshal(out, &a)
				var orig struct {
					Update json.RawMessage `json:"update"`
				}
				json.Unmarshal(m.Params, &orig)
				json.Unmarshal(orig.Update, &b)
				if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
					t.Errorf("update changed on round trip:\n got %s\nwant %s", ja, jb)
				}
			}
			for _, k := range []string{UpdateAgentMessageChunk, UpdateToolCall, UpdateToolCallUpdate, UpdateUsage, UpdateAvailableCommands} {
				if kinds[k] == 0 {
					t.Errorf("no %s decoded; kinds = %v", k, kinds)
				}
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRealInitializeAndSessionResults(t *testing.T) {
	tests := []struct {
		file           string
		authIDs        string
		image, audio   bool
		modelCategory  string
		permissionKind string
	}{
		{"acp-codex-acp-2.6.0.transcript.jsonl", "api-key,chat-gpt", true, false, CategoryModel, KindAllowOnce},
		{"acp-zed-codex-acp-0.16.0.transcript.jsonl", "chatgpt,codex-api-key,openai-api-key", true, false, CategoryModel, ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			agent, _ := transcript(t, tc.file)
			var sawInit, sawNew bool
			for _, m := range agent {
				switch {
				case m.Result != nil && strings.Contains(string(m.Result), `"agentCapabilities"`):
					var r InitializeResponse
					if err := json.Unmarshal(m.Result, &r); err != nil {
						t.Fatal(err)
					}
					sawInit = true
					if r.ProtocolVersion != 1 || !r.AgentCapabilities.LoadSession || r.AgentCapabilities.SessionCapabilities.Resume == nil || r.AgentCapabilities.SessionCapabilities.List == nil {
						t.Errorf("capabilities = %+v", r.AgentCapabilities)
					}
					pc := r.AgentCapabilities.PromptCapabilities
					if pc.Image != tc.image || pc.Audio != tc.audio || !pc.EmbeddedContext {
						t.Errorf("prompt capabilities = %+v", pc)
					}
					var ids []string
					for _, am := range r.Methods() {
						ids = append(ids, am.ID)
					}
					if strings.Join(ids, ",") != tc.authIDs {
						t.Errorf("auth methods = %v", ids)
					}
				case m.Result != nil && strings.Contains(string(m.Result), `"sessionId"`) && strings.Contains(string(m.Result), `"configOptions"`):
					var r NewSessionResponse
					if err := json.Unmarshal(m.Result, &r); err != nil {
						t.Fatal(err)
					}
					sawNew = true
					model, ok := FindConfigOption(r.ConfigOptions, tc.modelCategory, "model")
					if !ok || model.Type != "select" || model.Value == "" || len(model.Values()) == 0 {
						t.Errorf("model option = %+v", model)
					}
					if r.Modes == nil || len(r.Modes.AvailableModes) < 3 || r.Modes.CurrentModeID == "" {
						t.Errorf("modes = %+v", r.Modes)
					}
				case m.Method == MethodRequestPermission:
					var r RequestPermissionRequest
					if err := json.Unmarshal(m.Params, &r); err != nil {
						t.Fatal(err)
					}
					if len(r.Options) == 0 || r.Options[0].Kind != tc.permissionKind {
						t.Errorf("permission options = %+v", r.Options)
					}
					tc2, err := DecodeToolCall(r.ToolCall)
					if err != nil || tc2.ToolCallID == "" {
						t.Errorf("permission tool call = %+v, %v", tc2, err)
					}
				case m.Error != nil:
					if m.Error.Code != CodeAuthRequired {
						t.Errorf("unexpected error %v", m.Error)
					}
				}
			}
			if !sawInit || !sawNew {
				t.Fatalf("initialize seen %v, session/new seen %v", sawInit, sawNew)
			}
		})
	}
}

func TestContentBlockRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(ContentBlock) bool
	}{
		{"text with annotations and meta", `{"type":"text","text":"hi","annotations":{"priority":0.5},"_meta":{"a":1}}`,
			func(b ContentBlock) bool { return b.Text == "hi" && string(b.Meta) == `{"a":1}` }},
		{"empty text", `{"type":"text","text":""}`, func(b ContentBlock) bool { return b.Known() && b.Text == "" }},
		{"image", `{"type":"image","data":"iVBORw0K","mimeType":"image/png","uri":"file:///a.png"}`,
			func(b ContentBlock) bool {
				return b.Data == "iVBORw0K" && b.MimeType == "image/png" && b.URI == "file:///a.png"
			}},
		{"audio", `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`,
			func(b ContentBlock) bool { return b.Data == "UklGRg==" && b.MimeType == "audio/wav" }},
		{"resource_link", `{"type":"resource_link","uri":"file:///w/theme.json","name":"theme.json","size":42,"mimeType":"application/json"}`,
			func(b ContentBlock) bool {
				return b.URI == "file:///w/theme.json" && b.Name == "theme.json" && *b.Size == 42
			}},
		{"text resource", `{"type":"resource","resource":{"uri":"file:///w/a.txt","text":"abc","mimeType":"text/plain"}}`,
			func(b ContentBlock) bool { return *b.Resource.Text == "abc" && b.Resource.Blob == nil }},
		{"blob resource", `{"type":"resource","resource":{"uri":"file:///w/a.bin","blob":"AAE="}}`,
			func(b ContentBlock) bool { return *b.Resource.Blob == "AAE=" && b.Resource.Text == nil }},
		{"unknown type keeps only raw", `{"type":"hologram","text":5,"data":"x"}`,
			func(b ContentBlock) bool { return !b.Known() && b.Type == "hologram" && b.Text == "" && b.Data == "" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b ContentBlock
			if err := json.Unmarshal([]byte(tc.in), &b); err != nil {
				t.Fatal(err)
			}
			if !tc.check(b) {
				t.Fatalf("decoded %+v", b)
			}
			out, _ := json.Marshal(b)
			if string(out) != tc.in {
				t.Fatalf("round trip %s", out)
			}
			b.Raw = nil // re-encode from the fields: same meaning
			if !b.Known() {
				return
			}
			out, err := json.Marshal(b)
			if err != nil {
				t.Fatal(err)
			}
			var x, y any
			json.Unmarshal(out, &x)
			json.Unmarshal([]byte(tc.in), &y)
			if mustJSON(x) != mustJSON(y) {
				t.Fatalf("fields re-encode as %s", out)
			}
		})
	}
}

func TestContentBlockRejectsIncomplete(t *testing.T) {
	tests := []ContentBlock{
		{Type: BlockImage, MimeType: "image/png"},
		{Type: BlockAudio, Data: "x"},
		{Type: BlockResourceLink, URI: "file:///a"},
		{Type: BlockResource, Resource: &ResourceContents{URI: "file:///a"}},
		{Type: "hologram"},
	}
	for _, b := range tests {
		if out, err := json.Marshal(b); err == nil {
			t.Errorf("%s block encoded as %s, want an error", b.Type, out)
		}
	}
}

func TestConfigOptionShapes(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		values string
		check  func(ConfigOption) bool
	}{
		{"flat select", `{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"gpt-5.4"}]}`,
			"gpt-5.5,gpt-5.4", func(o ConfigOption) bool { return o.Value == "gpt-5.5" && o.Category == CategoryModel }},
		{"grouped select", `{"id":"m","name":"Model","type":"select","currentValue":"b","options":[{"group":"g1","name":"Fast","options":[{"value":"a","name":"A"}]},{"group":"g2","name":"Deep","options":[{"value":"b","name":"B"}]}]}`,
			"a,b", func(o ConfigOption) bool { return len(o.Groups) == 2 && o.Groups[1].Name == "Deep" && o.HasValue("b") }},
		{"boolean", `{"id":"fast-mode","name":"Fast","category":"model_config","type":"boolean","currentValue":true}`,
			"", func(o ConfigOption) bool { return o.Bool && o.Type == "boolean" }},
		{"unknown type", `{"id":"slider","name":"S","type":"range","currentValue":3,"min":0}`,
			"", func(o ConfigOption) bool { return o.Type == "range" && o.Value == "" }},
		{"odd item skipped", `{"id":"e","name":"E","category":"thought_level","type":"select","currentValue":"low","options":[{"_trimmed":"2 more"},{"value":"low","name":"Low"}]}`,
			"low", func(o ConfigOption) bool { return o.Category == CategoryThoughtLevel }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var o ConfigOption
			if err := json.Unmarshal([]byte(tc.in), &o); err != nil {
				t.Fatal(err)
			}
			var vals []string
			for _, v := range o.Values() {
				vals = append(vals, v.Value)
			}
			if strings.Join(vals, ",") != tc.values || !tc.check(o) {
				t.Fatalf("decoded %+v (values %v)", o, vals)
			}
			if out, _ := json.Marshal(o); string(out) != tc.in {
				t.Fatalf("round trip %s", out)
			}
		})
	}
}

func TestFindConfigOptionPrefersCategory(t *testing.T) {
	opts := []ConfigOption{
		{ID: "model", Type: "select"},
		{ID: "llm", Category: CategoryModel, Type: "select"},
	}
	if o, _ := FindConfigOption(opts, CategoryModel, "model"); o.ID != "llm" {
		t.Fatalf("got %s, want the option with category model", o.ID)
	}
	if o, _ := FindConfigOption(opts[:1], CategoryModel, "model"); o.ID != "model" {
		t.Fatalf("got %q, want the id fallback", o.ID)
	}
	if _, ok := FindConfigOption(opts, CategoryThoughtLevel, ""); ok {
		t.Fatal("found a thought_level option that is not there")
	}
}

func TestRequestEncoding(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"new session sends mcpServers []", NewSessionRequest{Cwd: "/w"}, `{"cwd":"/w","mcpServers":[]}`},
		{"load", LoadSessionRequest{SessionID: "s", Cwd: "/w"}, `{"sessionId":"s","cwd":"/w","mcpServers":[]}`},
		{"resume", ResumeSessionRequest{SessionID: "s", Cwd: "/w"}, `{"sessionId":"s","cwd":"/w","mcpServers":[]}`},
		{"select value", SetConfigOptionRequest{SessionID: "s", ConfigID: "model", Value: "gpt-5.5"}, `{"sessionId":"s","configId":"model","value":"gpt-5.5"}`},
		{"boolean value", SetConfigOptionRequest{SessionID: "s", ConfigID: "fast", Bool: &yes}, `{"sessionId":"s","configId":"fast","type":"boolean","value":true}`},
		{"initialize", InitializeRequest{ProtocolVersion: 1, ClientInfo: &Implementation{Name: "cdxtheme", Version: "1.0"}},
			`{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false},"clientInfo":{"name":"cdxtheme","version":"1.0"}}`},
		{"permission selected", Selected("approved"), `{"outcome":{"outcome":"selected","optionId":"approved"}}`},
		{"permission cancelled", Cancelled(), `{"outcome":{"outcome":"cancelled"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Fatalf("got  %s\nwant %s", out, tc.want)
			}
		})
	}
}
