package fsread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// within fails the test when fn does not return in d: an open or read
// that blocks must never happen here.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestReadFileRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "theme.json")
	os.WriteFile(p, []byte(`{"name":"x"}`), 0o644)
	b, err := ReadFile(p, 1<<20, NoFollow)
	if err != nil || string(b) != `{"name":"x"}` {
		t.Fatalf("got %q, %v", b, err)
	}
	b, err = ReadFile(p, 12, NoFollow) // exactly the limit
	if err != nil || len(b) != 12 {
		t.Fatalf("a file of exactly the limit: %q, %v", b, err)
	}
}

func TestReadFileTooLarge(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, make([]byte, 2048), 0o644)
	_, err := ReadFile(p, 1024, Follow)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "2 KiB") || !strings.Contains(err.Error(), "1 KiB") {
		t.Fatalf("err %v; want too large naming the path, its size and the limit", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none")
	_, err := ReadFile(p, 1024, NoFollow)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err %v; want not exist naming the path", err)
	}
}

func TestReadFileFolder(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir, 1024, NoFollow); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("a folder: %v", err)
	}
}

func TestReadAllGrowsPastLimit(t *testing.T) {
	// The file says 10 bytes at fstat time but yields more (it grew).
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, make([]byte, 10), 0o644)
	f, fi, err := Open(p, NoFollow)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(p, make([]byte, 100), 0o644) // same inode, now larger
	if _, err := ReadAll(f, fi, p, 50); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a file that grew past the limit: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{10: "10 bytes", 1024: "1 KiB", 512 << 10: "512 KiB", 1 << 20: "1 MiB", 3 << 29: "1.5 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
