package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"

	"github.com/rs/zerolog"
)

// dropApp is an App with its own data folder whose "file-drop" events are
// collected.
func dropApp(t *testing.T) (*App, *[]FileDrop) {
	t.Helper()
	root := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(root, "data"))
	a := New(zerolog.Nop())
	var got []FileDrop
	a.emit = EmitterFunc(func(name string, payload any) {
		if d, ok := payload.(FileDrop); ok && name == "file-drop" {
			got = append(got, d)
		}
	})
	return a, &got
}

// A file dropped from another program becomes a build once the page takes
// the drop's token; the token works once, and the page never names a path.
func TestDroppedFileBecomesABuild(t *testing.T) {
	a, drops := dropApp(t)
	src := filepath.Join(t.TempDir(), "nightfall-color-theme.json")
	os.WriteFile(src, mustRead(t, "../core/theme/testdata/import/nightfall-color-theme.json"), 0o644)
	a.Themes.fileDropEvent(120, 80, []string{src, "/etc/hostname"})
	if len(*drops) != 1 {
		t.Fatalf("events %+v", *drops)
	}
	d := (*drops)[0]
	if d.X != 120 || d.Y != 80 || strings.Join(d.Names, ",") != "nightfall-color-theme.json,hostname" || len(d.Token) < 16 {
		t.Errorf("event %+v", d)
	}
	if _, err := a.Themes.ImportDropped("not-the-token"); err == nil {
		t.Error("a wrong token imported")
	}
	res, err := a.Themes.ImportDropped(d.Token)
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "vscode" || res.Title == "" || !strings.Contains(strings.Join(res.Warnings, "\n"), "1 more dropped files were not imported") {
		t.Errorf("result %+v", res)
	}
	ws, err := workspace.Open(workspace.Root(), res.WorkspaceID)
	if err != nil {
		t.Fatal(err)
	}
	if st := themewatch.Load(ws.Dir); st.Theme == nil || st.Theme.Name != res.Title {
		t.Errorf("the build's theme: %+v", st)
	}
	if _, err := a.Themes.ImportDropped(d.Token); err == nil || !strings.Contains(err.Error(), "drop the file again") {
		t.Errorf("the token worked twice: %v", err)
	}
}
