package contrast

import (
	"math"
	"strings"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

func mustColor(t testing.TB, s string) theme.Color {
	t.Helper()
	c, err := colour.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChecksFlagsAndRoles(t *testing.T) {
	th := theme.Example()
	th.UI.MutedText = mustColor(t, "#4a4f5c")   // too dark on the dark background
	th.UI.Selection = mustColor(t, "#d8dee9c0") // translucent and nearly the text colour
	checks := Checks(th)
	// 6 UI roles x 2 backgrounds + 9 syntax + text on selection + 14 ANSI,
	// then the optional roles' pairs.
	if len(checks) <= 12+9+1+14 {
		t.Fatalf("got %d checks, want the 36 of the core roles and more", len(checks))
	}
	find := func(fg, bg string) Check {
		for _, c := range checks {
			if c.FGRole == fg && c.BGRole == bg {
				return c
			}
		}
		t.Fatalf("no check %s on %s", fg, bg)
		return Check{}
	}
	muted := find("ui.mutedText", "ui.background")
	if muted.AA || muted.Ratio >= 4.5 || muted.FG != "#4a4f5c" || muted.BG != "#161a24" {
		t.Errorf("muted text check = %+v, want a failing AA at the given colours", muted)
	}
	sel := find("ui.text", "ui.selection")
	if sel.AALarge {
		t.Errorf("text on a near-text selection passes AA large: %+v", sel)
	}
	if sel.BG == "#d8dee9" || len(sel.BG) != 7 {
		t.Errorf("selection should be reported composited over the background, got %s", sel.BG)
	}
	for _, p := range [][2]string{{"terminal.cursorText", "terminal.cursor"}, {"ui.text", "diff.addedLine"}, {"ui.text", "editor.lineHighlight"}} {
		find(p[0], p[1])
	}
	// An optional role the theme sets badly is reported like a core one.
	th.Set("syntax.tag", mustColor(t, "#202430"))
	tag := Check{}
	for _, c := range Checks(th) {
		if c.FGRole == "syntax.tag" {
			tag = c
		}
	}
	if tag.FGRole == "" || tag.AA {
		t.Errorf("a near-background syntax.tag is not reported failing: %+v", tag)
	}
	text := find("ui.text", "ui.background")
	if !text.AA || !text.AAA || !text.AALarge {
		t.Errorf("text on background = %+v, want all levels to pass", text)
	}
	for _, c := range checks {
		if c.FGRole == "ansi.black" || c.FGRole == "ansi.brightBlack" {
			t.Errorf("black/brightBlack should not be checked as foregrounds: %+v", c)
		}
		if c.AAA && !c.AA || c.AA && !c.AALarge {
			t.Errorf("inconsistent levels: %+v", c)
		}
	}
}

func TestExamplePassesAA(t *testing.T) {
	if f := Failures(Checks(theme.Example())); len(f) != 0 {
		t.Errorf("example theme has %d AA failures: %+v", len(f), f)
	}
}

func TestFixPrompt(t *testing.T) {
	if p := FixPrompt(Checks(theme.Example())); p != "" {
		t.Errorf("FixPrompt with no failures = %q, want empty", p)
	}
	th := theme.Example()
	th.UI.MutedText = mustColor(t, "#4a4f5c")
	th.Syntax.Comment = mustColor(t, "#3b4252")
	p := FixPrompt(Checks(th))
	for _, want := range []string{
		"4 colour pair(s)",
		"editor.inlayHint #4a4f5c on editor.inlayHintBackground", // derived from ui.mutedText, so it fails too
		"ui.mutedText #4a4f5c on ui.background [ink] #161a24",    // the example's roles follow its palette
		"ui.mutedText #4a4f5c on ui.surface [slate] #1f2430",
		"syntax.comment #3b4252 on ui.background [ink] #161a24",
		"theme.json",
		"4.5:1",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("fix prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "ui.text ") {
		t.Errorf("fix prompt lists a passing pair:\n%s", p)
	}
}

// Each pair carries its APCA Lc, rounded to a tenth.
func TestChecksCarryAPCA(t *testing.T) {
	checks := Checks(theme.Example())
	if checks[0].APCA >= -60 || checks[0].APCA != math.Round(checks[0].APCA*10)/10 {
		t.Errorf("ui.text on the dark example's background: Lc %v, want a rounded strong negative value", checks[0].APCA)
	}
}

// The preview re-parses and re-checks on every save the agent makes.
func BenchmarkParseAndCheck(b *testing.B) {
	doc := theme.ExampleJSON()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		th, err := theme.Parse(doc)
		if err != nil {
			b.Fatal(err)
		}
		Checks(th)
	}
}
