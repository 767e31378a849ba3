package codexhome

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/maphash"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	// RoleNotice is a line the transcript shows between messages: a turn
	// the user stopped, a compaction. Notice says which.
	RoleNotice = "notice"
)

// Notices (Message.Notice).
const (
	NoticeStopped   = "stopped"
	NoticeCompacted = "compacted"
)

// ToolCall is one tool invocation paired with its result.
type ToolCall struct {
	Name     string `json:"name"`
	Command  string `json:"command,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Output   string `json:"output,omitempty"`
}

// Message is one entry of a readable transcript.
type Message struct {
	Role   string    `json:"role"` // RoleUser, RoleAssistant, RoleTool or RoleNotice
	Text   string    `json:"text"`
	Time   time.Time `json:"time" ts_type:"string"`
	Tool   *ToolCall `json:"tool,omitempty"`
	Notice string    `json:"notice,omitempty"` // NoticeStopped or NoticeCompacted, with RoleNotice
	// Note is the app's own note the prompt carried after the user's words
	// (the <hand-edits> note, without its tags); Text is the user's words.
	Note string `json:"note,omitempty"`
}

// The tags around the note the app appends to a prompt
// (core/handedit.PromptNote): what the agent needs, not what the user said.
const (
	appNoteOpen  = "<hand-edits>"
	appNoteClose = "</hand-edits>"
)

// SplitAppNote separates a user message into the user's own words and the
// app's note that ends it, if any ("" when there is none).
func SplitAppNote(text string) (words, note string) {
	t := strings.TrimRight(text, " \t\r\n")
	if !strings.HasSuffix(t, appNoteClose) {
		return text, ""
	}
	i := strings.LastIndex(t, appNoteOpen)
	if i < 0 || (i > 0 && t[i-1] != '\n') {
		return text, ""
	}
	return strings.TrimRight(t[:i], " \t\r\n"), strings.TrimSpace(t[i+len(appNoteOpen) : len(t)-len(appNoteClose)])
}

// line is the union of the rollout line shapes the reader uses. Codex adds
// fields and variants freely; only these are looked at.
type line struct {
	Timestamp string      `json:"timestamp"`
	Type      string      `json:"type"`
	Payload   linePayload `json:"payload"`
}

type linePayload struct {
	Type string `json:"type"`
	// session_meta
	ID        string          `json:"id"`
	SessionID string          `json:"session_id"`
	Cwd       string          `json:"cwd"`
	Source    json.RawMessage `json:"source"`
	Reason    string          `json:"reason"` // turn_aborted
	// response_item
	Role      string          `json:"role"`
	Content   []contentPart   `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    *struct {
		Command json.RawMessage `json:"command"`
	} `json:"action"`
	// event_msg
	Message          json.RawMessage `json:"message"`
	Item             *eventItem      `json:"item"`
	Command          json.RawMessage `json:"command"`
	ExitCode         *int            `json:"exit_code"`
	AggregatedOutput string          `json:"aggregated_output"`
	Stdout           string          `json:"stdout"`
}

type contentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// eventItem is the item of a 0.166 event_msg item_completed.
type eventItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Content          []contentPart   `json:"content"`
	Command          json.RawMessage `json:"command"`
	ExitCode         *int            `json:"exit_code"`
	AggregatedOutput string          `json:"aggregated_output"`
}

// injectedPrefixes start user-role items that Codex adds itself (context,
// instructions); they are not the user's words.
var injectedPrefixes = []string{
	"<environment_context",
	"<permissions instructions",
	"<permissions_instructions",
	"<user_instructions",
	"<skills_instructions",
	"<developer_instructions",
	"<collaboration_mode",
	"<personality_spec",
	"<turn_aborted",
	"<subagent_notification",
	"<user_shell_command",
	"<INSTRUCTIONS>",
	"# AGENTS.md",
	"# Instructions",
}

