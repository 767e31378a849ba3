package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestStore(t *testing.T) {
	dir := t.TempDir()
	st, err := newStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range []*session{
		{ID: "a", Cwd: "/w/one", UpdatedAt: "2026-12-01T10:00:00.000Z", Config: map[string]any{"model": "gpt-5.4"}},
		{ID: "b", Cwd: "/w/two", UpdatedAt: "2026-12-02T10:00:00.000Z"},
		{ID: "c", Cwd: "/w/one", UpdatedAt: "2026-12-03T10:00:00.000Z", History: []turnMessage{{"user", "hi"}}},
	} {
		if err := st.put(ss); err != nil {
			t.Fatal(err)
		}
	}
	// A damaged file hides only itself.
	if err := os.WriteFile(filepath.Join(dir, "sessions", "broken.json"), []byte("{nope"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		cwd  string
		want []string
	}{
		{"", []string{"c", "b", "a"}},
		{"/w/one", []string{"c", "a"}},
		{"/w/none", nil},
	}
	for _, tt := range tests {
		got, err := st.list(tt.cwd)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, ss := range got {
			ids = append(ids, ss.ID)
		}
		if !reflect.DeepEqual(ids, tt.want) {
			t.Errorf("list(%q) = %v, want %v", tt.cwd, ids, tt.want)
		}
	}

	a, err := st.get("a")
	if err != nil || a.Config["model"] != "gpt-5.4" {
		t.Errorf("get(a) = %+v, %v", a, err)
	}
	for _, id := range []string{"", "../a", "a/b", "missing"} {
		if _, err := st.get(id); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("get(%q) err = %v, want not exist", id, err)
		}
	}
	if _, err := st.get("broken"); err == nil {
		t.Error("get(broken) succeeded")
	}

	if st.authenticated() {
		t.Error("authenticated before authenticate")
	}
	if err := st.setAuthenticated("api-key"); err != nil || !st.authenticated() {
		t.Errorf("after setAuthenticated: %v %v", err, st.authenticated())
	}
}
