package main

import (
	_ "embed"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// navigationCorpus is a reply made of navigation vectors (navigation.md):
// image maps, targets, forms, base, meta refresh, SVG and MathML links,
// javascript:/data:/file: URLs and links meant to be middle-clicked,
// activated with Enter and dragged. The frontend's tests read the same file.
//
//go:embed navigation.md
var navigationCorpus string

var loopbackRe = regexp.MustCompile(`https?://(?:127\.0\.0\.1|localhost|\[::1\]):[0-9]+`)

// navigationURL is the page the vectors point at: the first loopback URL in
// the prompt, else a port nothing listens on.
func navigationURL(prompt string) string {
	if u := loopbackRe.FindString(prompt); u != "" {
		return u
	}
	return "http://127.0.0.1:9"
}

// mimeFiles are the open-or-reveal cases (internal/suites/navtest clicks them).
var mimeFiles = []struct{ label, name, body string }{
	{"mime-kdelnk", "palette.kdelnk", "[Desktop Entry]\nType=Application\nExec=sh -c id\n"},
	{"mime-entry", "palette", "[Desktop Entry]\nType=Application\nExec=sh -c id\n"},
	{"mime-msc", "console.msc", "<?xml version=\"1.0\"?><MMC_ConsoleFile/>"},
	{"mime-json", "theme.json", `{"name":"dusk"}`},
	{"mime-text", "notes.txt", "amber, rust, deep indigo"},
}

// navigation streams the corpus paragraph by paragraph, plus a tool call
// whose title is markup and a resource_link to the same page.
func navigation(a *agent, t *turn) string {
	url := navigationURL(t.text)
	body := strings.ReplaceAll(navigationCorpus, "{{URL}}", url)
	for _, para := range strings.SplitAfter(body, "\n\n") {
		t.say(para)
	}
	// Files of its workspace that the OS would run or show, each linked
	// under its label (one line, so every vector stays in view): only the
	// viewable ones may be opened.
	var line []string
	for _, f := range mimeFiles {
		os.WriteFile(filepath.Join(t.ss.Cwd, f.name), []byte(f.body), 0o644)
		line = append(line, "⟦"+f.label+"⟧ ["+f.name+"]("+f.name+")")
	}
	t.say(strings.Join(line, " ") + "\n\n")
	id := "call_" + newID()
	t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "status": "completed", "kind": "fetch",
		"title": `<a href="` + url + `/v/tool-title">a link in a tool title</a>`})
	t.update(map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": t.msgID, "content": map[string]any{
		"type": "resource_link", "name": "loopback page", "uri": url + "/v/resource-link",
	}})
	return "end_turn"
}