// IsInjected reports whether a user-role text is context Codex injected.
func IsInjected(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// parser turns rollout lines into messages. Its state is small and
// copyable so a paged read can resume from a remembered point.
type parser struct {
	id, cwd   string
	internal  bool // session_meta says a sub-agent ran it (a review, a guardian)
	meta      bool // a session_meta line was seen
	started   time.Time
	last      time.Time // newest timestamp seen
	firstUser string    // the first real user message
	skipped   int       // lines that did not parse
	emitted   int       // messages produced so far

	// Both an event and a response_item may carry the same message; what
	// one source emitted is remembered (per turn, by hash) so the other is
	// dropped.
	fromEvents map[uint64]int
	fromItems  map[uint64]int
	// Tool calls waiting for their output, in call order, and calls already
	// shown (a 0.166 CommandExecution and its function_call_output), by
	// the hash of their call id.
	pending      map[uint64]pendingCall
	order        []uint64
	pendingBytes int
	doneCalls    map[uint64]bool
	// compacted is set once this turn's compaction was shown: Codex may
	// record it both as a compacted line and as an event.
	compacted bool
}

// What the parser remembers is bounded, so a hostile rollout (millions of
// distinct messages in one turn, calls that never finish) cannot grow it
// without limit. Real sessions stay far below these.
const (
	maxPairs        = 4096     // messages remembered per source and turn for pairing
	maxDone         = 4096     // finished call ids remembered per turn
	maxPending      = 1024     // calls waiting for their output
	maxPendingBytes = 32 << 20 // their commands, in bytes
)

// keySeed makes the hashes of one process comparable (checkpoints are
// never stored across processes).
var keySeed = maphash.MakeSeed()

func key(s string) uint64 { return maphash.String(keySeed, s) }

type pendingCall struct {
	name, command string
	time          time.Time
}

func newParser() *parser {
	return &parser{
		fromEvents: map[uint64]int{},
		fromItems:  map[uint64]int{},
		pending:    map[uint64]pendingCall{},
		doneCalls:  map[uint64]bool{},
	}
}

// clone copies the state so it can be stored as a checkpoint.
func (p *parser) clone() *parser {
	c := *p
	c.fromEvents = cloneMap(p.fromEvents)
	c.fromItems = cloneMap(p.fromItems)
	c.doneCalls = cloneMap(p.doneCalls)
	c.pending = cloneMap(p.pending)
	c.order = append([]uint64(nil), p.order...)
	return &c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// feed parses one line and returns the message it completes, if any.
func (p *parser) feed(raw []byte) *Message {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if ignorable(raw) {
		return nil
	}
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		// A field of an unexpected type (a new Codex variant) still leaves
		// the rest decoded; anything else means the line is broken.
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			p.skipped++
			return nil
		}
	}
	ts, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
	if ts.After(p.last) {
		p.last = ts
	}
	m := p.handle(&l, ts)
	if m != nil {
		p.emitted++
		if m.Role == RoleUser && p.firstUser == "" {
			p.firstUser = m.Text
		}
	}
	return m
}

func (p *parser) handle(l *line, ts time.Time) *Message {
	pl := &l.Payload
	switch l.Type {
	case "session_meta":
		if !p.meta {
			p.meta = true
			p.id = pl.ID
			if p.id == "" {
				p.id = pl.SessionID
			}
			p.cwd = pl.Cwd
			p.started = ts
			p.internal = isSubagent(pl.Source)
		}
	case "compacted":
		return p.compaction(ts)
	case "turn_context":
		if p.cwd == "" {
			p.cwd = pl.Cwd
		}
	case "response_item":
		return p.responseItem(pl, ts)
	case "event_msg":
		return p.event(pl, ts)
	}
	return nil
}

