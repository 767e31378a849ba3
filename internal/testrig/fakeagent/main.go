// Command fakeagent is a scripted ACP v1 agent over stdio for tests. It is
// written against the wire format only (its own JSON shapes, not core/acp),
// so it checks our client from the outside. Behaviour is chosen by
// FAKE_AGENT_SCENARIO or per prompt by a "#scenario" tag in the prompt text
// (the first known tag wins):
//
//	normal            "You said: <prompt>\n" then "Hello from the fake agent." in chunks, thought, plan, usage
//	big-frame         one agent_message_chunk of FAKE_AGENT_FRAME_BYTES
//	burst             FAKE_AGENT_BURST chunks of "x" in one write
//	ids               two permission requests with ids 0 and a string UUID
//	permission        tool_call, then request_permission with all four option kinds (ids unlike kinds),
//	                  then tool_call_update with _meta.terminal_output; text names the chosen kind
//	permission-first  request_permission (UUID id) before its tool_call, like the Rust adapter
//	kinds             tool calls of kind execute, edit, execute, each asked for by id only (no kind)
//	permission-hidden request_permission for bash -lc with a tail hidden behind 30 blank lines and U+202E
//	unknown           unknown update variant, unknown content block, _meta, _auth/status_update
//	crash             a few chunks, "fatal: simulated crash" on stderr, exit 3
//	hang              never answers; ignores stdin close and SIGTERM; starts a grandchild
//	garbage           a non-JSON line mid-stream
//	exit-early        exit 1 on initialize (env only)
//	exit-clean        exit 0 at once, reading nothing, saying nothing (env only)
//	silent-start      never answers initialize, though it reads on and exits when stdin closes (env only)
//	auth              session/new|load|resume fail −32000 until authenticate (remembered in the state dir);
//	                  advertises auth.logout, and logout forgets the sign-in
//	slow              "tick N" every 50 ms for 5 s; session/cancel ends it with stopReason cancelled
//	theme             writes theme.json into the session cwd twice, 300 ms apart, as edit tool calls with diffs
//	theme-tools       "theme", then starts the cdxtheme MCP server given in session/new and calls
//	                  theme_check and theme_render on it, reported as codex-acp 2.6.0 reports MCP calls
//	options           extra config options (grouped select, boolean) and a config_option_update
//	commands          available_commands_update with descriptions and input hints
//	echo-blocks       replies "Blocks: <types of the prompt's content blocks>"
//	links             resource_link chunks to <cwd>/theme.json and /etc/passwd
//	navigation        a reply of navigation vectors (navigation.md) aimed at the first loopback URL in
//	                  the prompt, a tool title with markup, a resource_link there
//	stderr-flood      answers like normal while writing FAKE_AGENT_STDERR_BYTES to stderr
//	grandchild        starts a grandchild that ignores SIGTERM and SIGINT (pids in FAKE_AGENT_PIDS),
//	                  then "tick N" every 100 ms until session/cancel, up to 10 min
//	escapes           terminal control sequences (OSC 52, CSI, C1) in its text, thought, plan,
//	                  tool title, permission options and session title
//	code              writes theme.json (edit card), runs a command (execute card with output), answers
//	                  with fenced css and ts blocks, one line wider than any window
//	settings          "Running with mode=…, model=…, reasoning_effort=…": the values the agent holds
//	retry             FAKE_AGENT_RETRIES codex-acp-shaped "Reconnecting…" notices, then an answer
//	server-error      the model server's failure as
//	                  codex-acp 2.x words it: "unexpected status 500 …\n\n" as text with no messageId, end_turn
//	stall             one chunk, then silence for FAKE_AGENT_STALL_MS (or until cancelled)
//	flood             FAKE_AGENT_FLOOD_BYTES (default 400 MB) of text chunks of 4 KiB as fast as
//	                  they are read; session/cancel ends it
//
// Like codex-acp, session settings live in the process: a session loaded or
// resumed by a new process starts from the defaults. The model "gpt-5-pro"
// is listed but refused by set_config_option.
//
// Environment:
//
//	FAKE_AGENT_SCENARIO      default scenario (normal)
//	FAKE_AGENT_STATE         dir for sessions + auth state (default $TMPDIR/fakeagent-state)
//	FAKE_AGENT_LOG           append every received message here as a JSON line
//	FAKE_AGENT_FRAME_BYTES   big-frame size (default 20 MiB)
//	FAKE_AGENT_BURST         burst chunk count (default 100000)
//	FAKE_AGENT_STDERR_BYTES  stderr-flood size (default 100 MB)
//	FAKE_AGENT_PIDS          grandchild: the file that gets "AGENT_PID GRANDCHILD_PID"
//	FAKE_AGENT_RETRIES       retry notices (default 2), FAKE_AGENT_RETRY_MS apart (default 300)
//	FAKE_AGENT_STALL_MS      stall silence (default 60000)
//	FAKE_AGENT_NO_EMBEDDED   1: no embeddedContext capability (the app saves attachments as files)
//	FAKE_AGENT_SHAPE         "models": shaped like gemini-cli and claude-code-acp, the
//	                         sessions report modes and the unstable "models" state (no
//	                         configOptions) and the model is set with session/set_model
//	FAKE_AGENT_LATE_REPLAY   "paced": like gemini-cli, no session/resume, and session/load
//	                         sends the second half of its history replay after its response,
//	                         one update each 20 ms, as gemini-cli's unawaited replay task (the
//	                         replay sent just before the next answer is scripted inline in
//	                         core/chat's stub tests)
//	FAKE_AGENT_EXIT_ON_PROMPT N: exit 1 without a word on this process's Nth session/prompt
//	                         (a warm connection that is alive between turns and dies as one starts)
//	FAKE_AGENT_EXIT_ON_SET=1: exit 1 without a word on session/set_config_option
//	FAKE_AGENT_RECORD        PREFIX: write the first argument to PREFIX.arg and the environment to PREFIX.env
//	FAKE_AGENT_OPEN_BROWSER  1: authenticate with chat-gpt hands a sign-in URL to the OS
//	                         opener (xdg-open, as codex-acp's login does) and waits for it
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// safetyLimit ends processes that a test forgot to kill (hang mode, grandchild).
const safetyLimit = 10 * time.Minute

