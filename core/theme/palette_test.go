package theme

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// paletteDoc is a version 3 document whose roles name palette entries in
// every place a role can: a required ui role, an optional group, a syntax
// role as a string and as {color, fontStyle}, and the ANSI array; one
// follows a ramp's step.
func paletteDoc(t *testing.T) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ExampleJSON(), &m); err != nil {
		t.Fatal(err)
	}
	m["version"] = 3
	pal := m["palette"].(map[string]any) // ink, fog, … as the example has them
	pal["blue"] = map[string]any{"base": "#3b82f6", "steps": []int{100, 300, 500, 700, 900}}
	pal["mauve"] = "#c79bff"
	ui := m["ui"].(map[string]any)
	ui["background"], ui["text"], ui["accent"] = "ink", "fog", "blue"
	ui["selection"] = "blue.700"
	m["editor"].(map[string]any)["lineNumberActive"] = "fog"
	syn := m["syntax"].(map[string]any)
	syn["keyword"] = map[string]any{"color": "mauve", "fontStyle": "bold"}
	syn["function"] = "blue.300"
	ansi := m["ansi"].([]any)
	ansi[4], ansi[5] = "blue", "mauve"
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRolesNamingPaletteEntriesResolveAndWriteBackAsNames(t *testing.T) {
	th, err := Parse(paletteDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	blue, _ := ParseColor("#3b82f6")
	mauve, _ := ParseColor("#c79bff")
	steps := th.Ramps["blue"].Colors(blue)
	for path, want := range map[string]Color{
		"ui.background": th.Palette["ink"], "ui.accent": blue, "ui.selection": steps[700],
		"editor.lineNumberActive": th.Palette["fog"], "syntax.keyword": mauve, "syntax.function": steps[300],
		"ansi.blue": blue, "ansi.magenta": mauve,
	} {
		if got := th.Color(path); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if th.Style("syntax.keyword") != "bold" {
		t.Errorf("keyword style %q", th.Style("syntax.keyword"))
	}
	for path, want := range map[string]string{"ui.selection": "blue.700", "ansi.magenta": "mauve", "syntax.keyword": "mauve", "ui.border": ""} {
		if got := th.Follows(path); got != want {
			t.Errorf("%s follows %q, want %q", path, got, want)
		}
	}
	// Derived roles follow their rules through the references.
	if got := th.Color("diagnostic.info"); got != blue {
		t.Errorf("diagnostic.info (same as ui.accent) = %s", got)
	}

	doc, err := EncodeJSON(th)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"version": 3`, `"accent": "blue"`, `"selection": "blue.700"`, `"function": "blue.300"`,
		`"color": "mauve"`, `"lineNumberActive": "fog"`, `"steps": [`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("written document lacks %s:\n%s", want, doc)
		}
	}
	again, err := Parse(doc)
	if err != nil {
		t.Fatalf("written document invalid: %v\n%s", err, doc)
	}
	doc2, _ := EncodeJSON(again)
	if !bytes.Equal(doc, doc2) {
		t.Errorf("a version 3 document is not written back byte for byte:\n%s\n---\n%s", doc, doc2)
	}
	vals := th.Values()
	if i := slices.IndexFunc(vals, func(v RoleValue) bool { return v.Path == "ui.selection" }); vals[i].Follows != "blue.700" || vals[i].Color != steps[700].String() {
		t.Errorf("RoleValue of ui.selection: %+v", vals[i])
	}
}

func TestAnUnknownPaletteNameIsAClearError(t *testing.T) {
	base := string(paletteDoc(t))
	for _, c := range []struct{ from, to, want string }{
		{`"accent":"blue"`, `"accent":"bleu"`, `ui.accent: "bleu" is not a palette entry (did you mean "blue"?); the palette has amber, blue, coral, fog, ink, kelp, mauve, mist, slate, tide`},
		{`"selection":"blue.700"`, `"selection":"blue.650"`, `ui.selection: "blue.650": the ramp blue has no step "650" (its steps: 100, 300, 500, 700, 900)`},
		{`"selection":"blue.700"`, `"selection":"fog.700"`, `ui.selection: "fog.700": fog is a colour, not a ramp; only a ramp has steps`},
		{`"text":"fog"`, `"text":"d8dee9"`, `ui.text: "d8dee9" is not a palette entry (a colour starts with #: "#d8dee9")`},
		{`"color":"mauve"`, `"color":"purple"`, `syntax.keyword.color: "purple" is not a palette entry`},
		{`"mauve":"#c79bff"`, `"mauve":"fog"`, `palette.mauve: "fog": a palette entry is a colour`},
		{`"steps":[100,300,500,700,900]`, `"steps":[100,100]`, `palette.blue: steps: 100 twice`},
		{`"steps":[100,300,500,700,900]`, `"steps":[0,500]`, `palette.blue: steps: 0 is outside 1…999`},
	} {
		doc := strings.Replace(base, c.from, c.to, 1)
		if doc == base {
			t.Fatalf("%s not in the document", c.from)
		}
		probs := Validate([]byte(doc))
		if !slices.ContainsFunc(probs, func(p Problem) bool { return strings.HasPrefix(p.String(), c.want) }) {
			t.Errorf("%s → %s: problems lack %q; got %v", c.from, c.to, c.want, probs)
		}
	}
	// The ANSI array names the index, as for a bad colour.
	doc := strings.Replace(base, `"mauve","#66d1c9"`, `"violet","#66d1c9"`, 1)
	if doc == base {
		t.Fatal("ansi[5] not in the document")
	}
	if probs := Validate([]byte(doc)); len(probs) != 1 || probs[0].Path != "ansi[5]" || !strings.Contains(probs[0].Message, `"violet"`) {
		t.Errorf("ansi: %v", probs)
	}
}

func TestRampStepsKeepTheBaseAndFallInLightness(t *testing.T) {
	for _, hex := range []string{"#3b82f6", "#f2c572", "#161a24", "#d8dee9", "#ff0000", "#777777"} {
		base, _ := ParseColor(hex)
		r := Ramp{}
		cols := r.Colors(base)
		if len(cols) != len(DefaultRampSteps) {
			t.Fatalf("%s: %d steps", hex, len(cols))
		}
		anchor := r.Anchor(base)
		if cols[anchor] != base {
			t.Errorf("%s: step %d is %s, not the base", hex, anchor, cols[anchor])
		}
		prev := 2.0
		for _, s := range DefaultRampSteps {
			o := ToOKLCH(cols[s])
			if o.L >= prev {
				t.Errorf("%s: step %d lightness %.3f is not below the step before (%.3f)", hex, s, o.L, prev)
			}
			prev = o.L
			b := ToOKLCH(base)
			if b.C > 0.05 && o.C > 0.03 && hueDistance(o.H, b.H) > 8 {
				t.Errorf("%s: step %d hue %.1f drifted from the base's %.1f", hex, s, o.H, b.H)
			}
		}
	}
	// A blue at Tailwind's 500 lightness lands on 500 and its 50 is a
	// near-white tint, its 950 a deep shade.
	blue, _ := ParseColor("#3b82f6")
	cols := Ramp{}.Colors(blue)
	if (Ramp{}).Anchor(blue) != 500 {
		t.Errorf("anchor %d", Ramp{}.Anchor(blue))
	}
	if l := ToOKLCH(cols[50]).L; l < 0.95 {
		t.Errorf("blue.50 lightness %.3f", l)
	}
	if l := ToOKLCH(cols[950]).L; l > 0.35 {
		t.Errorf("blue.950 lightness %.3f", l)
	}
	// "at" puts the base on another step; the others move to fit.
	at := Ramp{At: 700}.Colors(blue)
	if at[700] != blue || ToOKLCH(at[500]).L <= ToOKLCH(blue).L {
		t.Errorf("at 700: 700 %s, 500 %s", at[700], at[500])
	}
}

func hueDistance(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

// twin is th with every role holding its resolved colour and no
// references: what the exporters must see.
func twin(th *Theme) *Theme {
	c := th.Clone()
	c.Refs = nil
	if c.Companion != nil {
		c.Companion = twin(c.Companion)
	}
	return c
}

func TestDetachAndAttach(t *testing.T) {
	th, err := Parse(paletteDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	blue := th.Palette["blue"]
	if !th.Detach("ui.accent") || th.Detach("ui.accent") {
		t.Fatal("Detach reports whether the role followed an entry")
	}
	if th.Color("ui.accent") != blue {
		t.Error("a detached role keeps its colour")
	}
	orange, _ := ParseColor("#ff8800")
	th.SetEntry("blue", orange)
	if th.Color("ui.accent") != blue || th.Color("ansi.blue") != orange {
		t.Errorf("after the edit: detached accent %s, following ansi.blue %s", th.Color("ui.accent"), th.Color("ansi.blue"))
	}
	if err := th.Attach("ui.accent", "blue.900"); err != nil {
		t.Fatal(err)
	}
	if th.Color("ui.accent") != th.Ramps["blue"].Colors(orange)[900] || th.Follows("ui.accent") != "blue.900" {
		t.Errorf("attached accent %s follows %q", th.Color("ui.accent"), th.Follows("ui.accent"))
	}
	if err := th.Attach("ui.accent", "nope"); err == nil || !strings.Contains(err.Error(), `ui.accent: "nope" is not a palette entry`) {
		t.Errorf("attach to an unknown name: %v", err)
	}
	// Setting a role's colour detaches it; the written document says so.
	th.Set("ui.text", orange)
	doc, _ := EncodeJSON(th)
	if !strings.Contains(string(doc), `"text": "#ff8800"`) || !strings.Contains(string(doc), `"accent": "blue.900"`) {
		t.Errorf("document:\n%s", doc)
	}
	// An optional role set by name in code follows too.
	if err := th.Attach("editor.gutter", "ink"); err != nil || th.Color("editor.gutter") != th.Palette["ink"] || !th.Has("editor.gutter") {
		t.Errorf("attach an optional role: %v", err)
	}
	// A field changed directly holds its own colour: the document never
	// names an entry whose colour the role no longer has.
	th.UI.Background = orange
	doc, _ = EncodeJSON(th)
	if th.Follows("ui.background") != "" || !strings.Contains(string(doc), `"background": "#ff8800"`) {
		t.Errorf("a changed field still follows %q:\n%s", th.Follows("ui.background"), doc)
	}
	th.UI.Background = th.Palette["ink"]
	// Removing an entry leaves its followers their colours, detached.
	users, _ := th.RemoveEntry("ink")
	if !slices.Contains(users, "editor.gutter") || th.Follows("editor.gutter") != "" || th.Color("editor.gutter") != th.UI.Background {
		t.Errorf("remove: users %v", users)
	}
	if _, err := EncodeJSON(th); err != nil {
		t.Fatal(err)
	}
}

// A version 2 document's palette was informational: its roles held hex
// values. Read now, each role holding an entry's exact colour follows that
// entry, so editing the entry still moves the roles holding its colour (as
// it did), and every colour is the same.
func TestAVersion2DocumentsRolesFollowTheEntriesOfTheirColours(t *testing.T) {
	v2, err := os.ReadFile("testdata/v2.theme.json") // the example as version 2 wrote it
	if err != nil {
		t.Fatal(err)
	}
	th, err := Parse(v2)
	if err != nil || th.Read != 2 {
		t.Fatalf("version 2 document: %v", err)
	}
	if th.Follows("ui.background") != "ink" || th.Follows("ui.border") != "" {
		t.Errorf("background follows %q, border %q", th.Follows("ui.background"), th.Follows("ui.border"))
	}
	doc, _ := EncodeJSON(th)
	again, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range RolePaths() {
		if th.Color(p) != again.Color(p) {
			t.Errorf("%s: %s read as version 2, %s written back as 3", p, th.Color(p), again.Color(p))
		}
	}
}
