package liveswitch

import (
	"os"
	"slices"
	"testing"

	"github.com/rs/zerolog"
)

// A program turned live for a build stays on after a restart, Undo apply
// turns it off for every build, and a damaged live.json starts all off.
func TestSwitchesSurviveARestart(t *testing.T) {
	t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	log := zerolog.Nop()
	s := &Switches{Log: &log}
	for _, b := range []string{"b1", "b2"} {
		if err := s.Set(b, "kitty", true); err != nil {
			t.Fatal(err)
		}
	}
	s.Set("b1", "tmux", true)
	s.Set("b1", "tmux", false)
	again := &Switches{Log: &log}
	if on := again.On("b1"); !slices.Equal(on, []string{"kitty"}) {
		t.Fatalf("after a restart b1 has %v on, want kitty", on)
	}
	if err := again.Off("kitty"); err != nil {
		t.Fatal(err)
	}
	third := &Switches{Log: &log}
	if len(third.On("b1"))+len(third.On("b2")) != 0 {
		t.Fatalf("kitty still on after Off: %v %v", third.On("b1"), third.On("b2"))
	}
	os.WriteFile(Path(), []byte("{"), 0o600)
	if on := (&Switches{Log: &log}).On("b1"); len(on) != 0 {
		t.Fatalf("a damaged live.json turned %v on", on)
	}
}
