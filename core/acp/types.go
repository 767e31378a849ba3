package acp

import (
	"encoding/json"
)

// ProtocolVersion is the ACP major version this client speaks.
const ProtocolVersion = 1

// Method names (client → agent unless noted).
const (
	MethodInitialize      = "initialize"
	MethodAuthenticate    = "authenticate"
	MethodSessionNew      = "session/new"
	MethodSessionLoad     = "session/load"
	MethodSessionResume   = "session/resume"
	MethodSessionList     = "session/list"
	MethodSessionPrompt   = "session/prompt"
	MethodSessionCancel   = "session/cancel" // notification
	MethodSetConfigOption = "session/set_config_option"
	MethodSetMode         = "session/set_mode"
	// MethodSetModel is unstable ACP (not in the v1 schema), which
	// gemini-cli and claude-code-acp speak: see SessionModelState.
	MethodSetModel          = "session/set_model"
	MethodSessionUpdate     = "session/update"             // agent → client notification
	MethodRequestPermission = "session/request_permission" // agent → client request
)

// Stop reasons of a prompt turn.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// Implementation names a client or agent.
type Implementation struct {
	Name    string          `json:"name"`
	Title   string          `json:"title,omitempty"`
	Version string          `json:"version"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}

// FileSystemCapabilities says which fs/* methods the client implements.
type FileSystemCapabilities struct {
	ReadTextFile  bool            `json:"readTextFile"`
	WriteTextFile bool            `json:"writeTextFile"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

// ClientCapabilities are advertised in initialize. Only claim what is
// implemented: an agent that believes in fs/terminal would route file
// writes and commands through us.
type ClientCapabilities struct {
	FS       FileSystemCapabilities `json:"fs"`
	Terminal bool                   `json:"terminal"`
	Meta     json.RawMessage        `json:"_meta,omitempty"`
}

// InitializeRequest is the first call on a link.
type InitializeRequest struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities ClientCapabilities `json:"clientCapabilities"`
	ClientInfo         *Implementation    `json:"clientInfo,omitempty"`
	Meta               json.RawMessage    `json:"_meta,omitempty"`
}

