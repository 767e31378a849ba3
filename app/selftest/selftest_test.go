package selftest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestSelfTestReportsAccumulate(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	var s Test
	t.Setenv("CDXTHEME_SELFTEST_ELEMENTS", `{"x":"body"}`)
	if plan := PlanOf(); plan.Active || plan.Prompt != "" || plan.Elements != "" {
		t.Fatalf("self-test active without CDXTHEME_SELFTEST_OUT: %+v", plan)
	}
	out := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("CDXTHEME_SELFTEST_OUT", out)
	t.Setenv("CDXTHEME_SELFTEST_PROMPT", "dusk")
	t.Setenv("CDXTHEME_SELFTEST_STAY", "1") // no window to quit here
	if plan := PlanOf(); !plan.Active || plan.Prompt != "dusk" || plan.Elements != `{"x":"body"}` {
		t.Fatalf("plan: %+v", plan)
	}
	if err := s.Reported("paint", "CDXTheme"); err != nil {
		t.Fatal(err)
	}
	if err := s.Reported("reply", "Hello"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["paint"] != "CDXTheme" || got["reply"] != "Hello" || got["paintMs"] == nil || got["replyMs"] == nil {
		t.Fatalf("report: %s", b)
	}
}

// The page's reports arrive on goroutines of their own (Wails delivers each
// event on one), so the report file must end with every kind, whatever the
// order the writes ran in.
func TestSelfTestReportsRacingKeepEveryKind(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	out := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("CDXTHEME_SELFTEST_OUT", out)
	t.Setenv("CDXTHEME_SELFTEST_STAY", "1")
	var s Test
	kinds := []string{"reply", "bypass", "rects", "focused", "linkErrors", "highlight"}
	var wg sync.WaitGroup
	for _, k := range kinds {
		wg.Go(func() {
			if err := s.Reported(k, "x"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(out)
	var got map[string]any
	json.Unmarshal(b, &got)
	for _, k := range kinds {
		if got[k] != "x" {
			t.Errorf("report lost %q: %s", k, b)
		}
	}
}