func (p *parser) responseItem(pl *linePayload, ts time.Time) *Message {
	switch pl.Type {
	case "message":
		var parts []string
		for _, c := range pl.Content {
			if c.Text == "" || (pl.Role == RoleUser && IsInjected(c.Text)) {
				continue
			}
			parts = append(parts, c.Text)
		}
		text := strings.Join(parts, "\n\n")
		if text == "" || (pl.Role != RoleUser && pl.Role != RoleAssistant) {
			return nil
		}
		return p.dedupe(p.fromItems, p.fromEvents, pl.Role, text, ts)
	case "function_call", "custom_tool_call", "local_shell_call":
		if pl.CallID == "" {
			return nil
		}
		name := pl.Name
		if name == "" {
			name = "shell"
		}
		var cmd string
		switch {
		case pl.Arguments != "":
			cmd = commandFromArgs(pl.Arguments)
		case pl.Input != "":
			cmd = pl.Input
		case pl.Action != nil:
			cmd = commandString(pl.Action.Command)
		}
		k := key(pl.CallID)
		old, reused := p.pending[k]
		if reused {
			// Codex numbers calls per turn: this id is a new call, and the
			// one of an earlier turn that had it never got its output.
			p.pendingBytes -= len(old.command)
			p.order = append(removeKey(p.order, k), k)
		} else {
			p.order = append(p.order, k)
		}
		p.pending[k] = pendingCall{name: name, command: cmd, time: ts}
		p.pendingBytes += len(cmd)
		if reused {
			tc := &ToolCall{Name: old.name, Command: old.command}
			return &Message{Role: RoleTool, Text: toolText(tc), Time: old.time, Tool: tc}
		}
		return p.evict()
	case "function_call_output", "custom_tool_call_output":
		out, code := toolOutput(pl.Output)
		return p.finishCall(pl.CallID, "", out, code, ts)
	}
	return nil
}

func (p *parser) event(pl *linePayload, ts time.Time) *Message {
	switch pl.Type {
	case "task_started":
		// A new turn: nothing from the last one can still pair up.
		clear(p.fromEvents)
		clear(p.fromItems)
		clear(p.doneCalls)
		p.compacted = false
	case "turn_aborted":
		// "interrupted": the user pressed stop; "replaced": the user sent a
		// new message mid-turn. Both were the user's doing.
		if pl.Reason == "interrupted" || pl.Reason == "replaced" || pl.Reason == "" {
			return &Message{Role: RoleNotice, Notice: NoticeStopped, Text: "Stopped by you", Time: ts}
		}
	case "context_compacted":
		return p.compaction(ts)
	case "user_message", "agent_message":
		var text string
		if json.Unmarshal(pl.Message, &text) != nil || strings.TrimSpace(text) == "" {
			return nil
		}
		role := RoleAssistant
		if pl.Type == "user_message" {
			role = RoleUser
			if IsInjected(text) {
				return nil
			}
		}
		return p.dedupe(p.fromEvents, p.fromItems, role, text, ts)
	case "exec_command_end":
		return p.finishCall(pl.CallID, commandString(pl.Command), firstNonEmpty(pl.AggregatedOutput, pl.Stdout), pl.ExitCode, ts)
	case "item_completed":
		it := pl.Item
		if it == nil {
			return nil
		}
		switch it.Type {
		case "UserMessage", "AgentMessage":
			var parts []string
			for _, c := range it.Content {
				if c.Text != "" && !(it.Type == "UserMessage" && IsInjected(c.Text)) {
					parts = append(parts, c.Text)
				}
			}
			text := strings.Join(parts, "\n\n")
			if text == "" {
				return nil
			}
			role := RoleAssistant
			if it.Type == "UserMessage" {
				role = RoleUser
			}
			return p.dedupe(p.fromEvents, p.fromItems, role, text, ts)
		case "CommandExecution":
			return p.finishCall(it.ID, commandString(it.Command), it.AggregatedOutput, it.ExitCode, ts)
		}
	}
	return nil
}

