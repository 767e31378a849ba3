package codexhome

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cdxtheme/internal/testrig/fixtures"

	"github.com/klauspost/compress/zstd"
)

// Session ids and files of the real samples in internal/testrig/fixtures.
const (
	idNew = fixtures.SessionNew // codex 0.166, paginated history
	idOld = fixtures.SessionOld // codex 0.137, classic
)

var (
	relNew = filepath.FromSlash(fixtures.RolloutNew)
	relOld = filepath.FromSlash(fixtures.RolloutOld)
)

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// copyHome copies the sample Codex home into a temp dir (its rollouts
// carry the mtimes Codex left).
func copyHome(t testing.TB) Home {
	t.Helper()
	dst := t.TempDir()
	if err := fixtures.CopyCodexHome(dst); err != nil {
		t.Fatal(err)
	}
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
