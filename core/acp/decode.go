package acp

import (
	"encoding/json"
)

// Decoding an inbound line.
//
// A streamed chunk is by far the most frequent line, so it is read once:
// one pass over the line finds the envelope's members and, when the method
// (which agents write before the params) is session/update, decodes the
// params in the same pass into a SessionNotification whose chunk content
// block is typed too. Any other update kind this client knows (tool calls,
// plans, options, commands, mode, usage, session info) is decoded into its
// variant from the bytes the pass found, with encoding/json, once. Raw parts (params, update, block, _meta, id, result)
// are subslices of the line, which the reader allocated for this line
// alone. Anything the pass is not sure of (an error response, a key in an
// odd case or with escapes, a duplicate, a non-text block, a wrong type,
// deep nesting, invalid JSON) makes it give up, and the line is decoded
// the plain way with encoding/json instead (decodeSlow), so both paths
// mean exactly the same; a test runs every kind of line through both.

// lineDecoder belongs to the reader goroutine. It remembers the last
// session and message ids so that a stream of chunks shares one string
// each instead of allocating them per line.
type lineDecoder struct {
	session, message string
}

// decoded is one inbound line: the envelope and, for session/update
// notifications, the typed params.
type decoded struct {
	envelope
	note    *SessionNotification // session/update: nil if not even loosely readable
	noteErr error                // session/update: why it did not decode as its variant
}

// chunkNote holds a notification and its chunk's content block in one
// allocation.
type chunkNote struct {
	n SessionNotification
	b ContentBlock
}

// decode reads line into m; an error means the line is not JSON (or not
// an object of the envelope's shape).
func (d *lineDecoder) decode(line []byte, m *decoded) error {
	if d.fast(line, m) {
		return nil
	}
	var err error
	*m, err = decodeSlow(line)
	return err
}

// decodeSlow is the reference decoding with encoding/json. (It returns a
// value so that only this path pays for the variable encoding/json needs
// on the heap.)
func decodeSlow(line []byte) (decoded, error) {
	var m decoded
	if err := json.Unmarshal(line, &m.envelope); err != nil {
		return decoded{}, err
	}
	if m.Method == MethodSessionUpdate {
		m.note, m.noteErr = decodeNotificationSlow(m.Params)
	}
	return m, nil
}

// decodeNotificationSlow decodes session/update params; when they do not
// decode as their variant, a notification holding just the session id and
// the raw update is returned with the error, so the update can still be
// passed on raw. Nil means not even that could be read.
func decodeNotificationSlow(params json.RawMessage) (*SessionNotification, error) {
	var n SessionNotification
	err := json.Unmarshal(params, &n)
	if err == nil {
		return &n, nil
	}
	var loose struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if json.Unmarshal(params, &loose) != nil || len(loose.Update) == 0 {
		return nil, err
	}
	return &SessionNotification{SessionID: loose.SessionID, Update: SessionUpdate{Raw: loose.Update}}, err
}

