package versions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/theme"
)

func workspace(t *testing.T, doc string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, theme.FileName), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func example(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../theme/testdata/example.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSavedVersionsComeBackNewestFirstWithTheirTheme(t *testing.T) {
	doc := example(t)
	dir := workspace(t, doc)
	at := time.Date(2026, 12, 7, 13, 0, 0, 0, time.UTC)
	first, err := Save(dir, "  Calm blue  ", at)
	if err != nil {
		t.Fatal(err)
	}
	// The theme changes; the version keeps what it was.
	if !strings.Contains(doc, `"accent": "tide"`) {
		t.Fatal(`the example has no "accent": "tide" to change`)
	}
	os.WriteFile(filepath.Join(dir, theme.FileName), []byte(strings.Replace(doc, `"accent": "tide"`, `"accent": "#ff0000"`, 1)), 0o644)
	second, err := Save(dir, "Red accent", at) // the same millisecond: a second id
	if err != nil {
		t.Fatal(err)
	}
	if first.ID == second.ID || first.Name != "Calm blue" {
		t.Fatalf("versions %+v %+v", first, second)
	}
	list, err := List(dir)
	if err != nil || len(list) != 2 || list[0].ID != second.ID || list[1].Name != "Calm blue" {
		t.Fatalf("list %+v %v", list, err)
	}
	st, err := Theme(dir, first.ID)
	if err != nil || st.Error != "" || st.Theme.UI.Accent.String() != "#7fb4ff" {
		t.Fatalf("first version's theme: %v %v", st.Error, err)
	}
	st, _ = Theme(dir, second.ID)
	if st.Theme.UI.Accent.String() != "#ff0000" {
		t.Fatalf("second version's accent %s", st.Theme.UI.Accent)
	}
}

func TestVersionsRefuseBadNamesIdsAndABrokenTheme(t *testing.T) {
	dir := workspace(t, example(t))
	for _, name := range []string{"", "   ", "a\nb", strings.Repeat("x", MaxName+1)} {
		if _, err := Save(dir, name, time.Now()); err == nil {
			t.Errorf("name %q saved", name)
		}
	}
	for _, id := range []string{"../theme", "../../etc/passwd", "x", ""} {
		if _, err := Theme(dir, id); err == nil || !strings.Contains(err.Error(), "not a version id") {
			t.Errorf("id %q: %v", id, err)
		}
	}
	broken := workspace(t, `{"name": "x"`)
	if _, err := Save(broken, "Broken", time.Now()); err == nil || !strings.Contains(err.Error(), "problems") {
		t.Errorf("a broken theme saved: %v", err)
	}
	if list, err := List(broken); err != nil || len(list) != 0 {
		t.Errorf("list of none: %v %v", list, err)
	}
}
