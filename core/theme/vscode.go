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
}

type vscodeToken struct {
	Name     string   `json:"name"`
	Scope    []string `json:"scope"`
	Settings struct {
		Foreground string `json:"foreground"`
		FontStyle  string `json:"fontStyle,omitempty"`
	} `json:"settings"`
}

// vscodeScopes maps our syntax roles to TextMate scopes.
var vscodeScopes = []struct {
	role, label string
	scopes      []string
	style       string
}{
	{"comment", "Comment", []string{"comment", "punctuation.definition.comment"}, "italic"},
	{"keyword", "Keyword", []string{"keyword", "keyword.control", "storage.type", "storage.modifier"}, ""},
	{"operator", "Operator", []string{"keyword.operator", "punctuation.separator", "punctuation.accessor"}, ""},
	{"string", "String", []string{"string", "string.quoted", "punctuation.definition.string"}, ""},
	{"function", "Function", []string{"entity.name.function", "support.function", "meta.function-call"}, ""},
	{"type", "Type", []string{"entity.name.type", "entity.name.class", "support.type", "support.class", "storage.type.class"}, ""},
	{"number", "Number", []string{"constant.numeric"}, ""},
	{"constant", "Constant", []string{"constant", "constant.language", "support.constant", "variable.other.constant"}, ""},
	{"variable", "Variable", []string{"variable", "variable.other", "variable.parameter", "meta.definition.variable"}, ""},
}

var vscodeANSI = []string{"Black", "Red", "Green", "Yellow", "Blue", "Magenta", "Cyan", "White"}

func vscodeColors(t *Theme) map[string]string {
	u := t.UI
	onAccent := readable(u.Accent, u.Background, u.Text)
	c := map[string]string{
		"foreground":                               u.Text.String(),
		"descriptionForeground":                    u.MutedText.String(),
		"errorForeground":                          u.Error.String(),
		"focusBorder":                              u.Accent.String(),
		"textLink.foreground":                      u.Accent.String(),
		"textLink.activeForeground":                u.Accent.String(),
		"widget.border":                            u.Border.String(),
		"selection.background":                     u.Selection.String(),
		"editor.background":                        u.Background.String(),
		"editor.foreground":                        u.Text.String(),
		"editor.selectionBackground":               u.Selection.String(),
		"editor.lineHighlightBackground":           u.Surface.String(),
		"editorCursor.foreground":                  u.Accent.String(),
		"editorLineNumber.foreground":              u.MutedText.String(),
		"editorLineNumber.activeForeground":        u.Text.String(),
		"editorIndentGuide.background1":            u.Border.String(),
		"editorWhitespace.foreground":              u.Border.String(),
		"editorError.foreground":                   u.Error.String(),
		"editorWarning.foreground":                 u.Warning.String(),
		"editorInfo.foreground":                    u.Accent.String(),
		"editorGutter.addedBackground":             u.Success.String(),
		"editorGutter.modifiedBackground":          u.Warning.String(),
		"editorGutter.deletedBackground":           u.Error.String(),
		"editorWidget.background":                  u.Surface.String(),
		"editorWidget.border":                      u.Border.String(),
		"editorGroup.border":                       u.Border.String(),
		"editorGroupHeader.tabsBackground":         u.Surface.String(),
		"tab.activeBackground":                     u.Background.String(),
		"tab.activeForeground":                     u.Text.String(),
		"tab.inactiveBackground":                   u.Surface.String(),
		"tab.inactiveForeground":                   u.MutedText.String(),
		"tab.border":                               u.Border.String(),
		"sideBar.background":                       u.Surface.String(),
		"sideBar.foreground":                       u.Text.String(),
		"sideBar.border":                           u.Border.String(),
		"sideBarTitle.foreground":                  u.Text.String(),
		"activityBar.background":                   u.Surface.String(),
		"activityBar.foreground":                   u.Text.String(),
		"activityBar.inactiveForeground":           u.MutedText.String(),
		"activityBar.border":                       u.Border.String(),
		"activityBarBadge.background":              u.Accent.String(),
		"activityBarBadge.foreground":              onAccent.String(),
		"statusBar.background":                     u.Surface.String(),
		"statusBar.foreground":                     u.MutedText.String(),
		"statusBar.border":                         u.Border.String(),
		"titleBar.activeBackground":                u.Surface.String(),
		"titleBar.activeForeground":                u.Text.String(),
		"titleBar.inactiveBackground":              u.Surface.String(),
		"titleBar.inactiveForeground":              u.MutedText.String(),
		"panel.background":                         u.Background.String(),
		"panel.border":                             u.Border.String(),
		"panelTitle.activeForeground":              u.Text.String(),
		"panelTitle.inactiveForeground":            u.MutedText.String(),
		"input.background":                         u.Surface.String(),
		"input.foreground":                         u.Text.String(),
		"input.border":                             u.Border.String(),
		"input.placeholderForeground":              u.MutedText.String(),
		"dropdown.background":                      u.Surface.String(),
		"dropdown.foreground":                      u.Text.String(),
		"dropdown.border":                          u.Border.String(),
		"button.background":                        u.Accent.String(),
		"button.foreground":                        onAccent.String(),
		"badge.background":                         u.Accent.String(),
		"badge.foreground":                         onAccent.String(),
		"list.activeSelectionBackground":           u.Selection.String(),
		"list.activeSelectionForeground":           u.Text.String(),
		"list.inactiveSelectionBackground":         u.Selection.String(),
		"list.hoverBackground":                     u.Surface.String(),
		"list.errorForeground":                     u.Error.String(),
		"list.warningForeground":                   u.Warning.String(),
		"gitDecoration.addedResourceForeground":    u.Success.String(),
		"gitDecoration.modifiedResourceForeground": u.Warning.String(),
		"gitDecoration.deletedResourceForeground":  u.Error.String(),
		"terminal.background":                      u.Background.String(),
		"terminal.foreground":                      u.Text.String(),
		"terminal.selectionBackground":             u.Selection.String(),
		"terminalCursor.foreground":                u.Accent.String(),
	}
	for i, n := range vscodeANSI {
		c["terminal.ansi"+n] = t.ANSI[i].String()
		c["terminal.ansiBright"+n] = t.ANSI[i+8].String()
	}
	return c
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
	}
	for _, s := range vscodeScopes {
		var tok vscodeToken
		tok.Name, tok.Scope = s.label, s.scopes
		tok.Settings.Foreground = t.Syntax.Role(s.role).String()
		tok.Settings.FontStyle = s.style
		th.TokenColors = append(th.TokenColors, tok)
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
