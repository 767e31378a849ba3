package faults

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSnapshotDiff(t *testing.T) {
	past := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		want   []string
	}{
		{"untouched", func(*testing.T, string) {}, nil},
		{"read only", func(t *testing.T, root string) {
			if _, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"same size rewrite, mtime restored", func(t *testing.T, root string) {
			p := filepath.Join(root, "a.txt")
			os.WriteFile(p, []byte("HELLO"), 0o644)
			os.Chtimes(p, past, past)
		}, []string{"a.txt: content changed"}},
		{"touched", func(t *testing.T, root string) {
			now := past.Add(time.Hour)
			os.Chtimes(filepath.Join(root, "a.txt"), now, now)
		}, []string{"a.txt: modified at 2026-01-02T04:04:05Z (was 2026-01-02T03:04:05Z)"}},
		{"appended", func(t *testing.T, root string) {
			f, _ := os.OpenFile(filepath.Join(root, "sub", "b.txt"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("more")
			f.Close()
		}, []string{"sub/b.txt: size 5 -> 9"}},
		{"created and removed", func(t *testing.T, root string) {
			os.WriteFile(filepath.Join(root, "sub", "new.lock"), nil, 0o644)
			os.Remove(filepath.Join(root, "a.txt"))
		}, []string{"a.txt: removed", "sub/new.lock: created"}},
		{"chmod", func(t *testing.T, root string) {
			os.Chmod(filepath.Join(root, "a.txt"), 0o600)
		}, []string{"a.txt: mode -rw-r--r-- -> -rw-------"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, "sub"), 0o755)
			for _, f := range []string{"a.txt", "sub/b.txt"} {
				p := filepath.Join(root, f)
				if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chmod(p, 0o644)
				os.Chtimes(p, past, past)
			}
			// Directory mtimes change with their listing; pin them too.
			os.Chtimes(filepath.Join(root, "sub"), past, past)
			before, err := Take(root)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, root)
			after, err := Take(root)
			if err != nil {
				t.Fatal(err)
			}
			got := before.Diff(after)
			// Creating or removing files also touches the folder's mtime.
			var files []string
			for _, d := range got {
				if !strings.HasPrefix(d, ".:") && !strings.HasPrefix(d, "sub:") {
					files = append(files, d)
				}
			}
			if !reflect.DeepEqual(files, tc.want) {
				t.Fatalf("Diff = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSnapshotMissingRootAndHugeFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	s, err := Take(missing)
	if err != nil || len(s) != 0 {
		t.Fatalf("Take(missing) = %v, %v", s, err)
	}
	os.Mkdir(missing, 0o755)
	after, _ := Take(missing)
	if d := s.Diff(after); len(d) != 1 || d[0] != ".: created" {
		t.Fatalf("creating the root: %q", d)
	}

	// A file past the full-hash limit is sampled: a change in its middle
	// is still seen, with size and mtime unchanged.
	p := filepath.Join(missing, "big.jsonl")
	if err := os.WriteFile(p, make([]byte, fullHashLimit+3*sampleBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	before, _ := Take(missing)
	f, _ := os.OpenFile(p, os.O_WRONLY, 0)
	f.WriteAt([]byte("x"), fi.Size()/2)
	f.Close()
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	after, _ = Take(missing)
	if d := before.Diff(after); len(d) != 1 || d[0] != "big.jsonl: content changed" {
		t.Fatalf("a change in the middle of a huge file: %q", d)
	}
}
