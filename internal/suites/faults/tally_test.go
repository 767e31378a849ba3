package faults

import (
	"strings"
	"sync"
	"testing"
)

func TestTallyReport(t *testing.T) {
	tests := []struct {
		name   string
		record func(*Tally)
		want   string
	}{
		{"empty", func(*Tally) {}, "0 passed, 0 failed\n"},
		{"mixed", func(ta *Tally) {
			ta.Record("b", Passed, "")
			ta.Record("a", Failed, "")
			ta.Record("c", Skipped, "no disk")
			ta.Record("d", Passed, "")
		}, "FAILED  a\nSKIPPED c: no disk\n2 passed, 1 failed\n"},
		{"a re-recorded case counts once", func(ta *Tally) {
			ta.Record("x", Failed, "")
			ta.Record("x", Passed, "")
		}, "1 passed, 0 failed\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ta Tally
			tc.record(&ta)
			if got := ta.Report(); got != tc.want {
				t.Fatalf("Report() = %q, want %q", got, tc.want)
			}
			lines := strings.Split(strings.TrimSuffix(ta.Report(), "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.HasSuffix(last, " failed") {
				t.Fatalf("the last line is %q, not the summary", last)
			}
		})
	}
}

func TestTallyConcurrentRecords(t *testing.T) {
	var ta Tally
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			o := Passed
			if i%5 == 0 {
				o = Failed
			}
			ta.Record(string(rune('A'+i)), o, "")
		}(i)
	}
	wg.Wait()
	if p, f, s := ta.Counts(); p != 40 || f != 10 || s != 0 {
		t.Fatalf("counts %d/%d/%d, want 40/10/0", p, f, s)
	}
}
