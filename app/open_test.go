package app

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckLink(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{"https://zed.dev/docs/themes", true},
		{"http://example.com/a?b=c", true},
		{"mailto:team@example.com", true},
		{"javascript:alert(1)", false},
		{"JaVaScRiPt:alert(1)", false},
		{"file:///etc/passwd", false},
		{"vscode://extension/foo", false},
		{"https://user:pw@example.com/", false},
		{"https:///nohost", false},
		{"data:text/html,<script>alert(1)</script>", false},
	}
	for _, c := range cases {
		_, err := CheckLink(c.in)
		if (err == nil) != c.ok {
			t.Errorf("CheckLink(%q) error = %v, want ok=%v", c.in, err, c.ok)
		}
	}
}

func TestResolveInside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(root, "theme.json"), []byte("{}"), 0o644)
	os.MkdirAll(filepath.Join(root, "out"), 0o755)
	os.WriteFile(filepath.Join(root, "out", "zed.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape"))

	cases := []struct {
		name    string
		path    string
		outside bool
		fails   bool
	}{
		{"relative file", "theme.json", false, false},
		{"nested", "out/zed.json", false, false},
		{"absolute inside", filepath.Join(root, "theme.json"), false, false},
		{"file uri inside", "file://" + filepath.Join(root, "theme.json"), false, false},
		{"dot-dot", "../" + filepath.Base(outside) + "/secret", true, true},
		{"absolute outside", "/etc/passwd", true, true},
		{"file uri outside", "file:///etc/passwd", true, true},
		{"symlink escaping", "escape", true, true},
		{"missing", "nope.json", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveInside(root, c.path)
			if (err != nil) != c.fails {
				t.Fatalf("ResolveInside(%q) = %q, %v", c.path, got, err)
			}
			if errors.Is(err, ErrOutside) != c.outside {
				t.Fatalf("outside = %v, want %v (%v)", errors.Is(err, ErrOutside), c.outside, err)
			}
		})
	}
}
