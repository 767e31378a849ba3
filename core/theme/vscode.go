package theme

import (
	"bytes"
	"encoding/json"
)

// VSCodePublisher and VSCodeVersion name the generated extension; the
// install folder is <publisher>.<slug>-<version>.
const (
	VSCodePublisher = "cdxtheme"
	VSCodeVersion   = "1.0.0"
)

type vscodePackage struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Version     string `json:"version"`
	Publisher   string `json:"publisher"`
	Engines     struct {
		VSCode string `json:"vscode"`
	} `json:"engines"`
	Categories  []string `json:"categories"`
	Contributes struct {
		Themes []vscodeContribution `json:"themes"`
	} `json:"contributes"`
}

type vscodeContribution struct {
	Label   string `json:"label"`
	UITheme string `json:"uiTheme"`
	Path    string `json:"path"`
}

type vscodeTheme struct {
	Schema               string            `json:"$schema"`
	Name                 string            `json:"name"`
	Type                 string            `json:"type"`
	SemanticHighlighting bool              `json:"semanticHighlighting"`
	Colors               map[string]string `json:"colors"`
	TokenColors          []vscodeToken     `json:"tokenColors"`
	SemanticTokenColors  ordered           `json:"semanticTokenColors"`
}

type vscodeToken struct {
	Name     string   `json:"name"`
	Scope    []string `json:"scope"`
	Settings struct {
		Foreground string  `json:"foreground"`
		FontStyle  *string `json:"fontStyle,omitempty"`
	} `json:"settings"`
}

// vscodeSemantic is one semanticTokenColors value: a colour and the font
// style flags VS Code takes there.
type vscodeSemantic struct {
	Foreground    string `json:"foreground"`
	Bold          bool   `json:"bold,omitempty"`
	Italic        bool   `json:"italic,omitempty"`
	Underline     bool   `json:"underline,omitempty"`
	Strikethrough bool   `json:"strikethrough,omitempty"`
}

// vscodeANSI are the colour names of VS Code's terminal.ansi* ids, in ANSI order.
var vscodeANSI = []string{"Black", "Red", "Green", "Yellow", "Blue", "Magenta", "Cyan", "White"}

// vscodeColors paints every id of vscodeColorTable; VS Code draws alpha,
// so translucent roles stay translucent.
func vscodeColors(t *Theme) map[string]string {
	c := make(map[string]string, len(vscodeColorKeys))
	for _, k := range vscodeColorKeys {
		c[k.key] = k.paint(t).String()
	}
	return c
}

// vscodeTokens are the tokenColors rules: one per syntax role, its
// TextMate scopes from syntaxMap and its font style.
func vscodeTokens(t *Theme) []vscodeToken {
	var out []vscodeToken
	for _, m := range syntaxMap {
		path := "syntax." + m.role
		var tok vscodeToken
		tok.Name, tok.Scope = m.label, m.textmate
		tok.Settings.Foreground = t.Color(path).String()
		// Always written, "" too: an unset font style is inherited from a
		// less specific scope's rule (a bold "keyword" would make
		// "keyword.operator" bold).
		s := string(t.Style(path))
		tok.Settings.FontStyle = &s
		out = append(out, tok)
	}
	return out
}

// vscodeSemanticColors are the semanticTokenColors: every LSP selector of
// syntaxMap with its role's colour and style.
func vscodeSemanticColors(t *Theme) ordered {
	var out ordered
	for _, m := range syntaxMap {
		path := "syntax." + m.role
		st := t.Style(path)
		for _, sel := range m.semantic {
			out = append(out, orderedKV{sel, vscodeSemantic{
				Foreground: t.Color(path).String(),
				Bold:       st.Has("bold"), Italic: st.Has("italic"), Underline: st.Has("underline"), Strikethrough: st.Has("strikethrough"),
			}})
		}
	}
	return out
}

func renderVSCode(t *Theme) (map[string][]byte, error) {
	slug := Slug(t.Name)
	themePath := "themes/" + slug + "-color-theme.json"
	uiTheme, kind := "vs-dark", "dark"
	if t.Appearance == "light" {
		uiTheme, kind = "vs", "light"
	}
	var pkg vscodePackage
	pkg.Name = slug
	pkg.DisplayName = t.Name
	pkg.Description = t.Description
	if pkg.Description == "" {
		pkg.Description = t.Name + " colour theme, made with CDXTheme"
	}
	pkg.Version = VSCodeVersion
	pkg.Publisher = VSCodePublisher
	pkg.Engines.VSCode = "^1.70.0"
	pkg.Categories = []string{"Themes"}
	pkg.Contributes.Themes = []vscodeContribution{{Label: t.Name, UITheme: uiTheme, Path: "./" + themePath}}

	th := vscodeTheme{
		Schema: "vscode://schemas/color-theme", Name: t.Name, Type: kind,
		SemanticHighlighting: true, Colors: vscodeColors(t),
		TokenColors: vscodeTokens(t), SemanticTokenColors: vscodeSemanticColors(t),
	}
	p, err := marshalJSON(pkg)
	if err != nil {
		return nil, err
	}
	tb, err := marshalJSON(th)
	if err != nil {
		return nil, err
	}
	if tb, err = applyVSCodeTargets(t, tb); err != nil {
		return nil, err
	}
	return map[string][]byte{"package.json": p, themePath: tb}, nil
}

// marshalJSON is indented JSON with a trailing newline and without HTML
// escaping, so theme names with "&" or "<" stay readable.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
