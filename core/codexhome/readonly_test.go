package codexhome

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

type fileState struct {
	mode  fs.FileMode
	mtime int64
	size  int64
	data  []byte
}

// snapshot records every entry under dir: mode, mtime, size, bytes.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode(), mtime: fi.ModTime().UnixNano(), size: fi.Size()}
		if !d.IsDir() {
			st.data, err = os.ReadFile(p)
			if err != nil {
				return err
			}
		}
		out[p] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The app never writes into CODEX_HOME: every reader runs against a
// read-only copy, and (because root ignores permissions) the tree is also
// compared byte for byte, mtime for mtime, before and after.
func TestReadersNeverWrite(t *testing.T) {
	h := copyHome(t)
	writeFile(t, filepath.Join(h.Dir, "archived_sessions", "rollout-2026-11-01T10-00-00-"+idOld[:len(idOld)-1]+"0.jsonl.zst"),
		zstdBytes(t, readFile(t, filepath.Join(h.Dir, relOld))))
	err := filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		if d.IsDir() {
			mode = 0o555
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Let t.TempDir remove the tree.
		filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	before := snapshot(t, h.Dir)
	ctx := context.Background()

	if _, err := h.Config(); err != nil {
		t.Error(err)
	}
	if m := h.Models(); m.Source != ModelsFromCache {
		t.Errorf("models source %q", m.Source)
	}
	l := NewLister(h)
	for i := 0; i < 2; i++ {
		got, err := l.List(ctx, ListOptions{Search: "themes"})
		// The archived copy carries the same session id inside: listed once.
		if err != nil || len(got.Sessions) != 2 {
			t.Errorf("list: %d sessions, %v", len(got.Sessions), err)
		}
	}
	for _, id := range []string{idNew, idOld, idOld[:len(idOld)-1] + "0"} {
		tr, err := h.Transcript(ctx, id)
		if err != nil || len(tr.Messages) == 0 {
			t.Errorf("transcript %s: %v", id, err)
		}
		for off := 0; ; off += 2 {
			pg, err := h.TranscriptPage(ctx, id, off, 2)
			if err != nil {
				t.Fatal(err)
			}
			if pg.Done {
				break
			}
		}
		r, err := h.OpenTranscript(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteMarkdown(io.Discard, r); err != nil {
			t.Error(err)
		}
		r.Close()
	}

	after := snapshot(t, h.Dir)
	if len(after) != len(before) {
		t.Errorf("entries: %d before, %d after", len(before), len(after))
	}
	for p, b := range before {
		a, ok := after[p]
		if !ok {
			t.Errorf("%s vanished", p)
			continue
		}
		if a.mode != b.mode || a.mtime != b.mtime || a.size != b.size || !bytes.Equal(a.data, b.data) {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created", p)
		}
	}
}
