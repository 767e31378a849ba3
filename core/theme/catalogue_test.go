package theme

import (
	"encoding/json"
	"strings"
	"testing"
)

// v1 is the example as a version 1 document: no version, no optional roles.
func v1(t *testing.T) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ExampleJSON(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "editor", "diff", "diagnostic", "terminal", "derive"} {
		delete(m, k)
	}
	syn := m["syntax"].(map[string]any)
	for k, v := range syn {
		if o, ok := v.(map[string]any); ok {
			syn[k] = o["color"]
		}
		if !contains(SyntaxRoles, k) {
			delete(syn, k)
		}
	}
	b, _ := json.Marshal(m)
	return b
}

func TestVersion1LoadsAndIsWrittenAsVersion2(t *testing.T) {
	th, err := Parse(v1(t))
	if err != nil {
		t.Fatalf("a version 1 document no longer loads: %v", err)
	}
	if th.Read != 1 {
		t.Errorf("read as version %d, want 1", th.Read)
	}
	// Derived roles follow the core roles, as version 1 exports painted them.
	for path, want := range map[string]Color{
		"editor.lineHighlight": th.UI.Surface, "terminal.cursor": th.UI.Accent, "diff.added": th.UI.Success,
		"diagnostic.info": th.UI.Accent, "syntax.property": th.Syntax.Variable, "syntax.boolean": th.Syntax.Constant,
	} {
		if got := th.Color(path); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if th.Style("syntax.comment") != "italic" || th.Style("syntax.keyword") != "" {
		t.Errorf("default styles: comment %q keyword %q", th.Style("syntax.comment"), th.Style("syntax.keyword"))
	}
	doc, err := EncodeJSON(th)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"version": 3`) {
		t.Errorf("written back without version 3:\n%s", doc)
	}
	again, err := Parse(doc)
	if err != nil {
		t.Fatalf("migrated document is invalid: %v\n%s", err, doc)
	}
	if ch := Changed(th, again); len(ch) != 0 {
		t.Errorf("migration changed %v", ch)
	}
}

func TestOptionalRolesStylesAndRules(t *testing.T) {
	th := Example()
	if got := th.Color("editor.lineHighlight").Hex(); got != "#1c2130" {
		t.Errorf("a set optional role reads %s, want the document's #1c2130", got)
	}
	if th.Style("syntax.keyword") != "bold" || th.Style("syntax.parameter") != "italic" {
		t.Errorf("font styles not read: keyword %q parameter %q", th.Style("syntax.keyword"), th.Style("syntax.parameter"))
	}
	// The document's own rule replaces the default (14% → 12%).
	if got, want := th.Color("diff.addedLine"), (Color{R: th.UI.Success.R, G: th.UI.Success.G, B: th.UI.Success.B, A: 31}); got != want {
		t.Errorf("diff.addedLine = %s, want the document's rule %s", got, want)
	}
	// A derived role follows its input.
	th.UI.Border = Color{R: 1, G: 2, B: 3, A: 255}
	if th.Color("editor.whitespace") != th.UI.Border {
		t.Errorf("editor.whitespace did not follow ui.border")
	}
	// cursorText picks the readable one of background and text on the cursor.
	th.Roles["terminal.cursor"] = Color{R: 250, G: 250, B: 250, A: 255}
	if got := th.Color("terminal.cursorText"); got != th.UI.Background {
		t.Errorf("cursor text on a white cursor = %s, want the dark background %s", got, th.UI.Background)
	}
	th.Roles["terminal.cursor"] = Color{R: 10, G: 10, B: 10, A: 255}
	if got := th.Color("terminal.cursorText"); got != th.UI.Text {
		t.Errorf("cursor text on a black cursor = %s, want the light text %s", got, th.UI.Text)
	}
	// Plain on purpose overrides the default italic and survives a write.
	th.Styles["syntax.comment"] = ""
	doc, _ := EncodeJSON(th)
	again, err := Parse(doc)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if again.Style("syntax.comment") != "" {
		t.Errorf("comment style after a round trip %q, want plain", again.Style("syntax.comment"))
	}
}

func TestBadRolesRulesAndStylesAreReported(t *testing.T) {
	var m map[string]any
	json.Unmarshal(ExampleJSON(), &m)
	m["editor"] = map[string]any{"lineHighlght": "#000000", "gutter": "red"}
	m["syntax"].(map[string]any)["tag"] = map[string]any{"fontStyle": "bold wavy"}
	m["syntax"].(map[string]any)["keyword"] = map[string]any{"fontStyle": "bold"}
	m["derive"] = map[string]any{
		"editor.ruler":      map[string]any{"from": "editor.whitespace"},
		"editor.whitespace": map[string]any{"from": "editor.ruler", "alpha": 0.5},
		"ui.text":           map[string]any{"from": "ui.accent"},
		"diff.added":        map[string]any{"from": "ui.sucess"},
		"editor.gutter":     map[string]any{"from": "ui.surface", "mix": "ui.text"},
	}
	b, _ := json.Marshal(m)
	probs := Validate(b)
	text := ""
	for _, p := range probs {
		text += p.String() + "\n"
	}
	for _, want := range []string{
		`editor.lineHighlght: unknown field (did you mean "lineHighlight"?)`,
		`editor.gutter: "red" is not a palette entry; the palette has amber, coral`,
		`syntax.tag.fontStyle: "wavy" is not a font style`,
		"syntax.keyword.color: required",
		"derive.editor.ruler: the rules go round in a circle: editor.ruler → editor.whitespace → editor.ruler",
		"derive.ui.text: ui.text is required",
		`derive.diff.added: from: "ui.sucess" is not a role (did you mean "ui.success"?)`,
		"derive.editor.gutter: amount: want a fraction",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q; got:\n%s", want, text)
		}
	}
}

// TestCatalogueIsSound: every optional role has a default rule over roles
// of the catalogue, the defaults never loop, and the syntax layer has the
// size the issue asks of it.
func TestCatalogueIsSound(t *testing.T) {
	var th Theme // nothing set: every optional role derives
	syntax := 0
	for _, info := range Catalogue() {
		if info.Group == "syntax" {
			syntax++
		}
		if info.Required {
			continue
		}
		if info.Rule == nil || info.RuleText == "" {
			t.Errorf("%s is optional without a rule", info.Path)
			continue
		}
		if msg := info.Rule.check(); msg != "" {
			t.Errorf("%s default rule: %s", info.Path, msg)
		}
		if c := th.cycle(info.Path); c != nil {
			t.Errorf("%s default rules loop: %v", info.Path, c)
		}
	}
	if syntax < 30 || syntax > 40 {
		t.Errorf("%d syntax roles, want 30–40", syntax)
	}
	if len(CorePaths()) != 35 {
		t.Errorf("%d required roles, want the 35 of version 1", len(CorePaths()))
	}
}
