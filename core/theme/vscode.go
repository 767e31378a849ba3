package theme

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// renderVSCode is a VS Code extension folder holding every theme of the
// family (one contributes.themes entry and one colour theme file each),
// named after the first.
func renderVSCode(fam []*Theme) (map[string][]byte, error) {
	t := fam[0]
	slug := Slug(t.Name)
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
	files := map[string][]byte{}
	for _, m := range fam {
		themePath := "themes/" + Slug(m.Name) + "-color-theme.json"
		uiTheme, kind := "vs-dark", "dark"
		if m.Appearance == "light" {
			uiTheme, kind = "vs", "light"
		}
		pkg.Contributes.Themes = append(pkg.Contributes.Themes, vscodeContribution{Label: m.Name, UITheme: uiTheme, Path: "./" + themePath})
		th := vscodeTheme{
			Schema: "vscode://schemas/color-theme", Name: m.Name, Type: kind,
			SemanticHighlighting: true, Colors: vscodeColors(m),
			TokenColors: vscodeTokens(m), SemanticTokenColors: vscodeSemanticColors(m),
		}
		tb, err := marshalJSON(th)
		if err != nil {
			return nil, err
		}
		if tb, err = applyVSCodeTargets(m, tb); err != nil {
			return nil, err
		}
		if _, dup := files[themePath]; dup {
			return nil, fmt.Errorf("%s and %s both write %s: give them names that differ in letters or digits", t.Name, m.Name, themePath)
		}
		files[themePath] = tb
	}
	p, err := marshalJSON(pkg)
	if err != nil {
		return nil, err
	}
	files["package.json"] = p
	return files, nil
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