var envelopeFields = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// fast is the one-pass decoding; false means "decode it the slow way"
// (m is then in an unspecified state).
func (d *lineDecoder) fast(line []byte, m *decoded) bool {
	s := scanner{b: line}
	if !s.eat('{') {
		return false
	}
	var seen uint8
	once := func(bit uint8) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	paramsTyped := false
	if s.at() != '}' {
		for {
			k, ok := s.key()
			if !ok {
				return false
			}
			switch string(k) {
			case "jsonrpc":
				body, esc, ok := s.str()
				if !ok || !once(1) {
					return false
				}
				m.JSONRPC = "2.0"
				if esc || string(body) != "2.0" {
					m.JSONRPC = unquote(body, esc)
				}
			case "id":
				if m.ID, ok = s.span(); !ok || !once(2) {
					return false
				}
			case "method":
				body, esc, ok := s.str()
				if !ok || !once(4) {
					return false
				}
				m.Method = methodName(body, esc)
			case "params":
				if !once(8) {
					return false
				}
				if m.Method == MethodSessionUpdate && s.at() == '{' {
					start := s.i
					if m.note, ok = d.notification(&s); !ok {
						return false
					}
					m.Params, paramsTyped = line[start:s.i], true
				} else if m.Params, ok = s.span(); !ok {
					return false
				}
			case "result":
				if m.Result, ok = s.span(); !ok || !once(16) {
					return false
				}
			case "error":
				// Error responses are rare: the slow path reads them. A
				// null error (some peers send one with every result) is
				// no error.
				if s.at() != 'n' || !s.literal("null") || !once(32) {
					return false
				}
			default:
				if folds(k, envelopeFields...) || !s.skip(0) {
					return false
				}
			}
			more, ok := s.more('}')
			if !ok {
				return false
			}
			if !more {
				break
			}
		}
	} else {
		s.i++
	}
	if !s.end() {
		return false
	}
	if m.Method == MethodSessionUpdate && !paramsTyped {
		// The params came before the method (or are not an object): read
		// them on their own.
		if len(m.Params) > 0 && m.Params[0] == '{' {
			ps := scanner{b: m.Params}
			if n, ok := d.notification(&ps); ok && ps.end() {
				m.note = n
				return true
			}
		}
		m.note, m.noteErr = decodeNotificationSlow(m.Params)
	}
	return true
}

// methodName returns the method, as a constant for the ones agents send.
func methodName(body []byte, esc bool) string {
	if !esc {
		switch string(body) {
		case MethodSessionUpdate:
			return MethodSessionUpdate
		case MethodRequestPermission:
			return MethodRequestPermission
		}
	}
	return unquote(body, esc)
}

var notificationFields = []string{"sessionId", "update", "_meta"}

// notification decodes session/update params at the cursor (an object).
func (d *lineDecoder) notification(s *scanner) (*SessionNotification, bool) {
	s.i++ // '{'
	cn := new(chunkNote)
	n := &cn.n
	var seen uint8
	if s.at() == '}' {
		s.i++
		return n, true
	}
	for {
		k, ok := s.key()
		if !ok {
			return nil, false
		}
		switch string(k) {
		case "sessionId":
			body, esc, ok := s.str()
			if !ok || seen&1 != 0 {
				return nil, false
			}
			seen |= 1
			if esc || string(body) != d.session {
				d.session = unquote(body, esc)
			}
			n.SessionID = d.session
		case "update":
			if s.at() != '{' || seen&2 != 0 || !d.update(s, &n.Update, &cn.b) {
				return nil, false
			}
			seen |= 2
		case "_meta":
			if n.Meta, ok = s.span(); !ok || seen&4 != 0 {
				return nil, false
			}
			seen |= 4
		default:
			if folds(k, notificationFields...) || !s.skip(0) {
				return nil, false
			}
		}
		more, ok := s.more('}')
		if !ok {
			return nil, false
		}
		if !more {
			return n, true
		}
	}
}

var updateFields = []string{"sessionUpdate", "messageId", "content"}

