package apply

import (
	"bytes"
	"cdxtheme/core/install"
	"cdxtheme/core/quote"
	"encoding/json"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// Whatever a settings.json holds, the editor either leaves it alone with a
// reason or returns a file that still scans, with the bytes before the
// change as they were.
func FuzzEditJSON(f *testing.F) {
	for _, seed := range []string{
		"{}", "", "{\"workbench.colorTheme\": \"x\",}", "// c\n{/* \"a\": 1 */ \"b\": [1, {\"c\": null},],}",
		"{\"theme\": {\"mode\": \"system\", \"dark\": \"x\"}}", "{\"a\": \"\\u00e9\\\"\", \"theme\": 1e5}", "[1]", "{\"a\": tru}",
	} {
		f.Add([]byte(seed))
	}
	s := &install.Setting{Syntax: "json", Path: []string{"theme"}, Value: `"Harbour Night"`, Within: "dark"}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := editJSON(b, s)
		if err != nil || r.data == nil {
			return
		}
		if _, err := scanJSONC(r.data); err != nil {
			t.Fatalf("edit of %q gave %q, which does not scan: %v", b, r.data, err)
		}
		if !bytes.Contains(r.data, []byte(s.Value)) {
			t.Fatalf("edit of %q gave %q without the value", b, r.data)
		}
	})
}

// Whatever a config.toml holds, a change leaves it parsing with the
// top-level theme set and nothing else different (editTOML checks that
// itself; here it must never panic or return a file that does not parse).
func FuzzEditTOML(f *testing.F) {
	for _, seed := range []string{
		"", "theme = \"x\"\n[editor]\ntheme = \"y\"\n", "a = 1\ntheme = 'lit' # c\n", "theme = \"\"\"\nml\"\"\"\n",
		"x = [\n [1],\n]\ntheme = \"a\"\n", "[t]\n", "theme = { dark = \"a\" }\n", "theme.a = 1\n",
	} {
		f.Add([]byte(seed))
	}
	s := &install.Setting{Syntax: "toml", Path: []string{"theme"}, Value: quote.TOML("harbour-night")}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := editTOML(b, s)
		if err != nil || r.data == nil {
			return
		}
		var m map[string]any
		if err := toml.Unmarshal(r.data, &m); err != nil || m["theme"] != "harbour-night" {
			t.Fatalf("edit of %q gave %q: theme %v, %v", b, r.data, m["theme"], err)
		}
	})
}

// jsonLiteral agrees with encoding/json on every literal.
func FuzzJSONLiteral(f *testing.F) {
	for _, seed := range []string{"0", "-0", "01", "1.", "1.5e+3", "-", "true", "nul", "1e", "2E-7", ".5"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.ContainsAny(b, " \t\r\n") {
			return // white space around a literal is json.Valid's, not a literal's
		}
		if got, want := jsonLiteral(b), json.Valid(b) && len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9' || string(b) == "true" || string(b) == "false" || string(b) == "null"); got != want {
			t.Fatalf("jsonLiteral(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// Taking a change back out of the file it left gives the file before it.
func FuzzLineDiff(f *testing.F) {
	f.Add([]byte("a = 1\ntheme = x\n"), []byte("a = 1\ntheme = harbour-night\n"))
	f.Add([]byte(""), []byte("theme = y\n"))
	f.Add([]byte("{}"), []byte("{\n    \"k\": 1\n}"))
	f.Fuzz(func(t *testing.T, old, new []byte) {
		if bytes.Equal(old, new) {
			return
		}
		u := lineDiff(old, new)
		if got, ok := undoText(new, u); ok && !bytes.Equal(got, old) {
			t.Fatalf("undo of %q -> %q gave %q", old, new, got)
		}
	})
}