func main() {
	if len(os.Args) > 1 && os.Args[1] == "sleep-child" {
		// The hang scenario's grandchild: as stubborn as its parent.
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		time.Sleep(safetyLimit)
		return
	}
	if rec := os.Getenv("FAKE_AGENT_RECORD"); rec != "" {
		// What the agent was started with, for tests that check it, on
		// every OS (they once wrapped it in sh -c): PREFIX.arg holds its
		// first argument, PREFIX.env its environment, a line each.
		arg := ""
		if len(os.Args) > 1 {
			arg = os.Args[1]
		}
		env := strings.Join(os.Environ(), "\n") + "\n"
		if os.WriteFile(rec+".arg", []byte(arg), 0o600) != nil || os.WriteFile(rec+".env", []byte(env), 0o600) != nil {
			fmt.Fprintln(os.Stderr, "fakeagent: cannot write FAKE_AGENT_RECORD")
			os.Exit(1)
		}
	}
	os.Exit(run(os.Stdin, os.Stdout))
}

type agent struct {
	w        *wire
	store    *store
	scenario string         // default scenario from the environment
	models   bool           // FAKE_AGENT_SHAPE=models
	lateOn   bool           // FAKE_AGENT_LATE_REPLAY=paced
	pacing   sync.WaitGroup // the paced replay still streaming
	late     []func()       // the rest of a load's replay, sent before the next answer

	mu      sync.Mutex
	turns   map[string]*turn // running prompt per session
	opened  map[string]bool  // sessions this process has open: settings live only here, like codex-acp's
	hanging bool             // the hang scenario is active: ignore stdin EOF
	nextReq int              // numeric ids of our own requests count from 0, like codex-acp 2.x
	prompts int              // session/prompt requests so far (FAKE_AGENT_EXIT_ON_PROMPT)
	wg      sync.WaitGroup   // running prompts
}

