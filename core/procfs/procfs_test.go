package procfs

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestParseStatOddCommandNames(t *testing.T) {
	// comm may hold spaces and parentheses: the fields start after the last ')'.
	p, err := parseStat(42, []byte("42 (a) (b c) S 7 42 42 0 -1 4194560 ..."))
	if err != nil {
		t.Fatal(err)
	}
	if p.Comm != "a) (b c" || p.State != "S" || p.PPID != 7 || p.PGID != 42 {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []string{"42 no parens S 1 2", "42 (x) S", "42 (x) S one two"} {
		if _, err := parseStat(42, []byte(bad)); err == nil {
			t.Errorf("%q parsed without an error", bad)
		}
	}
}

func TestNoProcIsUnavailableNotEmpty(t *testing.T) {
	old := root
	root = filepath.Join(t.TempDir(), "missing")
	defer func() { root = old }()
	for name, f := range map[string]func() error{
		"All":         func() error { _, err := All(); return err },
		"LiveInGroup": func() error { _, err := LiveInGroup(1); return err },
		"Marked":      func() error { _, err := Marked("A=b"); return err },
		"Descendants": func() error { _, err := Descendants(1); return err },
		"Exe":         func() error { _, err := Exe(1); return err },
		"Cmdline":     func() error { _, err := Cmdline(1); return err },
	} {
		if err := f(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s without /proc: %v, want ErrUnavailable", name, err)
		}
	}
}
