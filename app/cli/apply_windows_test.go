package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// On Windows apply installs a Windows Terminal fragment under
// %LOCALAPPDATA% (here a temporary one) and --undo takes it out again.
func TestApplyWindowsTerminalFragmentAndUndo(t *testing.T) {
	applyEnv(t, false, "")
	local := t.TempDir()
	t.Setenv("LOCALAPPDATA", local)
	fragment := filepath.Join(local, "Microsoft", "Windows Terminal", "Fragments", "cdxtheme", "harbour-night.json")
	out, errOut, code := runTheme(t, "apply", "--target", "windows-terminal", "--yes", themeDir(t, theme.ExampleJSON()))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, fragment) || !strings.Contains(out, "Restart Windows Terminal") {
		t.Errorf("the plan does not name the fragment and what to do:\n%s", out)
	}
	b, err := os.ReadFile(fragment)
	if err != nil || !strings.Contains(string(b), `"name": "Harbour Night"`) || !strings.Contains(string(b), `"schemes"`) {
		t.Fatalf("fragment: %v\n%s", err, b)
	}
	out, errOut, code = runTheme(t, "apply", "--undo", "--target", "windows-terminal")
	if code != ExitOK {
		t.Fatalf("undo: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(fragment); !os.IsNotExist(err) {
		t.Errorf("after undo the fragment is still there: %v", err)
	}
}
