//go:build linux

package app

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/apply"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/programs"
)

// The Apply menu's live switch, end to end with a real tmux: off until
// turned on (an edit then leaves tmux alone), on it catches up and follows
// each edit, only for the build applied, and Undo apply ends it.
func TestLiveSwitchFollowsEditsIntoTmuxUntilUndo(t *testing.T) {
	bin := programs.Find(t, "tmux", "tmux")
	a, rec := newStubApp(t, acpstub.New())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("TMUX_TMPDIR", t.TempDir())
	t.Setenv("TMUX", "")
	ws, err := workspace.Create(workspace.Root(), "build", "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := workspace.Create(workspace.Root(), "other", "")
	if err != nil {
		t.Fatal(err)
	}
	write := func(ink string) {
		b := bytes.Replace(theme.ExampleJSON(), []byte(`"ink": "#161a24"`), []byte(`"ink": "`+ink+`"`), 1)
		tmp := filepath.Join(ws.Dir, ".theme.json.tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(ws.Dir, theme.FileName)); err != nil {
			t.Fatal(err)
		}
	}
	write("#161a24")
	if got, err := a.Themes.LivePrograms(ws.ID); err != nil || len(got) != 0 {
		t.Fatalf("before any apply: %+v %v", got, err)
	}
	if err := a.Themes.SetLive(ws.ID, "tmux", true); !errors.Is(err, apply.ErrNotApplied) {
		t.Fatalf("live before the apply: %v, want ErrNotApplied", err)
	}
	plan, err := a.Themes.PlanApply(ws.ID, "tmux")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Themes.ApplyTheme(ws.ID, "tmux", plan.Token, nil); err != nil {
		t.Fatal(err)
	}
	file := plan.Files[0].Path
	tmux := func(args ...string) string {
		out, err := exec.Command(bin, append([]string{"-L", "live"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tmux("-f", "/dev/null", "new-session", "-d")
	t.Cleanup(func() { exec.Command(bin, "-L", "live", "kill-server").Run() })
	tmux("source-file", file)
	style := func() string { return tmux("show", "-gv", "status-left-style") }

	got, err := a.Themes.LivePrograms(ws.ID)
	if err != nil || len(got) != 1 || got[0].Target != "tmux" || got[0].On || got[0].Mode != "told" || got[0].Note == "" {
		t.Fatalf("after the apply: %+v %v, want tmux, off", got, err)
	}
	if got, _ := a.Themes.LivePrograms(other.ID); len(got) != 0 {
		t.Fatalf("a build never applied lists %+v", got)
	}
	if err := a.Themes.SetLive(other.ID, "tmux", true); !errors.Is(err, apply.ErrNotApplied) {
		t.Fatalf("live for another build: %v, want ErrNotApplied", err)
	}

	// Off: the edit shows in the preview, not in tmux.
	if _, err := a.Themes.Theme(ws.ID); err != nil {
		t.Fatal(err)
	}
	write("#0b2a3c")
	rec.waitFor(t, "the edit's theme event", func() bool {
		return len(rec.themes) > 0 && rec.themes[len(rec.themes)-1].Theme.UI.Background.String() == "#0b2a3c"
	})
	if s := style(); !strings.Contains(s, "#161a24") {
		t.Fatalf("tmux followed while off: %q", s)
	}

	// On: it catches up at once, then follows each edit.
	if err := a.Themes.SetLive(ws.ID, "tmux", true); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "tmux catching up", func() bool { return strings.Contains(style(), "#0b2a3c") })
	write("#2a0b3c")
	rec.waitFor(t, "tmux following the edit", func() bool { return strings.Contains(style(), "#2a0b3c") })
	got, _ = a.Themes.LivePrograms(ws.ID)
	if len(got) != 1 || !got[0].On || got[0].Last == nil || got[0].Last.Reached != 1 {
		t.Fatalf("live state: %+v", got)
	}

	// Undo apply: off, and the program leaves the list.
	if _, err := a.Themes.UndoApply("tmux"); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Themes.LivePrograms(ws.ID); len(got) != 0 {
		t.Fatalf("after undo: %+v", got)
	}
	if on := a.Themes.liveOn(ws.ID); len(on) != 0 {
		t.Fatalf("after undo, still on: %v", on)
	}
}
