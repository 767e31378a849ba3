package themeimport

import (
	"strings"
	"testing"

	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

func importOracle(t *testing.T, parts ...string) *Imported {
	t.Helper()
	path := oracleDir(parts...)
	imp, err := Import(path, readOracle(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return imp
}

// reparse takes a theme through theme.json, as the app stores it.
func reparse(t *testing.T, th *theme.Theme) *theme.Theme {
	t.Helper()
	doc, err := theme.EncodeJSON(th)
	if err != nil {
		t.Fatal(err)
	}
	out, err := theme.Parse(doc)
	if err != nil {
		t.Fatalf("the imported document does not validate: %v", err)
	}
	return out
}

func renderOne(t *testing.T, th *theme.Theme, format string) string {
	t.Helper()
	files, err := targets.Render(th, format)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range files {
		return string(b)
	}
	return ""
}

// itermEntry is the <dict> an .itermcolors export writes for key.
func itermEntry(t *testing.T, file, key string) string {
	t.Helper()
	i := strings.Index(file, "<key>"+key+"</key>")
	if i < 0 {
		t.Fatalf("%s missing from the iTerm2 export", key)
	}
	j := strings.Index(file[i:], "</dict>")
	return file[i : i+j]
}

func TestDisplayP3ConvertedAndKept(t *testing.T) {
	imp := importOracle(t, "iterm2-color-schemes", "schemes", "Cyberpunk Scarlet Protocol.itermcolors")
	// The example: P3 green read as sRGB gave #64d98c; the
	// generator's conversion gives #01dc84.
	if got := imp.Theme.ANSI[2].Hex(); got != "#01dc84" {
		t.Errorf("ansi.green = %s, want #01dc84", got)
	}
	src, ok := imp.Theme.Spaces["ansi.green"]
	if !ok || src.Space != "P3" || src.SRGB.Hex() != "#01dc84" || len(src.Components) != 4 {
		t.Fatalf("spaces[ansi.green] = %+v, want the P3 original", src)
	}
	if !strings.Contains(strings.Join(imp.Kept, "\n"), "spaces.ansi.green") {
		t.Errorf("kept does not name spaces.ansi.green: %v", imp.Kept)
	}
	th := reparse(t, imp.Theme)
	entry := itermEntry(t, renderOne(t, th, "iterm2"), "Ansi 2 Color")
	if !strings.Contains(entry, "<string>P3</string>") {
		t.Errorf("the iTerm2 export relabels a P3 colour:\n%s", entry)
	}
	// A colour the designer changed is no longer the P3 original.
	th.ANSI[2] = theme.Color{R: 0x10, G: 0xc0, B: 0x70, A: 255}
	entry = itermEntry(t, renderOne(t, th, "iterm2"), "Ansi 2 Color")
	if !strings.Contains(entry, "<string>sRGB</string>") || !strings.Contains(entry, "<real>0.7529411764705882</real>") {
		t.Errorf("a changed colour is not written as its sRGB value:\n%s", entry)
	}
}

func TestCalibratedColoursKeepTheirLabel(t *testing.T) {
	imp := importOracle(t, "iterm2-color-schemes", "schemes", "Atom One Light.itermcolors")
	if !strings.Contains(strings.Join(imp.Warnings, "\n"), "Calibrated (generic RGB)") {
		t.Errorf("no warning that calibrated colours were read as sRGB: %v", imp.Warnings)
	}
	if s := imp.Theme.Spaces["ui.background"]; s.Space != "Calibrated" {
		t.Errorf("spaces[ui.background] = %+v, want Calibrated", s)
	}
	entry := itermEntry(t, renderOne(t, reparse(t, imp.Theme), "iterm2"), "Background Color")
	if !strings.Contains(entry, "<string>Calibrated</string>") {
		t.Errorf("the iTerm2 export relabels a calibrated colour:\n%s", entry)
	}
}

func TestITermKeysWithoutRoleKept(t *testing.T) {
	imp := importOracle(t, "iterm2-color-schemes", "schemes", "0x96f.itermcolors")
	tg := imp.Theme.Targets
	for _, k := range []string{"Badge Color", "Match Background Color", "Ansi 4 Color (Dark)", "Background Color (Light)"} {
		if tg == nil || tg.ITerm2[k].Components == nil {
			t.Errorf("%s not kept in targets.iterm2", k)
		}
	}
	out := renderOne(t, reparse(t, imp.Theme), "iterm2")
	if !strings.Contains(out, "<key>Ansi 4 Color (Dark)</key>") || !strings.Contains(out, "<key>Match Background Color</key>") {
		t.Error("the iTerm2 export drops the kept keys")
	}
	imp.DropTargets()
	warned := strings.Join(imp.Warnings, "\n")
	for _, k := range []string{"Badge Color is not carried", "Ansi 4 Color (Dark) is not carried", "Link Color (Light) is not carried"} {
		if !strings.Contains(warned, k) {
			t.Errorf("without overrides, %q is not in the warnings", k)
		}
	}
}

func TestFootSections(t *testing.T) {
	both := "initial-color-theme=light\n[colors-dark]\nbackground=000000\nforeground=ffffff\n[colors-light]\nbackground=fafafa\nforeground=101010 # ink\nregular1=aa0000\n"
	imp, err := Import("x.ini", []byte(both))
	if err != nil {
		t.Fatal(err)
	}
	if imp.Theme.UI.Background.Hex() != "#fafafa" || imp.Theme.UI.Text.Hex() != "#101010" || imp.Theme.Appearance != "light" {
		t.Errorf("read %s on %s (%s), want the [colors-light] section", imp.Theme.UI.Text, imp.Theme.UI.Background, imp.Theme.Appearance)
	}
	if !strings.Contains(strings.Join(imp.Warnings, "\n"), "[colors-dark] is not imported") {
		t.Errorf("the other section is not named: %v", imp.Warnings)
	}
	imp, err = Import("x.ini", []byte("[colors-dark]\nbackground=111111\n16=ff0000\n"))
	if err != nil || imp.Theme.UI.Background.Hex() != "#111111" {
		t.Fatalf("[colors-dark] alone: %v", err)
	}
	if !strings.Contains(strings.Join(imp.Warnings, "\n"), "[colors-dark] 16 is not carried") {
		t.Errorf("the 256-colour entry is dropped silently: %v", imp.Warnings)
	}
}

func TestSchemeSlotsVerbatimAndFollowingEdits(t *testing.T) {
	imp := importOracle(t, "tinted", "schemes", "base24", "one-dark.yaml")
	th := reparse(t, imp.Theme)
	if th.Scheme == nil || th.Scheme.System != "base24" || th.Scheme.Slots["base0F"].Hex() != "#bf4034" {
		t.Fatalf("scheme = %+v", th.Scheme)
	}
	th.UI.Background = theme.Color{R: 1, G: 2, B: 3, A: 255}
	out := renderOne(t, th, "base24")
	if !strings.Contains(out, `base00: "#010203"`) {
		t.Error("base00 does not follow the changed ui.background")
	}
	for _, want := range []string{`base0F: "#bf4034"`, `base10: "#21252b"`, `base11: "#181a1f"`, `base06: "#e6e6e6"`} {
		if !strings.Contains(out, want) {
			t.Errorf("%s not kept verbatim:\n%s", want, out)
		}
	}
	// base16 → base24 fills the extra slots with base24 0.1.3's fallbacks.
	imp = importOracle(t, "tinted", "schemes", "base16", "nord.yaml")
	out = renderOne(t, reparse(t, imp.Theme), "base24")
	s := imp.Theme.Scheme.Slots
	for _, p := range [][2]string{{"base10", "base00"}, {"base12", "base08"}, {"base17", "base0E"}} {
		if !strings.Contains(out, p[0]+`: "`+s[p[1]].Hex()+`"`) {
			t.Errorf("%s is not base24's fallback %s (%s):\n%s", p[0], p[1], s[p[1]].Hex(), out)
		}
	}
}

func TestNewFieldsValidated(t *testing.T) {
	base := string(theme.ExampleJSON())
	with := func(field string) string {
		return strings.Replace(base, `"name"`, field+`, "name"`, 1)
	}
	for _, tc := range []struct{ doc, want string }{
		{with(`"scheme": {"system": "base8", "slots": {}}`), `scheme.system: "base8" is not one of`},
		{with(`"scheme": {"system": "base16", "slots": {"base00": "#000000"}}`), "scheme.slots.base01: required"},
		{with(`"spaces": {"ansi.gren": {"space": "P3", "components": [0,0,0,1], "srgb": "#000000"}}`), `spaces.ansi.gren: not a role path (did you mean "ansi.green"?)`},
		{with(`"spaces": {"ansi.green": {"space": "P4", "components": [0,2,0,1], "srgb": "#000000"}}`), "spaces.ansi.green.components[1]: 2 is outside 0–1"},
		{with(`"targets": {"sublime": {}}`), "targets.sublime: unknown field"},
		{with(`"targets": {"vscode": {"tokenColors": {}}}`), "targets.vscode.tokenColors: want an array"},
	} {
		probs := theme.Validate([]byte(tc.doc))
		var got []string
		for _, p := range probs {
			got = append(got, p.String())
		}
		if !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("want %q among %v", tc.want, got)
		}
	}
}

// TestTerminalKeysNotCarriedAreNamed: every colour key of a terminal file
// that no role takes is named in the warnings.
func TestTerminalKeysNotCarriedAreNamed(t *testing.T) {
	for _, tc := range []struct {
		path []string
		want []string
	}{
		{[]string{"tinted", "kitty", "base16-nord.conf"}, []string{"color16", "wayland_titlebar_color"}},
		{[]string{"tinted", "alacritty", "base16-nord.toml"}, []string{"colors.indexed_colors[0].color"}},
	} {
		imp := importOracle(t, tc.path...)
		warned := strings.Join(imp.Warnings, "\n")
		for _, k := range tc.want {
			if !strings.Contains(warned, k) {
				t.Errorf("%s: %s not named in %v", strings.Join(tc.path, "/"), k, imp.Warnings)
			}
		}
	}
}

// A VS Code theme's semanticHighlighting switch is kept as an override, and
// dropping the overrides names it among what is not carried.
func TestDroppedSemanticHighlightingIsNamed(t *testing.T) {
	src := `{"name":"Dusk","type":"dark","semanticHighlighting":true,"colors":{"editor.background":"#101010","editor.foreground":"#eeeeee"},"tokenColors":[]}`
	imp, err := Import("dusk-color-theme.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tg := imp.Theme.Targets; tg == nil || tg.VSCode == nil || tg.VSCode.SemanticHighlighting == nil {
		t.Fatalf("semanticHighlighting not kept: %+v", imp.Theme.Targets)
	}
	imp.DropTargets()
	if w := strings.Join(imp.Warnings, "\n"); !strings.Contains(w, "semanticHighlighting is not carried") {
		t.Fatalf("dropping the overrides does not name semanticHighlighting: %v", imp.Warnings)
	}
}
