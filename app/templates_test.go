package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/settings"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// A template folder added in Settings appears in Export and renders into
// the workspace; a folder the settings do not name is refused, whatever
// the page asks.
func TestTemplateFoldersFromSettingsExport(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	m, err := workspace.Create(workspace.Root(), "tpl", "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(m.Dir, theme.FileName), theme.ExampleJSON(), 0o644)
	folder, _ := filepath.Abs("../core/targets/tinted/testdata/tinted-fzf")
	broken := t.TempDir()
	if _, err := a.Themes.ExportTemplate(m.ID, folder); err == nil || !strings.Contains(err.Error(), "not one of the template folders") {
		t.Fatalf("a folder not in the settings: %v", err)
	}
	s := a.Settings.GetSettings()
	s.TemplateFolders = []string{folder, broken}
	if err := a.Settings.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got, _ := settings.Load(); len(got.TemplateFolders) != 2 {
		t.Fatalf("saved settings: %+v", got.TemplateFolders)
	}
	list := a.Themes.TemplateFolders()
	if len(list) != 2 || list[0].Name != "tinted-fzf" || len(list[0].Templates) == 0 || list[0].Error != "" || list[1].Error == "" {
		t.Fatalf("folders: %+v", list)
	}
	out, err := a.Themes.ExportTemplate(m.ID, folder)
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(m.Dir, "export", "template-tinted-fzf") {
		t.Errorf("wrote to %s", out)
	}
	b, err := os.ReadFile(filepath.Join(out, "sh", "base16-harbour-night.sh"))
	if err != nil || !strings.Contains(string(b), "Scheme name: Harbour Night") {
		t.Errorf("rendered file: %v\n%s", err, b)
	}
	ids := map[string]bool{}
	for _, f := range a.Themes.ExportFormats() {
		ids[f.ID] = true
	}
	if len(ids) < 40 || !ids["vim"] || !ids["slack"] {
		t.Errorf("Export offers %d formats", len(ids))
	}
}

func TestSettingsRefuseARelativeTemplateFolder(t *testing.T) {
	if err := (settings.Settings{TemplateFolders: []string{"rel/dir"}}).Validate(); err == nil {
		t.Error("a relative template folder was accepted")
	}
}
