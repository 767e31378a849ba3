package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// themeDoc is the theme.json the app previews; field order as written.
type themeDoc struct {
	Name       string            `json:"name"`
	Appearance string            `json:"appearance"`
	Palette    map[string]string `json:"palette"`
	UI         themeUI           `json:"ui"`
	Syntax     themeSyntax       `json:"syntax"`
	ANSI       []string          `json:"ansi"`
}

type themeUI struct {
	Background string `json:"background"`
	Surface    string `json:"surface"`
	Text       string `json:"text"`
	MutedText  string `json:"mutedText"`
	Accent     string `json:"accent"`
	Border     string `json:"border"`
	Selection  string `json:"selection"`
	Error      string `json:"error"`
	Warning    string `json:"warning"`
	Success    string `json:"success"`
}

type themeSyntax struct {
	Keyword  string `json:"keyword"`
	String   string `json:"string"`
	Comment  string `json:"comment"`
	Function string `json:"function"`
	Type     string `json:"type"`
	Number   string `json:"number"`
	Constant string `json:"constant"`
	Variable string `json:"variable"`
	Operator string `json:"operator"`
}

// themeVersion returns the first draft (1) or the refined theme (2): the
// refinement changes the accent and a few syntax colours.
func themeVersion(v int) themeDoc {
	accent := "#e0a458"
	keyword := "#c586c0"
	if v == 2 {
		accent = "#ff7a59"
		keyword = "#ff9e64"
	}
	return themeDoc{
		Name:       "Fake Dusk",
		Appearance: "dark",
		Palette: map[string]string{
			"ink": "#1b1d2b", "night": "#24283b", "fog": "#c0caf5", "ash": "#7a819c",
			"amber": accent, "plum": keyword, "moss": "#9ece6a", "rose": "#f7768e", "sky": "#7aa2f7",
		},
		UI: themeUI{
			Background: "#1b1d2b", Surface: "#24283b", Text: "#c0caf5", MutedText: "#7a819c",
			Accent: accent, Border: "#3b4261", Selection: "#364a82",
			Error: "#f7768e", Warning: "#e0af68", Success: "#9ece6a",
		},
		Syntax: themeSyntax{
			Keyword: keyword, String: "#9ece6a", Comment: "#565f89", Function: "#7aa2f7",
			Type: "#2ac3de", Number: "#ff9e64", Constant: "#ff9e64", Variable: "#c0caf5", Operator: "#89ddff",
		},
		ANSI: []string{
			"#15161e", "#f7768e", "#9ece6a", "#e0af68", "#7aa2f7", "#bb9af7", "#7dcfff", "#a9b1d6",
			"#414868", "#ff899d", "#9fe044", "#faba4a", "#8db0ff", "#c7a9ff", "#a4daff", "#c0caf5",
		},
	}
}

func themeJSON(v int) string {
	b, _ := json.MarshalIndent(themeVersion(v), "", "  ")
	return string(b) + "\n"
}

// writeThemeStep announces an edit with a diff, writes the file, completes.
func (t *turn) writeThemeStep(step int, path string) error {
	var old any // null for a new file, like the real adapter
	if b, err := os.ReadFile(path); err == nil {
		old = string(b)
	}
	text := themeJSON(step)
	id := fmt.Sprintf("call_theme_%d", step)
	t.update(map[string]any{
		"sessionUpdate": "tool_call", "toolCallId": id, "kind": "edit", "title": "Edit " + path, "status": "in_progress",
		"content":   []map[string]any{{"type": "diff", "path": path, "oldText": old, "newText": text}},
		"locations": []map[string]any{{"path": path}},
	})
	// A plain write, as Codex's apply_patch does: a watcher sees it mid-turn.
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "failed"})
		return err
	}
	t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"})
	return nil
}

func theme(a *agent, t *turn) string {
	path := filepath.Join(t.ss.Cwd, "theme.json")
	t.say("Writing a first draft of theme.json. ")
	if err := t.writeThemeStep(1, path); err != nil {
		t.say("Could not write theme.json: " + err.Error())
		return "end_turn"
	}
	t.say("Draft written; ")
	if !t.sleep(300 * time.Millisecond) {
		return "cancelled"
	}
	t.say("refining the accent colour. ")
	if err := t.writeThemeStep(2, path); err != nil {
		t.say("Could not write theme.json: " + err.Error())
		return "end_turn"
	}
	t.say("Theme ready.")
	t.usage()
	return "end_turn"
}
