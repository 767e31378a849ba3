package theme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// TargetOverrides are per-target overrides (theme.json "targets"): keys of one
// program's own theme format, passed through verbatim and applied on
// export over the values generated from the roles. An imported VS Code
// theme keeps its hundreds of workbench colours and its token rules this
// way; a key the importer read into a role is not stored here, so editing
// the role still reaches the export. Delete a key to let the roles drive
// it again.
type TargetOverrides struct {
	VSCode *VSCodeTarget `json:"vscode,omitempty"`
	Zed    *ZedTarget    `json:"zed,omitempty"`
	// ITerm2 are .itermcolors colour entries by key ("Bold Color",
	// "Ansi 0 Color (Dark)", …), in the space they were given in.
	ITerm2 map[string]SourceColor `json:"iterm2,omitempty"`
}

// VSCodeTarget overrides parts of the VS Code colour theme file.
type VSCodeTarget struct {
	// Colors are workbench colour keys; each replaces the generated value.
	Colors map[string]string `json:"colors,omitempty"`
	// TokenColors, when set, is the theme's tokenColors array, written in
	// place of the generated rules.
	TokenColors json.RawMessage `json:"tokenColors,omitempty" ts_type:"unknown[]"`
	// SemanticTokenColors are semantic token selectors; each replaces the
	// generated one.
	SemanticTokenColors map[string]json.RawMessage `json:"semanticTokenColors,omitempty" ts_type:"{[key: string]: unknown}"`
	// SemanticHighlighting, when set, replaces the generated flag.
	SemanticHighlighting *bool `json:"semanticHighlighting,omitempty"`
}

// ZedTarget overrides keys of a Zed theme's "style" object ("syntax" and
// "players" are replaced whole).
type ZedTarget struct {
	Style map[string]json.RawMessage `json:"style,omitempty" ts_type:"{[key: string]: unknown}"`
}

// TargetNames are the programs "targets" may hold overrides for.
var TargetNames = []string{"vscode", "zed", "iterm2"}

func (d *decoder) targets(raw json.RawMessage) *TargetOverrides {
	obj := d.object("targets", raw)
	if obj == nil {
		return nil
	}
	d.unknown("targets", obj, TargetNames)
	t := &TargetOverrides{}
	if v, ok := obj["vscode"]; ok {
		if o := d.object("targets.vscode", v); o != nil {
			d.unknown("targets.vscode", o, []string{"colors", "tokenColors", "semanticTokenColors", "semanticHighlighting"})
			vs := &VSCodeTarget{}
			if c, ok := o["colors"]; ok {
				if cm := d.object("targets.vscode.colors", c); cm != nil {
					vs.Colors = make(map[string]string, len(cm))
					for _, k := range sortedKeys(cm) {
						vs.Colors[k] = d.str(JoinKey("targets.vscode.colors", k), cm[k])
					}
				}
			}
			if tc, ok := o["tokenColors"]; ok {
				var arr []json.RawMessage
				if err := json.Unmarshal(tc, &arr); err != nil || arr == nil {
					d.add("targets.vscode.tokenColors", "want an array of token rules, got %s", JSONKind(tc))
				} else {
					vs.TokenColors = CompactJSON(tc)
				}
			}
			if st, ok := o["semanticTokenColors"]; ok {
				if sm := d.object("targets.vscode.semanticTokenColors", st); sm != nil {
					vs.SemanticTokenColors = make(map[string]json.RawMessage, len(sm))
					for k, v := range sm {
						vs.SemanticTokenColors[k] = CompactJSON(v)
					}
				}
			}
			if sh, ok := o["semanticHighlighting"]; ok {
				var b *bool
				if err := json.Unmarshal(sh, &b); err != nil || b == nil {
					d.add("targets.vscode.semanticHighlighting", "want true or false, got %s", JSONKind(sh))
				}
				vs.SemanticHighlighting = b
			}
			t.VSCode = vs
		}
	}
	if v, ok := obj["zed"]; ok {
		if o := d.object("targets.zed", v); o != nil {
			d.unknown("targets.zed", o, []string{"style"})
			z := &ZedTarget{}
			if st, ok := o["style"]; ok {
				if sm := d.object("targets.zed.style", st); sm != nil {
					z.Style = make(map[string]json.RawMessage, len(sm))
					for k, v := range sm {
						z.Style[k] = CompactJSON(v)
					}
				}
			}
			t.Zed = z
		}
	}
	if v, ok := obj["iterm2"]; ok {
		if o := d.object("targets.iterm2", v); o != nil {
			t.ITerm2 = make(map[string]SourceColor, len(o))
			for _, k := range sortedKeys(o) {
				if s, ok := d.sourceColor(JoinKey("targets.iterm2", k), o[k]); ok {
					t.ITerm2[k] = s
				}
			}
		}
	}
	return t
}

// compactJSON is raw without insignificant space, so a stored override
// compares equal however it was indented.
func CompactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("theme: " + err.Error()) // only maps of raw JSON and bools reach here
	}
	return b
}

// keys lists every key the overrides hold, by path (token rules in file
// order, the rest sorted): what an import keeps verbatim, and what it
// drops when the overrides are not wanted.
func (t *TargetOverrides) Keys() []string {
	if t == nil {
		return nil
	}
	var out []string
	if vs := t.VSCode; vs != nil {
		for _, k := range sortedKeys(vs.Colors) {
			out = append(out, JoinKey("colors", k))
		}
		var rules []json.RawMessage
		json.Unmarshal(vs.TokenColors, &rules)
		for i, r := range rules {
			var rule struct {
				Scope json.RawMessage `json:"scope"`
			}
			json.Unmarshal(r, &rule)
			scope := string(rule.Scope)
			if len(scope) > 80 {
				scope = scope[:77] + "..."
			}
			if scope == "" {
				scope = "no scope"
			}
			out = append(out, fmt.Sprintf("tokenColors[%d] (%s)", i, scope))
		}
		for _, k := range sortedKeys(vs.SemanticTokenColors) {
			out = append(out, JoinKey("semanticTokenColors", k))
		}
		if vs.SemanticHighlighting != nil {
			out = append(out, "semanticHighlighting")
		}
	}
	if t.Zed != nil {
		for _, k := range sortedKeys(t.Zed.Style) {
			out = append(out, JoinKey("style", k))
		}
	}
	out = append(out, sortedKeys(t.ITerm2)...)
	return out
}

// JoinKey appends an object key to a path, quoting keys with dots.
func JoinKey(path, key string) string {
	if strings.ContainsAny(key, ".[]\" ") || key == "" {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