// Capability is a presence-style capability: a non-nil pointer (even to an
// empty object) means "supported".
type Capability struct {
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// PromptCapabilities say which content blocks a prompt may carry beyond
// text and resource_link (always allowed).
type PromptCapabilities struct {
	Image           bool            `json:"image"`
	Audio           bool            `json:"audio"`
	EmbeddedContext bool            `json:"embeddedContext"`
	Meta            json.RawMessage `json:"_meta,omitempty"`
}

// MCPCapabilities say which MCP transports the agent accepts.
type MCPCapabilities struct {
	HTTP bool            `json:"http"`
	SSE  bool            `json:"sse"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// SessionCapabilities are the optional session methods the agent offers.
type SessionCapabilities struct {
	List                  *Capability     `json:"list,omitempty"`
	Resume                *Capability     `json:"resume,omitempty"`
	Close                 *Capability     `json:"close,omitempty"`
	Delete                *Capability     `json:"delete,omitempty"`
	AdditionalDirectories *Capability     `json:"additionalDirectories,omitempty"`
	Meta                  json.RawMessage `json:"_meta,omitempty"`
}

// AgentCapabilities are returned by initialize.
type AgentCapabilities struct {
	LoadSession         bool                `json:"loadSession"`
	PromptCapabilities  PromptCapabilities  `json:"promptCapabilities"`
	MCPCapabilities     MCPCapabilities     `json:"mcpCapabilities"`
	SessionCapabilities SessionCapabilities `json:"sessionCapabilities"`
	Auth                json.RawMessage     `json:"auth,omitempty"`
	Meta                json.RawMessage     `json:"_meta,omitempty"`
}

// InitializeResponse is the agent's answer to initialize. AuthMethods is
// kept raw (the variants differ between adapters); Methods decodes it.
type InitializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities AgentCapabilities `json:"agentCapabilities"`
	AuthMethods       json.RawMessage   `json:"authMethods,omitempty"`
	AgentInfo         *Implementation   `json:"agentInfo,omitempty"`
	Meta              json.RawMessage   `json:"_meta,omitempty"`
}

// AuthMethod is one way to authenticate. Type is "" for the default
// (agent-driven) kind, "terminal", or adapter-specific ("env_var").
type AuthMethod struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Type        string          `json:"type,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Methods decodes AuthMethods, skipping entries that do not parse (the
// schema says invalid items are skipped, not fatal).
func (r InitializeResponse) Methods() []AuthMethod {
	var raws []json.RawMessage
	if json.Unmarshal(r.AuthMethods, &raws) != nil {
		return nil
	}
	out := make([]AuthMethod, 0, len(raws))
	for _, raw := range raws {
		var m AuthMethod
		if json.Unmarshal(raw, &m) == nil && m.ID != "" {
			out = append(out, m)
		}
	}
	return out
}

// AuthenticateRequest runs one of the advertised auth methods.
type AuthenticateRequest struct {
	MethodID string          `json:"methodId"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// AuthenticateResponse is empty on success.
type AuthenticateResponse struct {
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// NewSessionRequest creates a session. MCPServers is required by the
// schema, so a nil slice is sent as [].
type NewSessionRequest struct {
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
	Meta       json.RawMessage   `json:"_meta,omitempty"`
}

// MarshalJSON sends mcpServers as [] when empty.
func (r NewSessionRequest) MarshalJSON() ([]byte, error) {
	type plain NewSessionRequest
	if r.MCPServers == nil {
		r.MCPServers = []json.RawMessage{}
	}
	return json.Marshal(plain(r))
}

// SessionSetup is what session/new, session/load and session/resume return
// besides the id: the modes and config options as they are now.
type SessionSetup struct {
	Modes *SessionModeState `json:"modes,omitempty"`
	// Models is the unstable models state; the client shows it as a model
	// config option (see SessionModelState.Option).
	Models *SessionModelState `json:"models,omitempty"`
	// ConfigOptions is null when the agent has none to report.
	ConfigOptions []ConfigOption  `json:"configOptions"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

// NewSessionResponse answers session/new.
type NewSessionResponse struct {
	SessionID string `json:"sessionId"`
	SessionSetup
}

// LoadSessionRequest reopens a session, replaying its history as updates.
type LoadSessionRequest struct {
	SessionID  string            `json:"sessionId"`
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
	Meta       json.RawMessage   `json:"_meta,omitempty"`
}

// MarshalJSON sends mcpServers as [] when empty.
func (r LoadSessionRequest) MarshalJSON() ([]byte, error) {
	type plain LoadSessionRequest
	if r.MCPServers == nil {
		r.MCPServers = []json.RawMessage{}
	}
	return json.Marshal(plain(r))
}

// LoadSessionResponse answers session/load.
type LoadSessionResponse = SessionSetup

// ResumeSessionRequest reopens a session without replaying its history.
type ResumeSessionRequest struct {
	SessionID  string            `json:"sessionId"`
	Cwd        string            `json:"cwd"`
	MCPServers []json.RawMessage `json:"mcpServers"`
	Meta       json.RawMessage   `json:"_meta,omitempty"`
}

// MarshalJSON sends mcpServers as [] when empty.
func (r ResumeSessionRequest) MarshalJSON() ([]byte, error) {
	type plain ResumeSessionRequest
	if r.MCPServers == nil {
		r.MCPServers = []json.RawMessage{}
	}
	return json.Marshal(plain(r))
}

// ResumeSessionResponse answers session/resume.
type ResumeSessionResponse = SessionSetup

// ListSessionsRequest pages through the agent's sessions.
type ListSessionsRequest struct {
	Cwd    string          `json:"cwd,omitempty"`
	Cursor string          `json:"cursor,omitempty"`
	Meta   json.RawMessage `json:"_meta,omitempty"`
}

// SessionInfo is one listed session.
type SessionInfo struct {
	SessionID string          `json:"sessionId"`
	Cwd       string          `json:"cwd"`
	Title     string          `json:"title,omitempty"`
	UpdatedAt string          `json:"updatedAt,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// ListSessionsResponse is one page of sessions.
type ListSessionsResponse struct {
	Sessions   []SessionInfo   `json:"sessions"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// PromptRequest sends the user's message.
type PromptRequest struct {
	SessionID string          `json:"sessionId"`
	Prompt    []ContentBlock  `json:"prompt"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// PromptResponse ends a turn. Usage is not in the v1 schema but both
// Codex adapters send it; kept raw.
type PromptResponse struct {
	StopReason string          `json:"stopReason"`
	Usage      json.RawMessage `json:"usage,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// CancelNotification asks the agent to stop the running prompt.
type CancelNotification struct {
	SessionID string          `json:"sessionId"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// SetConfigOptionRequest sets a select option (Value) or a boolean one
// (Bool non-nil; sent with "type":"boolean" as the schema requires).
type SetConfigOptionRequest struct {
	SessionID string
	ConfigID  string
	Value     string
	Bool      *bool
	Meta      json.RawMessage
}

// MarshalJSON writes the value_id or boolean form.
func (r SetConfigOptionRequest) MarshalJSON() ([]byte, error) {
	type head struct {
		SessionID string          `json:"sessionId"`
		ConfigID  string          `json:"configId"`
		Type      string          `json:"type,omitempty"`
		Value     any             `json:"value"`
		Meta      json.RawMessage `json:"_meta,omitempty"`
	}
	h := head{SessionID: r.SessionID, ConfigID: r.ConfigID, Value: r.Value, Meta: r.Meta}
	if r.Bool != nil {
		h.Type, h.Value = "boolean", *r.Bool
	}
	return json.Marshal(h)
}

// SetConfigOptionResponse carries every option after the change.
type SetConfigOptionResponse struct {
	ConfigOptions []ConfigOption  `json:"configOptions"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

// SetModeRequest switches the session mode.
type SetModeRequest struct {
	SessionID string          `json:"sessionId"`
	ModeID    string          `json:"modeId"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// SetModeResponse is empty on success.
type SetModeResponse struct {
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// SessionMode is one selectable mode.
type SessionMode struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// SessionModeState is the current mode and the choices.
type SessionModeState struct {
	CurrentModeID  string          `json:"currentModeId"`
	AvailableModes []SessionMode   `json:"availableModes"`
	Meta           json.RawMessage `json:"_meta,omitempty"`
}

// ModelInfo is one model the agent offers (unstable ACP).
type ModelInfo struct {
	ModelID     string          `json:"modelId"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// SessionModelState is the current model and the choices, as session/new,
// load and resume report it in "models" (unstable ACP, outside the v1
// schema: gemini-cli and claude-code-acp use it instead of a config option).
type SessionModelState struct {
	CurrentModelID  string          `json:"currentModelId"`
	AvailableModels []ModelInfo     `json:"availableModels"`
	Meta            json.RawMessage `json:"_meta,omitempty"`
}

// ModelsOptionID is the id of the model config option made from a models
// state (Option).
const ModelsOptionID = "model"

// Option is the models state as a select config option of category model,
// so one control and one setting path serve both ways an agent offers
// models; ViaSetModel marks it, and setting it is session/set_model.
func (m SessionModelState) Option() ConfigOption {
	o := ConfigOption{ID: ModelsOptionID, Name: "Model", Category: CategoryModel, Type: "select", Value: m.CurrentModelID, ViaSetModel: true}
	for _, mi := range m.AvailableModels {
		if mi.ModelID == "" {
			continue
		}
		o.Options = append(o.Options, ConfigSelectOption{Value: mi.ModelID, Name: firstNonEmpty(mi.Name, mi.ModelID), Description: mi.Description})
	}
	return o
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// SetModelRequest switches the session's model (unstable ACP).
type SetModelRequest struct {
	SessionID string          `json:"sessionId"`
	ModelID   string          `json:"modelId"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// Permission option kinds.
const (
	KindAllowOnce    = "allow_once"
	KindAllowAlways  = "allow_always"
	KindRejectOnce   = "reject_once"
	KindRejectAlways = "reject_always"
)

// PermissionOption is one answer the agent offers. Ids differ between
// adapters; Kind is what means something.
type PermissionOption struct {
	OptionID string          `json:"optionId"`
	Name     string          `json:"name"`
	Kind     string          `json:"kind"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// RequestPermissionRequest is the agent asking before a tool call.
// ToolCall is kept raw (a ToolCallUpdate); DecodeToolCall reads it.
type RequestPermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  json.RawMessage    `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
	Meta      json.RawMessage    `json:"_meta,omitempty"`
}

// PermissionOutcome is "selected" (with OptionID) or "cancelled".
type PermissionOutcome struct {
	Outcome  string          `json:"outcome"`
	OptionID string          `json:"optionId,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// RequestPermissionResponse answers a permission request.
type RequestPermissionResponse struct {
	Outcome PermissionOutcome `json:"outcome"`
	Meta    json.RawMessage   `json:"_meta,omitempty"`
}

// Selected answers with the option id.
func Selected(optionID string) RequestPermissionResponse {
	return RequestPermissionResponse{Outcome: PermissionOutcome{Outcome: "selected", OptionID: optionID}}
}

// Cancelled answers "cancelled" (the turn is being cancelled).
func Cancelled() RequestPermissionResponse {
	return RequestPermissionResponse{Outcome: PermissionOutcome{Outcome: "cancelled"}}
}