func run(in io.Reader, out io.Writer) int {
	// A slow start (a wrapper script, a cold cache): the process exists
	// but reads nothing for this long. On every OS, where the tests once
	// wrapped the agent in `sh -c "sleep …; exec …"`.
	if d, err := time.ParseDuration(os.Getenv("FAKE_AGENT_START_DELAY")); err == nil && d > 0 {
		time.Sleep(d)
	}
	// The first start fails (it makes the file named), later ones work:
	// an agent that fails once, e.g. the pre-warm, then answers the turn.
	if once := os.Getenv("FAKE_AGENT_FAIL_ONCE"); once != "" {
		if f, err := os.OpenFile(once, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
			fmt.Fprintln(os.Stderr, "warm-up failure")
			return 3
		}
	}
	scenario := os.Getenv("FAKE_AGENT_SCENARIO")
	if scenario == "" {
		scenario = "normal"
	}
	if scenario == "exit-clean" {
		return 0 // an agent that quits cleanly before its first answer
	}
	if _, ok := scenarios[scenario]; !ok && scenario != "exit-early" && scenario != "silent-start" {
		fmt.Fprintf(os.Stderr, "fakeagent: unknown FAKE_AGENT_SCENARIO %q\n", scenario)
		return 2
	}
	stateDir := os.Getenv("FAKE_AGENT_STATE")
	if stateDir == "" {
		stateDir = filepath.Join(os.TempDir(), "fakeagent-state")
	}
	st, err := newStore(stateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: %v\n", err)
		return 1
	}
	w, err := newWire(out, os.Getenv("FAKE_AGENT_LOG"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: %v\n", err)
		return 1
	}
	a := &agent{w: w, store: st, scenario: scenario, models: os.Getenv("FAKE_AGENT_SHAPE") == "models", lateOn: os.Getenv("FAKE_AGENT_LATE_REPLAY") == "paced", turns: map[string]*turn{}, opened: map[string]bool{}}

	// ReadBytes, not a Scanner: lines of 64 MiB and more must pass.
	br := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			a.handleLine(line)
		}
		if err != nil {
			break
		}
	}
	close(w.closed)
	a.mu.Lock()
	hanging := a.hanging
	a.mu.Unlock()
	if hanging {
		// Like a wedged agent: stdin is gone but we stay.
		time.Sleep(safetyLimit)
	}
	return 0
}

func (a *agent) handleLine(line []byte) {
	line = trimLine(line)
	if len(line) == 0 {
		return
	}
	a.w.record(line)
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintf(os.Stderr, "fakeagent: bad line: %v\n", err)
		a.w.send(map[string]any{"jsonrpc": "2.0", "id": nil, "error": &rpcError{Code: -32700, Message: "Parse error"}})
		return
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		a.handleRequest(m)
	case m.Method != "":
		a.handleNotification(m)
	case len(m.ID) > 0:
		a.w.deliver(m)
	}
}

func trimLine(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func (a *agent) requestID() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := a.nextReq
	a.nextReq++
	return id
}

func (a *agent) handleNotification(m message) {
	switch m.Method {
	case "session/cancel":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		json.Unmarshal(m.Params, &p)
		a.mu.Lock()
		t := a.turns[p.SessionID]
		a.mu.Unlock()
		if t != nil {
			t.cancel()
		}
	default:
		// Unknown notifications are ignored, as the spec asks.
	}
}

