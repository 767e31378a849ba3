package main

import (
	"path/filepath"
	"strings"
)

// codeReply is Markdown with what the chat must lay out and offer to copy:
// fenced code in two languages (one with a line far wider than any window),
// inline code and a long unbroken word.
const codeReply = "Here is the accent change as CSS:\n\n" +
	"```css\n:root {\n  --accent: #ff7a59; /* refined */\n  --keyword: #ff9e64;\n}\n```\n\n" +
	"And the same in TypeScript:\n\n" +
	"```ts\nconst accent: string = \"#ff7a59\";\nexport function tint(hex: string, amount = 0.1): string {\n  return hex + Math.round(amount * 255).toString(16);\n}\n" +
	"const wide = \"" + "0123456789abcdef" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\";\n```\n\n" +
	"Run `kitten themes` to pick it. A path with no spaces: /home/user/.config/kitty/themes/fake-dusk-with-a-very-long-name-that-never-breaks-anywhere.conf\n"

// code writes a theme (an edit card with a diff), runs a command (an
// execute card with output) and answers with code blocks: one turn that
// shows every kind of content the chat lays out.
func code(a *agent, t *turn) string {
	if err := t.writeThemeStep(1, filepath.Join(t.ss.Cwd, "theme.json")); err != nil {
		t.say("Could not write theme.json: " + err.Error())
		return "end_turn"
	}
	const id = "call_code_check"
	cmd := "cdxtheme check --json ."
	t.update(execToolCall(id, cmd, t.ss.Cwd, "in_progress"))
	t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
		"_meta": map[string]any{"terminal_output": map[string]any{"terminal_id": id, "data": strings.Repeat("pair ok\n", 3)}}})
	t.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"_meta": map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0, "signal": nil}}})
	for _, part := range strings.SplitAfter(codeReply, "\n\n") {
		t.say(part)
	}
	t.usage()
	return "end_turn"
}
