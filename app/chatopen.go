package app

import (
	"errors"
	"os"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// AgentCheck says whether the agent of a chat (or of new builds) can be
// started, before anything is sent.
type AgentCheck struct {
	OK        bool   `json:"ok"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	Code      string `json:"code,omitempty"`   // chat.CodeAgentMissing
	Detail    string `json:"detail,omitempty"` // what was tried, for the curious
}

// CheckAgent resolves the agent a chat would run (sessionID/workspaceID
// empty: the one for new builds) without starting it.
func (a *App) CheckAgent(workspaceID, sessionID string) AgentCheck {
	s := a.GetSettings()
	ag := a.agentFor(a.agentList(), turnParams{workspaceID: workspaceID, sessionID: sessionID})
	out := AgentCheck{OK: true, AgentID: ag.ID, AgentName: ag.Name}
	// An adapter the sidecar has yet to install is no problem: the first
	// message installs it, as its own visible step.
	if _, err := agent.Resolve(agentResolve(s, ag)); err != nil && !errors.Is(err, agent.ErrNotInstalled) {
		out.OK, out.Code, out.Detail = false, chat.CodeAgentMissing, err.Error()
	}
	return out
}

// EnvPickFolder answers ChooseFolder without a dialog (tests, scripts).
const EnvPickFolder = "CDXTHEME_TEST_PICK_FOLDER"

// ChooseFolder asks for a folder with the native picker ("" when
// cancelled), e.g. when a resumed chat's folder is gone.
func (a *App) ChooseFolder(title string) (string, error) {
	if p := os.Getenv(EnvPickFolder); p != "" {
		return p, nil
	}
	if a.ctx == nil {
		return "", errors.New("no window to choose a folder in")
	}
	home, _ := os.UserHomeDir()
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: home, CanCreateDirectories: true})
}
