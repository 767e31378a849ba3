package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
	"cdxtheme/core/themeimport"
	"cdxtheme/core/workspace"
)

// VSCodeTheme renders a theme document (JSON text) with the VS Code
// exporter and returns its color theme: the preview highlights code with
// exactly what VS Code will be given.
func (th *Themes) VSCodeTheme(doc string) (string, error) {
	if len(doc) > themeimport.MaxImportSize {
		return "", fmt.Errorf("the theme document is %d bytes; at most %d", len(doc), themeimport.MaxImportSize)
	}
	t, err := theme.Parse([]byte(doc))
	if err != nil {
		return "", err
	}
	files, err := targets.Render(t, "vscode")
	if err != nil {
		return "", err
	}
	// The theme's own file: a companion's sits beside it.
	if b, ok := files["themes/"+theme.Slug(t.Name)+"-color-theme.json"]; ok {
		return string(b), nil
	}
	return "", errors.New("the VS Code export has no color theme")
}

// ImportRequest is a theme file dropped on the window: its name (for the
// format and messages), its content and an optional theme name.
type ImportRequest struct {
	FileName string `json:"fileName"`
	Data     []byte `json:"data" ts_type:"string"` // base64 on the wire
	Name     string `json:"name,omitempty"`
}

// ImportResult is the new build and where each role came from.
type ImportResult struct {
	WorkspaceID string                   `json:"workspaceId"`
	Dir         string                   `json:"dir"`
	Title       string                   `json:"title"`
	Format      string                   `json:"format"`
	Mapped      []themeimport.Mapping    `json:"mapped"`
	Derived     []themeimport.Derivation `json:"derived"`
	Warnings    []string                 `json:"warnings"`
}

// ImportTheme creates a build from a theme file the user dropped: the same
// import as `cdxtheme import`, with the content coming from the page.
func (th *Themes) ImportTheme(req ImportRequest) (ImportResult, error) {
	if len(req.Data) == 0 {
		return ImportResult{}, errors.New("the dropped file is empty")
	}
	if len(req.Data) > themeimport.MaxImportSize {
		return ImportResult{}, fmt.Errorf("%s is %d bytes; a theme file is at most %d", req.FileName, len(req.Data), themeimport.MaxImportSize)
	}
	name := filepath.Base(strings.ReplaceAll(req.FileName, "\\", "/"))
	if name == "." || name == "/" || strings.TrimSpace(name) == "" {
		name = "dropped file"
	}
	imp, err := themeimport.Import(name, req.Data)
	if err != nil {
		return ImportResult{}, err
	}
	imp.Rename(req.Name)
	doc, err := imp.Document()
	if err != nil {
		return ImportResult{}, err
	}
	ws, err := workspace.CreateWithTheme(workspace.Root(), imp.Theme.Name, doc)
	if err != nil {
		return ImportResult{}, err
	}
	th.watch(ws)
	warnings := imp.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return ImportResult{WorkspaceID: ws.ID, Dir: ws.Dir, Title: ws.Title, Format: imp.Format,
		Mapped: imp.Mapped, Derived: imp.Derived, Warnings: warnings}, nil
}