func (a *agent) handleRequest(m message) {
	var (
		result any
		rerr   *rpcError
	)
	switch m.Method {
	case "initialize":
		if a.scenario == "exit-early" {
			fmt.Fprintln(os.Stderr, "fakeagent: error: simulated startup failure (exit-early)")
			os.Exit(1)
		}
		if a.scenario == "silent-start" {
			return // like an agent wedged while it starts: no answer ever
		}
		result = a.initialize()
	case "authenticate":
		result, rerr = a.authenticate(m.Params)
	case "logout":
		if a.scenario != "auth" { // only the auth scenario advertises it
			rerr = &rpcError{Code: codeMethodNotFound, Message: "Method not found: logout"}
			break
		}
		if err := a.store.clearAuthenticated(); err != nil {
			rerr = &rpcError{Code: codeInternal, Message: err.Error()}
			break
		}
		result = map[string]any{}
	case "session/new":
		result, rerr = a.newSession(m.Params)
		if rerr == nil {
			a.w.respond(m.ID, result)
			// Like the real adapters: commands arrive right after the session.
			a.w.update(result.(map[string]any)["sessionId"].(string), map[string]any{
				"sessionUpdate": "available_commands_update", "availableCommands": commands,
			})
			return
		}
	case "session/load":
		result, rerr = a.loadSession(m.Params, true)
		if a.lateOn && rerr == nil {
			a.w.respond(m.ID, result)
			late := a.late
			a.late = nil
			a.pacing.Add(1)
			go func() {
				defer a.pacing.Done()
				for _, f := range late {
					time.Sleep(20 * time.Millisecond)
					f()
				}
			}()
			return
		}
	case "session/resume":
		result, rerr = a.loadSession(m.Params, false)
	case "session/list":
		result, rerr = a.listSessions(m.Params)
	case "session/set_config_option":
		if os.Getenv("FAKE_AGENT_EXIT_ON_SET") != "" {
			os.Exit(1)
		}
		if a.models {
			rerr = &rpcError{Code: -32601, Message: "Method not found"}
			break
		}
		result, rerr = a.setConfigOption(m.Params)
	case "session/set_model":
		result, rerr = a.setModel(m.Params)
	case "session/set_mode":
		result, rerr = a.setMode(m.Params)
	case "session/prompt":
		a.prompts++ // handleLine runs on the one reading goroutine
		if n := envInt("FAKE_AGENT_EXIT_ON_PROMPT", 0); n > 0 && a.prompts == n {
			os.Exit(1)
		}
		// Prompts run on their own goroutine so cancel and permission
		// answers keep flowing in while a turn streams.
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			// The model answers after the replay went out, as a real
			// model's round trip outlasts gemini-cli's replay.
			a.pacing.Wait()
			res, rerr := a.prompt(m.Params)
			if res == nil && rerr == nil {
				return // hang / crash: never answer
			}
			if rerr != nil {
				a.w.respondErr(m.ID, rerr)
				return
			}
			a.w.respond(m.ID, res)
		}()
		return
	default:
		rerr = &rpcError{Code: codeMethodNotFound, Message: "Method not found: " + m.Method}
	}
	if rerr != nil {
		a.w.respondErr(m.ID, rerr)
		return
	}
	a.w.respond(m.ID, result)
}

func (a *agent) initialize() map[string]any {
	caps := map[string]any{
		"loadSession":         true,
		"promptCapabilities":  map[string]any{"image": true, "audio": true, "embeddedContext": os.Getenv("FAKE_AGENT_NO_EMBEDDED") == ""},
		"sessionCapabilities": map[string]any{"resume": map[string]any{}, "list": map[string]any{}},
		"mcpCapabilities":     map[string]any{"http": false, "sse": false},
	}
	if a.lateOn {
		caps["sessionCapabilities"] = map[string]any{"list": map[string]any{}}
	}
	if a.scenario == "auth" {
		caps["auth"] = map[string]any{"logout": map[string]any{}}
	}
	return map[string]any{
		"protocolVersion":   1,
		"agentInfo":         map[string]any{"name": "fakeagent", "title": "Fake Agent", "version": "1.0.0"},
		"agentCapabilities": caps,
		"authMethods": []map[string]any{
			{"id": "api-key", "name": "API Key", "description": "Use an API key to authenticate"},
			{"id": "chat-gpt", "name": "ChatGPT", "description": "Use ChatGPT to authenticate"},
		},
	}
}

