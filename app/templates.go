package app

import (
	"fmt"
	"path/filepath"
	"slices"

	"cdxtheme/core/fswrite"
	"cdxtheme/core/targets"
	"cdxtheme/core/targets/tinted"
	"cdxtheme/core/theme"
)

// ExportFormats lists every export format, in menu order: the Export
// menu is built from it, so a target added as data appears there too.
func (th *Themes) ExportFormats() []targets.Format { return targets.Formats }

// TemplateFolder is one of the settings' tinted-theming template folders
// as Export offers it: its name and templates, or why it cannot be used.
type TemplateFolder struct {
	Dir       string   `json:"dir"`
	Name      string   `json:"name"`
	Templates []string `json:"templates"`
	Error     string   `json:"error,omitempty"`
}

// TemplateFolders reads the template folders named in the settings.
func (th *Themes) TemplateFolders() []TemplateFolder {
	out := []TemplateFolder{}
	for _, dir := range th.settings.current().TemplateFolders {
		tf := TemplateFolder{Dir: dir, Name: filepath.Base(dir), Templates: []string{}}
		if f, err := tinted.Load(dir); err != nil {
			tf.Error = err.Error()
		} else {
			for _, e := range f.Entries {
				tf.Templates = append(tf.Templates, e.Name)
			}
		}
		out = append(out, tf)
	}
	return out
}

// ExportTemplate renders one of the settings' template folders with the
// theme (and its companion, in base16 and base24) into the workspace's
// export/template-NAME folder and returns that folder. Only a folder the
// settings name is read: the page cannot point it anywhere else.
func (th *Themes) ExportTemplate(workspaceID, dir string) (string, error) {
	if !slices.Contains(th.settings.current().TemplateFolders, dir) {
		return "", fmt.Errorf("%s is not one of the template folders in Settings", dir)
	}
	f, err := tinted.Load(dir)
	if err != nil {
		return "", err
	}
	t, ws, err := th.validTheme(workspaceID)
	if err != nil {
		return "", err
	}
	files, err := f.RenderTheme(t)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Name, err)
	}
	rel := "export/template-" + theme.Slug(f.Name)
	// Below the workspace nothing is followed: the agent may have planted
	// links in export/.
	d, err := fswrite.Open(ws.Dir, rel)
	if err != nil {
		return "", err
	}
	defer d.Close()
	for _, name := range tinted.Files(files) {
		if _, err := d.WriteFile(name, files[name], 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(ws.Dir, filepath.FromSlash(rel)), nil
}
