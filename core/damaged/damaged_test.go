package damaged

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetAsideKeepsEveryCopy(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.toml")
	var told []Notice
	OnNotice(func(n Notice) { told = append(told, n) })
	defer OnNotice(nil)
	for _, body := range []string{"first = [", "second = ["} {
		os.WriteFile(p, []byte(body), 0o600)
		err := Handle(p, errors.New("toml: unterminated array"))
		var de *Error
		if !errors.As(err, &de) || !strings.Contains(err.Error(), de.Copy) {
			t.Fatalf("err = %v", err)
		}
		if b, _ := os.ReadFile(de.Copy); string(b) != body {
			t.Fatalf("copy holds %q, want %q", b, body)
		}
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("the damaged file is still in place: %v", err)
	}
	if len(told) != 2 || told[0].Copy == told[1].Copy || len(Notices()) < 2 {
		t.Fatalf("notices %+v", told)
	}
}

func TestSetAsideFailingSaysSo(t *testing.T) {
	err := Handle(filepath.Join(t.TempDir(), "gone.json"), errors.New("bad"))
	var de *Error
	if errors.As(err, &de) || err == nil {
		t.Fatalf("err = %v, want a failure to set aside", err)
	}
}