// update decodes one update object at the cursor into u; a chunk's
// content goes into block, which u.Content then points at.
func (d *lineDecoder) update(s *scanner, u *SessionUpdate, block *ContentBlock) bool {
	start := s.i
	s.i++ // '{'
	var seen uint8
	var message []byte
	messageEsc, haveContent := false, false
	if s.at() == '}' {
		s.i++
	} else {
		for {
			k, ok := s.key()
			if !ok {
				return false
			}
			switch string(k) {
			case "sessionUpdate":
				body, esc, ok := s.str()
				if !ok || seen&1 != 0 {
					return false
				}
				seen |= 1
				u.Kind = updateKind(body, esc)
			case "messageId":
				if message, messageEsc, ok = s.str(); !ok || seen&2 != 0 {
					return false // null too: the slow path reads it
				}
				seen |= 2
			case "content":
				if seen&4 != 0 {
					return false
				}
				seen |= 4
				// Decoded before the kind may be known: for a chunk it is
				// needed, for other kinds (tool_call's list) it is skipped.
				if s.at() == '{' {
					if !d.block(s, block) {
						return false
					}
					haveContent = true
				} else if !s.skip(0) {
					return false
				}
			default:
				if folds(k, updateFields...) || !s.skip(0) {
					return false
				}
			}
			more, ok := s.more('}')
			if !ok {
				return false
			}
			if !more {
				break
			}
		}
	}
	u.Raw = s.b[start:s.i]
	if !u.IsChunk() {
		// The variant is decoded from its bytes, once; a shape it cannot
		// read is left to the slow path, which says why.
		return u.decodeVariant() == nil
	}
	if !haveContent {
		return false // missing or not an object: the slow path says why
	}
	u.Content = block
	if seen&2 != 0 {
		if messageEsc || string(message) != d.message {
			d.message = unquote(message, messageEsc)
		}
		u.MessageID = d.message
	}
	return true
}

// updateKind returns the discriminator, as a constant for known kinds.
func updateKind(body []byte, esc bool) string {
	if !esc {
		switch string(body) {
		case UpdateAgentMessageChunk:
			return UpdateAgentMessageChunk
		case UpdateAgentThoughtChunk:
			return UpdateAgentThoughtChunk
		case UpdateUserMessageChunk:
			return UpdateUserMessageChunk
		case UpdateToolCall:
			return UpdateToolCall
		case UpdateToolCallUpdate:
			return UpdateToolCallUpdate
		case UpdatePlan:
			return UpdatePlan
		case UpdateUsage:
			return UpdateUsage
		case UpdateSessionInfo:
			return UpdateSessionInfo
		case UpdateAvailableCommands:
			return UpdateAvailableCommands
		case UpdateCurrentMode:
			return UpdateCurrentMode
		case UpdateConfigOption:
			return UpdateConfigOption
		}
	}
	return unquote(body, esc)
}

// blockFields are blockWire's names; besides type, text, annotations and
// _meta they belong to non-text blocks, which encoding/json decodes.
var blockFields = []string{"type", "text", "data", "mimeType", "uri", "name", "title", "size", "resource", "annotations", "_meta"}

// block decodes a content block at the cursor. A text block is decoded
// here; any other block is stepped over and then decoded from its bytes
// by ContentBlock.UnmarshalJSON (images and resources are rare in a
// stream, and their rules live there).
func (d *lineDecoder) block(s *scanner, b *ContentBlock) bool {
	start := s.i
	s.i++ // '{'
	var seen uint16
	var typ, text []byte
	typeEsc, textEsc, other := false, false, false
	var annotations, meta []byte
	if s.at() == '}' {
		s.i++
	} else {
		for {
			k, ok := s.key()
			if !ok {
				return false
			}
			switch string(k) {
			case "type":
				if typ, typeEsc, ok = s.str(); !ok || seen&1 != 0 {
					return false
				}
				seen |= 1
			case "text":
				if text, textEsc, ok = s.str(); !ok || seen&2 != 0 {
					return false
				}
				seen |= 2
			case "annotations":
				if annotations, ok = s.span(); !ok || seen&4 != 0 {
					return false
				}
				seen |= 4
			case "_meta":
				if meta, ok = s.span(); !ok || seen&8 != 0 {
					return false
				}
				seen |= 8
			default:
				if !s.skip(0) {
					return false
				}
				if folds(k, blockFields...) {
					other = true
				}
			}
			more, ok := s.more('}')
			if !ok {
				return false
			}
			if !more {
				break
			}
		}
	}
	raw := s.b[start:s.i]
	if other || typeEsc || string(typ) != BlockText {
		return json.Unmarshal(raw, b) == nil
	}
	*b = ContentBlock{Type: BlockText, Raw: raw, Annotations: annotations, Meta: meta}
	if seen&2 != 0 {
		b.Text = unquote(text, textEsc)
	}
	return true
}