func (a *agent) authenticate(raw json.RawMessage) (any, *rpcError) {
	var p struct {
		MethodID string `json:"methodId"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	if p.MethodID != "api-key" && p.MethodID != "chat-gpt" {
		return nil, errInvalid("unknown auth method %q", p.MethodID)
	}
	if p.MethodID == "chat-gpt" && os.Getenv("FAKE_AGENT_OPEN_BROWSER") == "1" {
		// As codex-acp's ChatGPT login: the sign-in page goes to the OS
		// opener, and the user signs in there.
		if out, err := exec.Command("xdg-open", loginURL).CombinedOutput(); err != nil {
			return nil, &rpcError{Code: codeInternal, Message: fmt.Sprintf("open the browser: %v %s", err, out)}
		}
	}
	if err := a.store.setAuthenticated(p.MethodID); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	return map[string]any{}, nil
}

// loginURL is the page the chat-gpt method opens, shaped like Codex's.
const loginURL = "https://auth.openai.com/oauth/authorize?response_type=code&client_id=fakeagent&redirect_uri=http%3A%2F%2F127.0.0.1%3A1455%2Fauth%2Fcallback&code_challenge_method=S256"

var authRequired = &rpcError{Code: codeAuthRequired, Message: "Authentication required"}

func (a *agent) needsAuth() bool { return a.scenario == "auth" && !a.store.authenticated() }

func (a *agent) newSession(raw json.RawMessage) (any, *rpcError) {
	var p struct {
		Cwd string            `json:"cwd"`
		MCP []json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	if !filepath.IsAbs(p.Cwd) {
		return nil, errInvalid("cwd must be an absolute path, got %q", p.Cwd)
	}
	if a.needsAuth() {
		return nil, authRequired
	}
	ss := &session{
		ID:        newID(),
		Cwd:       p.Cwd,
		UpdatedAt: now(),
		Mode:      defaultMode,
		Config:    map[string]any{},
		Extras:    a.scenario == "options",
		MCP:       p.MCP,
	}
	if err := a.store.put(ss); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	a.markOpened(ss.ID)
	r := a.setup(ss)
	r["sessionId"] = ss.ID
	return r, nil
}

// loadSession serves session/load (replay=true) and session/resume.
func (a *agent) loadSession(raw json.RawMessage, replay bool) (any, *rpcError) {
	var p struct {
		SessionID string            `json:"sessionId"`
		Cwd       string            `json:"cwd"`
		MCP       []json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	if !filepath.IsAbs(p.Cwd) {
		return nil, errInvalid("cwd must be an absolute path, got %q", p.Cwd)
	}
	if a.needsAuth() {
		return nil, authRequired
	}
	ss, rerr := a.session(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	ss.MCP = p.MCP
	if err := a.store.put(ss); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	if !a.markOpened(ss.ID) {
		// Like codex-acp: a session reopened by a new process starts from
		// the defaults again; mode and options died with the old process.
		ss.Mode, ss.Config = defaultMode, map[string]any{}
		if err := a.store.put(ss); err != nil {
			return nil, &rpcError{Code: codeInternal, Message: err.Error()}
		}
	}
	if replay {
		for i, h := range ss.History {
			kind := "agent_message_chunk"
			if h.Role == "user" {
				kind = "user_message_chunk"
			}
			u := map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": h.Text}}
			if a.lateOn && i >= len(ss.History)/2 {
				a.late = append(a.late, func() { a.w.update(ss.ID, u) })
				continue
			}
			a.w.update(ss.ID, u)
		}
	}
	return a.setup(ss), nil
}

// setup is what session/new, load and resume report besides the id.
func (a *agent) setup(ss *session) map[string]any {
	if !a.models {
		return map[string]any{"modes": modeState(ss), "configOptions": configOptions(ss)}
	}
	o := findOption("model")
	var avail []map[string]any
	for _, v := range o.values {
		avail = append(avail, map[string]any{"modelId": v["value"], "name": v["name"], "description": v["description"]})
	}
	return map[string]any{"modes": modeState(ss), "models": map[string]any{"currentModelId": o.current(ss), "availableModels": avail}}
}

// setModel serves session/set_model (the "models" shape).
func (a *agent) setModel(raw json.RawMessage) (any, *rpcError) {
	if !a.models {
		return nil, &rpcError{Code: -32601, Message: "Method not found"}
	}
	var p struct {
		SessionID string `json:"sessionId"`
		ModelID   string `json:"modelId"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	ss, rerr := a.session(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	o := findOption("model")
	if why := o.refusal(p.ModelID); why != "" {
		return nil, errInvalid("%s", why)
	}
	if !o.allows(p.ModelID) {
		return nil, errInvalid("unknown model %q", p.ModelID)
	}
	ss.Config["model"] = p.ModelID
	if err := a.store.put(ss); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	return map[string]any{}, nil
}

// markOpened records that this process has session id open and says
// whether it already had.
func (a *agent) markOpened(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	was := a.opened[id]
	a.opened[id] = true
	return was
}

func (a *agent) session(id string) (*session, *rpcError) {
	ss, err := a.store.get(id)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &rpcError{Code: codeNotFound, Message: "Resource not found: session " + strconv.Quote(id)}
	}
	if err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	return ss, nil
}

func (a *agent) listSessions(raw json.RawMessage) (any, *rpcError) {
	var p struct {
		Cwd string `json:"cwd"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, errInvalid("%v", err)
		}
	}
	all, err := a.store.list(p.Cwd)
	if err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	list := []map[string]any{}
	for _, ss := range all {
		e := map[string]any{"sessionId": ss.ID, "cwd": ss.Cwd, "updatedAt": ss.UpdatedAt}
		if ss.Title != "" {
			e["title"] = ss.Title
		}
		list = append(list, e)
	}
	return map[string]any{"sessions": list}, nil
}

func (a *agent) setConfigOption(raw json.RawMessage) (any, *rpcError) {
	var p struct {
		SessionID string `json:"sessionId"`
		ConfigID  string `json:"configId"`
		Type      string `json:"type"`
		Value     any    `json:"value"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	ss, rerr := a.session(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	o := findOption(p.ConfigID)
	if o == nil || (o.extra && !ss.Extras) {
		return nil, errInvalid("unknown config option %q", p.ConfigID)
	}
	if why := o.refusal(p.Value); why != "" {
		return nil, errInvalid("%s", why)
	}
	if !o.allows(p.Value) {
		return nil, errInvalid("invalid value %v for config option %q", p.Value, p.ConfigID)
	}
	if o.id == "mode" {
		ss.Mode = p.Value.(string)
	} else {
		ss.Config[o.id] = p.Value
	}
	if err := a.store.put(ss); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	opts := configOptions(ss)
	a.w.update(ss.ID, map[string]any{"sessionUpdate": "config_option_update", "configOptions": opts})
	return map[string]any{"configOptions": opts}, nil
}

func (a *agent) setMode(raw json.RawMessage) (any, *rpcError) {
	var p struct {
		SessionID string `json:"sessionId"`
		ModeID    string `json:"modeId"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, errInvalid("%v", err)
	}
	ss, rerr := a.session(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	if !validMode(p.ModeID) {
		return nil, errInvalid("unknown mode %q", p.ModeID)
	}
	ss.Mode = p.ModeID
	if err := a.store.put(ss); err != nil {
		return nil, &rpcError{Code: codeInternal, Message: err.Error()}
	}
	a.w.update(ss.ID, map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": p.ModeID})
	return map[string]any{}, nil
}
