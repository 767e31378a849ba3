package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/app/selftest"

	"github.com/rs/zerolog"
)

func TestSelfTestRecordsWhatWouldReachTheOS(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	out := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("CDXTHEME_SELFTEST_OUT", out)
	t.Setenv("CDXTHEME_SELFTEST_NAV", "http://127.0.0.1:9")
	a := New(zerolog.Nop())
	a.Desktop.recordIn(a.selfTest)
	if plan := selftest.PlanOf(); plan.Nav != "http://127.0.0.1:9" {
		t.Fatalf("plan: %+v", plan)
	}
	if err := a.Desktop.OpenLink("mailto:a@x.org?attach=/etc/passwd"); err != nil {
		t.Fatal(err)
	}
	if err := a.Desktop.OpenLink("javascript:alert(1)"); err == nil {
		t.Fatal("javascript: accepted")
	}
	b, _ := os.ReadFile(out)
	var got struct{ Opened []string }
	json.Unmarshal(b, &got)
	if len(got.Opened) != 1 || got.Opened[0] != "mailto:a@x.org" {
		t.Fatalf("opened %v (%s)", got.Opened, b)
	}
}
