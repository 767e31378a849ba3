package theme

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// edit returns the example document with fn applied to its generic form.
func edit(t testing.TB, fn func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ExampleJSON(), &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseExample(t *testing.T) {
	th, err := Parse(ExampleJSON())
	if err != nil {
		t.Fatalf("example: %v", err)
	}
	if th.Name != "Harbour Night" || th.Appearance != "dark" {
		t.Errorf("name/appearance = %q/%q", th.Name, th.Appearance)
	}
	if th.UI.Background.Hex() != "#161a24" || th.Syntax.Keyword.Hex() != "#c79bff" {
		t.Errorf("roles not read: bg %s keyword %s", th.UI.Background, th.Syntax.Keyword)
	}
	if th.ANSI[1].Hex() != "#ff8a80" || th.ANSI[15].Hex() != "#f4f6fa" {
		t.Errorf("ansi not read in order: %v", th.ANSI)
	}
	if th.Palette["tide"].Hex() != "#7fb4ff" {
		t.Errorf("palette not read: %v", th.Palette)
	}
	// A byte-order mark from a Windows editor is not an error.
	if _, err := Parse(append([]byte("\xef\xbb\xbf"), ExampleJSON()...)); err != nil {
		t.Errorf("example with BOM: %v", err)
	}
	// The parsed theme marshals back to a document that parses to the same theme.
	b, err := json.Marshal(th)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(b)
	if err != nil {
		t.Fatalf("re-parse of marshalled theme: %v\n%s", err, b)
	}
	if again.Read != Version {
		t.Errorf("a marshalled theme reads as version %d, want %d", again.Read, Version)
	}
	again.Read = th.Read
	if !reflect.DeepEqual(th, again) {
		t.Errorf("round trip changed the theme:\n%+v\n%+v", th, again)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	tests := []struct {
		name string
		doc  []byte
		want []string
	}{
		{"short colour", edit(t, func(m map[string]any) { m["ui"].(map[string]any)["background"] = "#12345" }),
			[]string{`ui.background: "#12345" is not a colour (want #rrggbb)`}},
		{"15 ansi", edit(t, func(m map[string]any) { m["ansi"] = m["ansi"].([]any)[:15] }),
			[]string{"ansi: want 16 colours, got 15"}},
		{"unknown appearance", edit(t, func(m map[string]any) { m["appearance"] = "dim" }),
			[]string{`appearance: "dim" is not one of "dark", "light"`}},
		{"missing name", edit(t, func(m map[string]any) { delete(m, "name") }),
			[]string{"name: required"}},
		{"blank name", edit(t, func(m map[string]any) { m["name"] = "  " }),
			[]string{"name: must not be empty"}},
		{"missing role and typo", edit(t, func(m map[string]any) {
			ui := m["ui"].(map[string]any)
			ui["backgroud"] = ui["background"]
			delete(ui, "background")
		}), []string{"ui.background: required", `ui.backgroud: unknown field (did you mean "background"?)`}},
		{"wrong types", edit(t, func(m map[string]any) {
			m["syntax"] = []any{}
			m["name"] = 3
			m["ansi"].([]any)[4] = 255
			m["palette"].(map[string]any)["sea"] = "blue"
		}), []string{
			"name: want a string, got a number",
			"syntax: want an object, got an array",
			`ansi[4]: want a colour string like "#1e1e2e", got a number`,
			`palette.sea: "blue": a palette entry is a colour ("#rrggbb") or a ramp ({"base": "#rrggbb"}), never the name of another entry`,
		}},
		{"unknown top-level", edit(t, func(m map[string]any) { m["colours"] = map[string]any{} }),
			[]string{"colours: unknown field (known: name, appearance, ui, syntax, ansi, $schema, version, description, author, palette, editor, diff, diagnostic, terminal, derive, scheme, spaces, targets, companion)"}},
		{"many at once", edit(t, func(m map[string]any) {
			delete(m, "syntax")
			m["appearance"] = "Dark"
			m["ui"].(map[string]any)["text"] = "white"
			m["ansi"] = append(m["ansi"].([]any), "#000000")
		}), []string{
			"syntax: required",
			`appearance: "Dark" is not one of "dark", "light"`,
			`ui.text: "white" is not a palette entry; the palette has amber, coral, fog, ink, kelp, mist, slate, tide`,
			"ansi: want 16 colours, got 17",
		}},
		{"not an object", []byte(`[1,2]`), []string{"want a JSON object, got array"}},
		{"null", []byte(`null`), []string{"want a JSON object, got null"}},
		{"truncated", []byte("{\n  \"name\": \"x\",\n  \"ui\": {"), []string{"invalid JSON at line 3"}},
		{"syntax error", []byte("{\n  \"name\": \"x\",\n  \"ui\": {,}\n}"), []string{"invalid JSON at line 3, column 10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probs := Validate(tt.doc)
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems lack %q; got:\n%s", w, all)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d problems, want %d:\n%s", len(got), len(tt.want), all)
			}
			th, err := Parse(tt.doc)
			var ve *ValidationError
			if th != nil || !errors.As(err, &ve) || len(ve.Problems) != len(probs) {
				t.Errorf("Parse = %v, %v; want nil and a ValidationError with the same problems", th, err)
			}
		})
	}
}

func TestValidateSamples(t *testing.T) {
	// Files an agent plausibly writes; each must be rejected with a message.
	entries, err := os.ReadDir("testdata/invalid")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("no samples in testdata/invalid")
	}
	for _, e := range entries {
		b, err := os.ReadFile("testdata/invalid/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		probs := Validate(b)
		if len(probs) == 0 {
			t.Errorf("%s: accepted", e.Name())
		}
		for _, p := range probs {
			if p.Message == "" {
				t.Errorf("%s: empty message at %s", e.Name(), p.Path)
			}
		}
	}
}
