package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cdxtheme/core/contrast"
	"cdxtheme/core/fsread"
	"cdxtheme/core/inside"
	"cdxtheme/core/render"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// Tool names.
const (
	ToolCheck  = "theme_check"
	ToolRender = "theme_render"
	ToolRoles  = "theme_roles"
	ToolExport = "theme_export"
)

// tool is one entry of tools/list.
type tool struct {
	Name         string         `json:"name"`
	Title        string         `json:"title"`
	Description  string         `json:"description"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	Annotations  map[string]any `json:"annotations"`
}

var pathProp = map[string]any{
	"type":        "string",
	"maxLength":   1024,
	"description": "A theme file inside the workspace, relative to it (default \"theme.json\"). Use it to check a draft before it replaces theme.json.",
}

var variantProp = map[string]any{
	"type":        "string",
	"enum":        []string{"main", "companion"},
	"description": "Which appearance of the theme: \"main\" (the document's own, default) or \"companion\" (its other appearance, when the document has one).",
}

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// exportFormats are the formats theme_export shows: the text ones (a .vsix
// is a zip).
func exportFormats() []string {
	var out []string
	for _, id := range targets.FormatIDs() {
		if id != "vsix" {
			out = append(out, id)
		}
	}
	return out
}

func tools() []tool {
	readOnly := map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
	return []tool{
		{
			Name:  ToolCheck,
			Title: "Check the theme",
			Description: "Run the app's own check of theme.json, the one the designer sees after your turn. " +
				"Reports parse errors (the role and the reason), every contrast pair below its target (WCAG 2 ratio and APCA Lc, " +
				"which roles, which palette entry each follows, and the nearest passing colour that keeps the hue), " +
				"the colours the designer locked or edited by hand that you must keep, and warnings. " +
				"Call it after every write to theme.json and fix what it reports before you say you are done; \"passes\": true means nothing is left.",
			InputSchema: object(map[string]any{
				"path": pathProp,
				"target": map[string]any{
					"type": "number", "minimum": 3, "maximum": 21,
					"description": "The WCAG contrast ratio every reading pair must reach (default 4.5, level AA; 7 is AAA).",
				},
			}),
			OutputSchema: checkSchema,
			Annotations:  readOnly,
		},
		{
			Name:  ToolRender,
			Title: "Render the theme",
			Description: "A 1200×800 PNG picture of the theme as it will look: an editor showing a code sample with syntax colours, " +
				"line numbers, the current line, a selection, the cursor, an error squiggle and a diff; the UI chrome (tabs, sidebar, status bar); " +
				"and a terminal with all 16 ANSI colours as text and as swatches. Call it after writing theme.json when you can read images, " +
				"and look at whether the design holds together.",
			InputSchema: object(map[string]any{
				"path":     pathProp,
				"variant":  variantProp,
				"language": map[string]any{"type": "string", "enum": render.Languages(), "description": "The language of the code sample (default \"go\")."},
			}),
			Annotations: readOnly,
		},
		{
			Name:  ToolRoles,
			Title: "List the theme's roles",
			Description: "Every colour role of the catalogue with the colour the theme paints it, whether the document sets it or derives it " +
				"(and the rule it derives by), which palette entry it follows, and the palette itself. Use it to see what changing one colour moves.",
			InputSchema: object(map[string]any{
				"path":    pathProp,
				"variant": variantProp,
				"group": map[string]any{
					"type": "string", "enum": []string{"ui", "syntax", "ansi", "editor", "diff", "diagnostic", "terminal"},
					"description": "Only the roles of this group (default: all).",
				},
			}),
			Annotations: readOnly,
		},
		{
			Name:  ToolExport,
			Title: "Show an exported file",
			Description: "The file(s) one target receives from the theme, as text: what VS Code, Neovim, a terminal and so on will actually get. " +
				"Nothing is written.",
			InputSchema: object(map[string]any{
				"format": map[string]any{"type": "string", "enum": exportFormats(), "description": "The target format."},
				"path":   pathProp,
			}, "format"),
			Annotations: readOnly,
		},
	}
}

// content is one block of a tool result.
type content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// result is a tools/call result.
type result struct {
	Content           []content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

// toolError is a result the model can read and act on: bad arguments, a
// theme that does not parse, a path outside the workspace.
func toolError(format string, a ...any) *result {
	return &result{Content: []content{{Type: "text", Text: fmt.Sprintf(format, a...)}}, IsError: true}
}

// maxArgs bounds a call's arguments (every argument is a short string or
// a number).
const maxArgs = 16 << 10

func (s *Server) call(ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "tools/call wants params {name, arguments}"}
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if len(args) > maxArgs {
		return toolError("the arguments are %d bytes; this tool takes a few short fields", len(args)), nil
	}
	var in struct {
		Path     *string  `json:"path"`
		Variant  *string  `json:"variant"`
		Language *string  `json:"language"`
		Group    *string  `json:"group"`
		Format   *string  `json:"format"`
		Target   *float64 `json:"target"`
	}
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		switch p.Name {
		case ToolCheck, ToolRender, ToolRoles, ToolExport:
			return toolError("bad arguments for %s: %v (see its input schema)", p.Name, err), nil
		}
	}
	str := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	allowed := map[string][]string{
		ToolCheck: {"path", "target"}, ToolRender: {"path", "variant", "language"},
		ToolRoles: {"path", "variant", "group"}, ToolExport: {"path", "format"},
	}
	given := map[string]bool{"path": in.Path != nil, "variant": in.Variant != nil, "language": in.Language != nil,
		"group": in.Group != nil, "format": in.Format != nil, "target": in.Target != nil}
	if want, ok := allowed[p.Name]; ok {
		for k, g := range given {
			if g && !contains(want, k) {
				return toolError("%s takes no argument %q (it takes %s)", p.Name, k, strings.Join(want, ", ")), nil
			}
		}
	}
	switch p.Name {
	case ToolCheck:
		target := contrast.AA
		if in.Target != nil {
			if *in.Target < 3 || *in.Target > 21 {
				return toolError("target must lie between 3 and 21, got %v", *in.Target), nil
			}
			target = *in.Target
		}
		return s.check(str(in.Path), target), nil
	case ToolRender:
		return s.render(ctx, str(in.Path), str(in.Variant), str(in.Language)), nil
	case ToolRoles:
		return s.roles(str(in.Path), str(in.Variant), str(in.Group)), nil
	case ToolExport:
		if in.Format == nil {
			return toolError("theme_export needs a format, one of %s", strings.Join(exportFormats(), ", ")), nil
		}
		return s.export(str(in.Path), *in.Format), nil
	}
	return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown tool %q (this server has %s, %s, %s and %s)", clip(p.Name, 80), ToolCheck, ToolRender, ToolRoles, ToolExport)}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clip shortens untrusted text quoted back.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// readTheme reads a theme file of the workspace: rel (default
// theme.json) must lie inside it and be a regular file of bounded size.
func (s *Server) readTheme(rel string) (string, []byte, error) {
	if rel == "" {
		rel = theme.FileName
	}
	if len(rel) > 1024 {
		return clip(rel, 80), nil, errors.New("the path is too long")
	}
	real, fi, err := inside.Resolve(s.cfg.Dir, rel)
	if err != nil {
		if errors.Is(err, inside.ErrOutside) {
			return clip(rel, 200), nil, fmt.Errorf("%s lies outside the workspace; this server reads only the workspace's own files", clip(rel, 200))
		}
		return clip(rel, 200), nil, err
	}
	if fi.IsDir() {
		return rel, nil, fmt.Errorf("%s is a folder, not a theme file", rel)
	}
	data, err := fsread.ReadFile(real, theme.MaxFileSize, fsread.NoFollow)
	if err != nil {
		return rel, nil, err
	}
	return rel, data, nil
}

// parsed reads and parses a theme file; a broken one is a tool error
// naming its problems (bounded).
func (s *Server) parsed(rel, variant string) (*theme.Theme, string, *result) {
	name, data, err := s.readTheme(rel)
	if err != nil {
		return nil, name, toolError("cannot read %s: %v", name, err)
	}
	t, err := theme.Parse(data)
	if err != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s does not parse; fix these first (theme_check lists them too):\n", name)
		for i, p := range problemsOf(err) {
			if i == maxProblems {
				fmt.Fprintf(&b, "… and more\n")
				break
			}
			fmt.Fprintf(&b, "- %s: %s\n", orDoc(p.Path), clip(p.Message, 300))
		}
		return nil, name, toolError("%s", b.String())
	}
	switch variant {
	case "", "main":
	case "companion":
		if t.Companion == nil {
			return nil, name, toolError("%s has no companion (no other appearance); leave out variant", name)
		}
		t = t.Companion
	default:
		return nil, name, toolError("variant must be \"main\" or \"companion\", got %q", clip(variant, 40))
	}
	return t, name, nil
}

func problemsOf(err error) []theme.Problem {
	var ve *theme.ValidationError
	if errors.As(err, &ve) {
		return ve.Problems
	}
	return []theme.Problem{{Message: err.Error()}}
}

func orDoc(path string) string {
	if path == "" {
		return "(document)"
	}
	return path
}

// maxProblems bounds the parse errors reported: a hostile file can make
// thousands; the first ones are what to fix.
const maxProblems = 40
