package app

import (
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/fifo"

	"github.com/rs/zerolog"
)

func TestRunnableFilesAreRevealedNotOpened(t *testing.T) {
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	ws, err := workspace.Create(workspace.Root(), "reveal", "")
	if err != nil {
		t.Fatal(err)
	}
	a := New(zerolog.Nop())
	root := ws.Dir
	write := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		path   string
		reveal bool
	}{
		{write("theme.json", `{"name":"dusk"}`, 0o644), false},
		{write("notes.md", "# notes", 0o644), false},
		{write("preview.png", "\x89PNG\r\n\x1a\n", 0o644), false},
		{write("run-me", "#!/bin/sh\nrm -rf ~\n", 0o644), true},     // shebang, no bit, no extension
		{write("tool", "just text", 0o755), true},                   // executable bit
		{write("install.sh", "echo", 0o644), true},                  // by name
		{write("theme.py", "print()", 0o644), true},                 //
		{write("Launch.desktop", "[Desktop Entry]\n", 0o644), true}, //
		{write("setup.EXE", "MZ\x90\x00", 0o644), true},             //
		{write("a.bat", "@echo off", 0o644), true},
		{write("a.cmd", "x", 0o644), true},
		{write("a.ps1", "x", 0o644), true},
		{write("tool.jar", "PK", 0o644), true},
		{write("Thing.AppImage", "x", 0o644), true},
		{write("blob", "\x7fELF\x02\x01", 0o644), true}, // ELF by content
		{write("empty", "", 0o644), true},               // no type: not opened
		// Desktop entries by any name: application/x-desktop to xdg-mime.
		{write("palette.kdelnk", "[Desktop Entry]\nExec=sh -c id\n", 0o644), true},
		{write("palette", "[Desktop Entry]\nExec=sh -c id\n", 0o644), true},
		{write("readme.txt", "\ufeff[Desktop Entry]\nExec=sh -c id\n", 0o644), true},
		{write("theme.JSON", `{"name":"dusk"}`, 0o644), false},
		{write("notes.txt", "warm colours: amber, rust", 0o644), false},
		{write("palette.pdf", "%PDF-1.7\n", 0o644), false},
		{write("fake.png", "#!/bin/sh\nid\n", 0o644), true}, // content unlike its name
		{write("page.html", "<script>alert(1)</script>", 0o644), true},
		{write("drawing.svg", "<svg onload='x()'/>", 0o644), true},
		// Windows runs or installs these on open.
		{write("a.msc", "x", 0o644), true},
		{write("a.chm", "x", 0o644), true},
		{write("a.theme", "x", 0o644), true},
		{write("a.themepack", "x", 0o644), true},
		{write("a.library-ms", "x", 0o644), true},
		{write("a.searchConnector-ms", "x", 0o644), true},
		{write("a.settingcontent-ms", "x", 0o644), true},
		{write("a.appref-ms", "x", 0o644), true},
		{write("a.application", "x", 0o644), true},
		{write("a.diagcab", "x", 0o644), true},
		{write("a.website", "x", 0o644), true},
	}
	if err := fifo.Make(filepath.Join(root, "fifo")); err == nil {
		cases = append(cases, struct {
			path   string
			reveal bool
		}{filepath.Join(root, "fifo"), true})
	}
	os.Mkdir(filepath.Join(root, "out"), 0o755)
	cases = append(cases, struct {
		path   string
		reveal bool
	}{filepath.Join(root, "out"), false})

	for _, c := range cases {
		var opened, revealed []string
		a.Desktop.openFile = func(p string) error { opened = append(opened, p); return nil }
		a.Desktop.revealFile = func(p string) error { revealed = append(revealed, p); return nil }
		if err := a.Builds.OpenPath(ws.ID, filepath.Base(c.path)); err != nil {
			t.Fatalf("OpenPath(%s): %v", c.path, err)
		}
		if c.reveal && (len(revealed) != 1 || len(opened) != 0) || !c.reveal && (len(opened) != 1 || len(revealed) != 0) {
			t.Errorf("%s: opened %v, revealed %v; want reveal=%v", filepath.Base(c.path), opened, revealed, c.reveal)
		}
	}
}
