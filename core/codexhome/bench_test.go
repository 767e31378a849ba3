package codexhome

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cdxtheme/internal/testrig/fixtures"
)

// Benchmark data is generated once per test process into a temp dir that
// TestMain removes.
var (
	benchRoot     string
	benchOnce     sync.Once
	benchHomeOnce sync.Once
	benchBigOnce  sync.Once
	benchHome     Home
	benchBig      string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

func benchDir(b *testing.B) string {
	benchOnce.Do(func() {
		d, err := os.MkdirTemp("", "codexhome-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchRoot = d
	})
	return benchRoot
}

const benchSessions = 10000

// manySessions writes 10,000 rollouts (the real 0.137 sample, each with its
// own id) spread over day folders, plus an index naming every tenth one.
func manySessions(b *testing.B) Home {
	benchHomeOnce.Do(func() {
		dir := filepath.Join(benchDir(b), "home")
		sample := fixtures.Read(fixtures.RolloutOld)
		var index bytes.Buffer
		for i := 0; i < benchSessions; i++ {
			id := fmt.Sprintf("01a23612-9865-7550-b5c4-%012d", i)
			day := filepath.Join(dir, "sessions", "2026", fmt.Sprintf("%02d", 1+i/1000), fmt.Sprintf("%02d", 1+i%28))
			data := bytes.ReplaceAll(sample, []byte(idOld), []byte(id))
			writeFile(b, filepath.Join(day, "rollout-2026-12-02T09-25-18-"+id+".jsonl"), data)
			if i%10 == 0 {
				fmt.Fprintf(&index, `{"id":"%s","thread_name":"Theme %d","updated_at":"2026-12-02T10:00:00Z"}`+"\n", id, i)
			}
		}
		writeFile(b, filepath.Join(dir, "session_index.jsonl"), index.Bytes())
		benchHome = Home{Dir: dir}
	})
	return benchHome
}

// bigRollout writes a ~100 MB rollout: the 0.166 sample's head, then its
// second turn (user, shell call, output, answer, bookkeeping) repeated.
func bigRollout(b *testing.B) string {
	benchBigOnce.Do(func() {
		sample := string(fixtures.Read(fixtures.RolloutNew))
		lines := strings.SplitAfter(sample, "\n")
		head := strings.Join(lines[:14], "")
		turn := strings.Join(lines[14:29], "")
		var buf bytes.Buffer
		buf.WriteString(head)
		for i := 0; buf.Len() < 100<<20; i++ {
			t := strings.ReplaceAll(turn, "call_mock_3", fmt.Sprintf("call_%d", i))
			buf.WriteString(strings.ReplaceAll(t, "now run it", fmt.Sprintf("now run it #%d", i)))
		}
		benchBig = filepath.Join(benchDir(b), "rollout-2026-12-02T09-21-23-"+idNew+".jsonl")
		writeFile(b, benchBig, buf.Bytes())
	})
	return benchBig
}

func BenchmarkListCold10k(b *testing.B) {
	h := manySessions(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := NewLister(h).List(ctx, ListOptions{})
		if err != nil || len(got.Sessions) != benchSessions {
			b.Fatalf("%d sessions, %v", len(got.Sessions), err)
		}
	}
}

func BenchmarkListWarm10k(b *testing.B) {
	h := manySessions(b)
	ctx := context.Background()
	l := NewLister(h)
	if _, err := l.List(ctx, ListOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := l.List(ctx, ListOptions{})
		if err != nil || len(got.Sessions) != benchSessions {
			b.Fatalf("%d sessions, %v", len(got.Sessions), err)
		}
	}
}

func BenchmarkRollout100MBFirstPage(b *testing.B) {
	path := bigRollout(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		forgetCheckpoints(path)
		pg, err := ReadRolloutPage(ctx, path, 0, 50)
		if err != nil || len(pg.Messages) != 50 {
			b.Fatalf("%d messages, %v", len(pg.Messages), err)
		}
	}
}

func BenchmarkRollout100MBPageAt10k(b *testing.B) {
	path := bigRollout(b)
	ctx := context.Background()
	// Page through to message 10,000 once so checkpoints exist, as a user
	// scrolling would have; then a page there must not re-read the head.
	for off := 0; off < 10000; off += 500 {
		if _, err := ReadRolloutPage(ctx, path, off, 500); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pg, err := ReadRolloutPage(ctx, path, 10000, 50)
		if err != nil || len(pg.Messages) != 50 {
			b.Fatalf("%d messages, %v", len(pg.Messages), err)
		}
	}
}

func BenchmarkRollout100MBFull(b *testing.B) {
	path := bigRollout(b)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := ReadRollout(ctx, path)
		if err != nil || len(t.Messages) < 1000 || t.Skipped != 0 {
			b.Fatalf("%d messages, %d skipped, %v", len(t.Messages), t.Skipped, err)
		}
	}
}

func BenchmarkModels(b *testing.B) {
	h := copyHome(b)
	for i := 0; i < b.N; i++ {
		if m := h.Models(); m.Source != ModelsFromCache || len(m.Models) != 3 {
			b.Fatalf("%+v", m)
		}
	}
}

func forgetCheckpoints(path string) {
	pageCache.Lock()
	delete(pageCache.files, path)
	pageCache.Unlock()
}
