package codexhome

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Session ids and files of the real samples in testdata/home.
const (
	idNew = "01a2360f-02d3-7551-b339-f4d167fb91c8" // codex 0.166, paginated history
	idOld = "01a23612-9865-7550-b5c4-b34cfa49d258" // codex 0.137, classic
)

var (
	relNew = filepath.Join("sessions", "2026", "12", "02", "rollout-2026-12-02T09-21-23-"+idNew+".jsonl")
	relOld = filepath.Join("sessions", "2026", "12", "02", "rollout-2026-12-02T09-25-18-"+idOld+".jsonl")
)

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// copyHome copies testdata/home into a temp dir and gives the rollouts the
// modification times Codex would have left (just after their last line),
// so ordering does not depend on when the repository was checked out.
func copyHome(t testing.TB) Home {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("testdata/home", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/home", p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	setMtime(t, filepath.Join(dst, relNew), "2026-12-02T09:22:17.200Z")
	setMtime(t, filepath.Join(dst, relOld), "2026-12-02T09:25:19.600Z")
	return Home{Dir: dst, Source: SourceEnv}
}

func setMtime(t testing.TB, path, ts string) {
	t.Helper()
	m := mustTime(t, ts)
	if err := os.Chtimes(path, m, m); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// zstdBytes compresses b the way Codex compresses old rollouts.
func zstdBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