// compaction emits the one line that stands for a compaction, once per turn.
func (p *parser) compaction(ts time.Time) *Message {
	if p.compacted {
		return nil
	}
	p.compacted = true
	return &Message{Role: RoleNotice, Notice: NoticeCompacted, Text: "Conversation compacted", Time: ts}
}

// isSubagent reports whether a session_meta source names a sub-agent
// ({"subagent": "review"}, {"subagent": {"other": "guardian"}}, …): a
// session Codex started itself, not the user.
func isSubagent(raw json.RawMessage) bool {
	var src map[string]json.RawMessage
	if json.Unmarshal(raw, &src) != nil {
		return false
	}
	_, ok := src["subagent"]
	return ok
}

// dedupe emits a message unless the other source already emitted the same
// one in this turn.
func (p *parser) dedupe(mine, other map[uint64]int, role, text string, ts time.Time) *Message {
	var note string
	if role == RoleUser {
		text, note = SplitAppNote(text)
	}
	k := key(role + "\x00" + strings.TrimSpace(text))
	if other[k] > 0 {
		other[k]--
		return nil
	}
	if len(mine) >= maxPairs {
		clear(mine) // a pathological turn: pairing starts afresh
	}
	mine[k]++
	return &Message{Role: role, Text: text, Time: ts, Note: note}
}

// evict lets go of the oldest waiting calls beyond maxPending or
// maxPendingBytes: the first is returned as an unfinished call (as flush
// would show it), any further one is counted as skipped.
func (p *parser) evict() *Message {
	var out *Message
	for len(p.order) > maxPending || (p.pendingBytes > maxPendingBytes && len(p.order) > 1) {
		k := p.order[0]
		p.order = p.order[1:]
		pc := p.pending[k]
		delete(p.pending, k)
		p.pendingBytes -= len(pc.command)
		if out != nil {
			p.skipped++
			continue
		}
		tc := &ToolCall{Name: pc.name, Command: pc.command}
		out = &Message{Role: RoleTool, Text: toolText(tc), Time: pc.time, Tool: tc}
	}
	return out
}

// finishCall emits the tool message for callID, once, whichever of its
// result records comes first.
func (p *parser) finishCall(callID, cmd, out string, code *int, ts time.Time) *Message {
	k := key(callID)
	if callID != "" && p.doneCalls[k] {
		return nil
	}
	pc, ok := p.pending[k]
	if ok {
		delete(p.pending, k)
		p.pendingBytes -= len(pc.command)
		p.order = removeKey(p.order, k)
	}
	if callID != "" {
		if len(p.doneCalls) >= maxDone {
			clear(p.doneCalls)
		}
		p.doneCalls[k] = true
	}
	tc := &ToolCall{Name: pc.name, Command: pc.command, ExitCode: code, Output: out}
	if tc.Name == "" {
		tc.Name = "shell"
	}
	if cmd != "" && tc.Command == "" {
		tc.Command = cmd
	}
	return &Message{Role: RoleTool, Text: toolText(tc), Time: ts, Tool: tc}
}

// flush emits the calls that never got a result (an interrupted turn).
func (p *parser) flush() []Message {
	var out []Message
	for _, id := range p.order {
		pc := p.pending[id]
		tc := &ToolCall{Name: pc.name, Command: pc.command}
		out = append(out, Message{Role: RoleTool, Text: toolText(tc), Time: pc.time, Tool: tc})
	}
	p.order = nil
	p.pendingBytes = 0
	clear(p.pending)
	return out
}

func toolText(tc *ToolCall) string {
	if tc.Command != "" {
		return tc.Command
	}
	return tc.Name
}

