package scopes

import (
	"encoding/json"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// TokenRule is one TextMate scope rule of an imported VS Code theme:
// FG, BG and Style are nil where the rule does not set them.
type TokenRule struct {
	Name, Scope string
	FG, BG      *theme.Color
	Style       *string
}

// TokenRules reads targets.vscode.tokenColors as TextMate rules, which
// the TextMate export writes in place of the generated ones so bat and
// Sublime paint what VS Code paints; nil when the theme has none. A rule without a scope (VS Code's global
// default) or without a colour or style is left out, and so is a colour
// that does not parse: the role colours stand there.
func TokenRules(t *theme.Theme) []TokenRule {
	if t.Targets == nil || t.Targets.VSCode == nil || len(t.Targets.VSCode.TokenColors) == 0 {
		return nil
	}
	return parseTokenRules(t.Targets.VSCode.TokenColors)
}

// parseTokenRules is TokenRules of a tokenColors array that is there.
func parseTokenRules(raw []byte) []TokenRule {
	var items []struct {
		Name     string          `json:"name"`
		Scope    json.RawMessage `json:"scope"`
		Settings struct {
			Foreground *string `json:"foreground"`
			Background *string `json:"background"`
			FontStyle  *string `json:"fontStyle"`
		} `json:"settings"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []TokenRule
	for _, it := range items {
		var scope string
		if json.Unmarshal(it.Scope, &scope) != nil {
			var list []string
			if json.Unmarshal(it.Scope, &list) != nil {
				continue
			}
			scope = strings.Join(list, ", ")
		}
		if strings.TrimSpace(scope) == "" {
			continue
		}
		r := TokenRule{Name: it.Name, Scope: scope, Style: it.Settings.FontStyle}
		if it.Settings.Foreground != nil {
			if c, err := colour.ParseLoose(*it.Settings.Foreground); err == nil {
				r.FG = &c
			}
		}
		if it.Settings.Background != nil {
			if c, err := colour.ParseLoose(*it.Settings.Background); err == nil {
				r.BG = &c
			}
		}
		if r.FG == nil && r.BG == nil && r.Style == nil {
			continue
		}
		out = append(out, r)
	}
	if out == nil {
		return []TokenRule{}
	}
	return out
}
