package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/render"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

func (s *Server) render(ctx context.Context, rel, variant, lang string) *result {
	t, name, bad := s.parsed(rel, variant)
	if bad != nil {
		return bad
	}
	if lang == "" {
		lang = render.DefaultLanguage
	}
	if !contains(render.Languages(), lang) {
		return toolError("language must be one of %s, got %q", strings.Join(render.Languages(), ", "), clip(lang, 40))
	}
	if err := ctx.Err(); err != nil {
		return toolError("cancelled")
	}
	png, err := render.PNG(t, lang)
	if err != nil {
		return toolError("render %s: %v", name, err)
	}
	what := t.Name
	if variant == "companion" {
		what += " (companion, " + t.Appearance + ")"
	} else {
		what += " (" + t.Appearance + ")"
	}
	return &result{Content: []content{
		{Type: "image", Data: base64.StdEncoding.EncodeToString(png), MimeType: "image/png"},
		{Type: "text", Text: fmt.Sprintf("%s rendered from %s, %d×%d PNG with a %s sample: tabs and sidebar on ui.surface, the editor on ui.background, a diff, and a terminal with the 16 ANSI colours (normal row, then bright).",
			clip(what, 120), name, render.Width, render.Height, lang)},
	}}
}

// RoleEntry is one role as theme_roles lists it.
type RoleEntry struct {
	Role  string `json:"role"`
	Label string `json:"label"`
	Help  string `json:"help"`
	Color string `json:"color"`
	// Set is true when the document gives the colour itself; otherwise it
	// is derived, by Derives.
	Set     bool   `json:"set"`
	Derives string `json:"derives,omitempty"`
	// Follows is the palette entry the role follows ("" when none).
	Follows  string `json:"follows"`
	Required bool   `json:"required"`
}

// RolesResult is theme_roles' structured content.
type RolesResult struct {
	File    string            `json:"file"`
	Palette map[string]string `json:"palette"`
	Roles   []RoleEntry       `json:"roles"`
}

func (s *Server) roles(rel, variant, group string) *result {
	t, name, bad := s.parsed(rel, variant)
	if bad != nil {
		return bad
	}
	known := []string{"ui", "syntax", "ansi", "editor", "diff", "diagnostic", "terminal"}
	if group != "" && !contains(known, group) {
		return toolError("group must be one of %s, got %q", strings.Join(known, ", "), clip(group, 40))
	}
	res := RolesResult{File: name, Palette: map[string]string{}, Roles: []RoleEntry{}}
	for k, c := range t.Palette {
		res.Palette[k] = c.String()
	}
	values := map[string]theme.RoleValue{}
	for _, v := range t.Values() {
		values[v.Path] = v
	}
	for _, info := range theme.Catalogue() {
		if group != "" && !strings.HasPrefix(info.Path, group+".") {
			continue
		}
		v := values[info.Path]
		res.Roles = append(res.Roles, RoleEntry{
			Role: info.Path, Label: info.Label, Help: info.Help, Color: v.Color, Set: v.Set,
			Derives: v.RuleText, Follows: follows(t, info.Path), Required: info.Required,
		})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d roles of %s (%s, %s)", len(res.Roles), name, clip(t.Name, 80), t.Appearance)
	if len(res.Palette) > 0 {
		keys := make([]string, 0, len(res.Palette))
		for k := range res.Palette {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("; palette:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s %s", clip(k, 40), res.Palette[k])
		}
	}
	b.WriteString("\n")
	for _, r := range res.Roles {
		fmt.Fprintf(&b, "%s %s", r.Role, r.Color)
		switch {
		case !r.Set:
			fmt.Fprintf(&b, " (derived: %s)", r.Derives)
		case r.Follows != "":
			fmt.Fprintf(&b, " (follows palette %s)", r.Follows)
		}
		b.WriteString("\n")
	}
	return &result{Content: []content{{Type: "text", Text: strings.TrimRight(b.String(), "\n")}}, StructuredContent: res}
}

// maxExport bounds theme_export's text: a theme's largest text export
// (VS Code) is some tens of KiB.
const maxExport = 256 << 10

func (s *Server) export(rel, format string) *result {
	if !contains(exportFormats(), format) {
		return toolError("format must be one of %s, got %q", strings.Join(exportFormats(), ", "), clip(format, 40))
	}
	t, name, bad := s.parsed(rel, "")
	if bad != nil {
		return bad
	}
	files, err := targets.Render(t, format)
	if err != nil {
		return toolError("export %s as %s: %v", name, format, err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "%s as %s: %d file(s)\n", name, format, len(paths))
	for _, p := range paths {
		data := files[p]
		fmt.Fprintf(&b, "\n=== %s (%d bytes) ===\n", p, len(data))
		if !utf8.Valid(data) {
			b.WriteString("(binary, not shown)\n")
			continue
		}
		if room := maxExport - b.Len(); len(data) > room {
			if room > 0 {
				b.Write(data[:cutUTF8(data, room)])
			}
			fmt.Fprintf(&b, "\n… cut: the answer keeps %d bytes; the rest of this file and any after it are left out\n", maxExport)
			break
		}
		b.Write(data)
	}
	return &result{Content: []content{{Type: "text", Text: b.String()}}}
}

// cutUTF8 is the largest n ≤ max at which data can be cut without
// splitting a character.
func cutUTF8(data []byte, max int) int {
	n := max
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return n
}