func removeKey(s []uint64, v uint64) []uint64 {
	for i, x := range s {
		if x == v {
			return append(s[:i:i], s[i+1:]...)
		}
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// commandFromArgs finds the command in a function_call's JSON arguments:
// exec_command's {"cmd": "..."}, shell's {"command": [...]}, else the raw
// arguments.
func commandFromArgs(args string) string {
	var a struct {
		Cmd     string          `json:"cmd"`
		Command json.RawMessage `json:"command"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return args
	}
	if a.Cmd != "" {
		return a.Cmd
	}
	if c := commandString(a.Command); c != "" {
		return c
	}
	return args
}

// commandString renders a command given as a string or an argv array; a
// `sh -lc SCRIPT` wrapper shows just the script.
func commandString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil || len(argv) == 0 {
		return ""
	}
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

var (
	exitRe   = regexp.MustCompile(`^(?:Process exited with code|Exit code:) (-?\d+)$`)
	headerRe = regexp.MustCompile(`^[A-Z][A-Za-z ]*: .*$`)
)

// toolOutput turns a function_call_output's output (a string, a JSON
// string with output+metadata, or content parts) into text and an exit
// code when one is stated. The exec tools prefix the real output with a
// header ("Wall time: …", "Process exited with code 0", "Output:"); it is
// peeled off, as often as it is nested.
func toolOutput(raw json.RawMessage) (string, *int) {
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var parts []contentPart
		if json.Unmarshal(raw, &parts) == nil {
			var ss []string
			for _, c := range parts {
				ss = append(ss, c.Text)
			}
			text = strings.Join(ss, "\n")
		} else {
			var o struct {
				Content string `json:"content"`
			}
			if json.Unmarshal(raw, &o) != nil {
				return string(raw), nil
			}
			text = o.Content
		}
	}
	// Older shells: {"output": "...", "metadata": {"exit_code": 0}}.
	if strings.HasPrefix(text, "{") {
		var o struct {
			Output   *string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(text), &o) == nil && o.Output != nil {
			return *o.Output, o.Metadata.ExitCode
		}
	}
	var code *int
	for {
		head, body, ok := strings.Cut(text, "Output:\n")
		if !ok {
			break
		}
		hc, isHeader := parseHeader(head)
		if !isHeader {
			break
		}
		if hc != nil {
			code = hc
		}
		text = body
	}
	return text, code
}

// parseHeader reports whether s is only exec header lines, and the exit
// code one of them states.
func parseHeader(s string) (*int, bool) {
	var code *int
	for _, ln := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if ln == "" {
			continue
		}
		if m := exitRe.FindStringSubmatch(ln); m != nil {
			n, _ := strconv.Atoi(m[1])
			code = &n
			continue
		}
		if !headerRe.MatchString(ln) {
			return nil, false
		}
	}
	return code, true
}

// Line kinds that never yield a message. Most of a long rollout is these
// (token counts, turn contexts, world state), so they are recognised from
// the line's first bytes and not decoded at all.
var (
	ignoredTypes = []string{"turn_context", "world_state", "token_usage_record"}
	wantedEvents = []string{"task_started", "user_message", "agent_message", "item_completed", "exec_command_end",
		"turn_aborted", "context_compacted"}
	typeKey      = []byte(`"type":"`)
	eventPayload = []byte(`"type":"event_msg","payload":{"type":"`)
)

// ignorable reports whether a line is, by its prefix as Codex writes it
// ({"timestamp":…,"type":…,"payload":{"type":…), one that yields nothing.
// Anything it cannot tell goes to the full decoder.
func ignorable(raw []byte) bool {
	head := raw[:min(len(raw), 160)]
	i := bytes.Index(head, typeKey)
	if i < 0 {
		return false
	}
	rest := head[i+len(typeKey):]
	for _, t := range ignoredTypes {
		if bytes.HasPrefix(rest, []byte(t+`"`)) {
			return true
		}
	}
	if !bytes.HasPrefix(head[i:], eventPayload) {
		return false
	}
	ev := head[i+len(eventPayload):]
	for _, t := range wantedEvents {
		if bytes.HasPrefix(ev, []byte(t+`"`)) {
			return false
		}
	}
	return bytes.IndexByte(ev, '"') > 0 // a complete, unwanted event name
}
