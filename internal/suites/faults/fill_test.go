package faults

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestFillFile(t *testing.T) {
	head := []byte("{\"type\":\"session_meta\"}\n")
	block := []byte("{\"a\":1}\n{\"b\":2}\n") // 16 bytes, two lines
	tests := []struct {
		name       string
		size       int64
		wantBlocks int64
	}{
		{"head only already big enough", 10, 0},
		{"exact fit", int64(len(head)) + 16*4, 4},
		{"rounds up to whole blocks", int64(len(head)) + 16*4 + 1, 5},
		{"several buffer chunks", 20 << 20, (20<<20 - int64(len(head)) + 15) / 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f.jsonl")
			n, err := FillFile(p, head, block, tc.size)
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.wantBlocks {
				t.Fatalf("blocks = %d, want %d", n, tc.wantBlocks)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(b)) != int64(len(head))+n*16 {
				t.Fatalf("size %d, want %d", len(b), int64(len(head))+n*16)
			}
			if !bytes.HasPrefix(b, head) || !bytes.Equal(bytes.Repeat(block, int(n)), b[len(head):]) {
				t.Fatal("content is not head + repeated blocks")
			}
		})
	}
	if _, err := FillFile(filepath.Join(t.TempDir(), "x"), nil, []byte("no newline"), 100); err == nil {
		t.Fatal("a block without a newline was accepted")
	}
	if free, err := FreeBytes(t.TempDir()); err != nil || free == 0 {
		t.Fatalf("FreeBytes = %d, %v", free, err)
	}
}
