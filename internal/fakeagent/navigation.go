package main

import (
	_ "embed"
	"os"
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
// the prompt, else FAKE_AGENT_NAV_URL, else a port nothing listens on.
func navigationURL(prompt string) string {
	if u := loopbackRe.FindString(prompt); u != "" {
		return u
	}
	if u := os.Getenv("FAKE_AGENT_NAV_URL"); u != "" {
		return strings.TrimRight(u, "/")
	}
	return "http://127.0.0.1:9"
}

// navigation streams the corpus paragraph by paragraph, plus a tool call
// whose title is markup and a resource_link to the same page.
func navigation(a *agent, t *turn) string {
	url := navigationURL(t.text)
	body := strings.ReplaceAll(navigationCorpus, "{{URL}}", url)
	for _, para := range strings.SplitAfter(body, "\n\n") {
		t.say(para)
	}
	id := "call_" + newID()
	t.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "status": "completed", "kind": "fetch",
		"title": `<a href="` + url + `/v/tool-title">a link in a tool title</a>`})
	t.update(map[string]any{"sessionUpdate": "agent_message_chunk", "messageId": t.msgID, "content": map[string]any{
		"type": "resource_link", "name": "loopback page", "uri": url + "/v/resource-link",
	}})
	return "end_turn"
}
