package themeimport

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/jsonc"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// Published VS Code themes (testdata/oracle/vscode, see its README)
// imported and exported again: with the overrides the import keeps, every
// colors key, the tokenColors array and every semanticTokenColors entry
// come back exactly; without them, every key that does not come back is
// named in the import's warnings.

type vscodeDoc struct {
	Colors              map[string]string          `json:"colors"`
	TokenColors         json.RawMessage            `json:"tokenColors"`
	SemanticTokenColors map[string]json.RawMessage `json:"semanticTokenColors"`
}

func readVSCodeDoc(t *testing.T, data []byte) vscodeDoc {
	t.Helper()
	var d vscodeDoc
	if err := json.Unmarshal(jsonc.Strip(data), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func sameColour(a, b string) bool {
	x, err1 := colour.ParseLoose(a)
	y, err2 := colour.ParseLoose(b)
	return err1 == nil && err2 == nil && x == y
}

func exportVSCodeDoc(t *testing.T, th *theme.Theme) vscodeDoc {
	t.Helper()
	files, err := targets.Render(th, "vscode")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if strings.HasPrefix(name, "themes/") {
			return readVSCodeDoc(t, b)
		}
	}
	t.Fatal("no theme file in the VS Code export")
	return vscodeDoc{}
}

func TestVSCodeThemesRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob(oracleDir("vscode", "*.json"))
	if len(paths) < 5 {
		t.Fatalf("%d VS Code themes; the sample has 5", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data := readOracle(t, p)
			src := readVSCodeDoc(t, data)
			var rules []json.RawMessage
			json.Unmarshal(src.TokenColors, &rules)
			if len(src.Colors) < 150 || len(rules) < 40 {
				t.Fatalf("sample too small: %d colors, %d rules", len(src.Colors), len(rules))
			}

			imp, err := Import(filepath.Base(p), data)
			if err != nil {
				t.Fatal(err)
			}
			// Through theme.json and back, as the app stores it.
			doc, err := imp.Document()
			if err != nil {
				t.Fatal(err)
			}
			th, err := theme.Parse(doc)
			if err != nil {
				t.Fatal(err)
			}
			out := exportVSCodeDoc(t, th)
			for _, k := range slices.Sorted(maps.Keys(src.Colors)) {
				if !sameColour(out.Colors[k], src.Colors[k]) {
					t.Errorf("colors.%s = %q, source %q", k, out.Colors[k], src.Colors[k])
				}
			}
			if !sameJSON(out.TokenColors, src.TokenColors) {
				t.Errorf("tokenColors differ from the source's")
			}
			for k, v := range src.SemanticTokenColors {
				if !sameJSON(out.SemanticTokenColors[k], v) {
					t.Errorf("semanticTokenColors.%s = %s, source %s", k, out.SemanticTokenColors[k], v)
				}
			}

			// Without the overrides: whatever does not come back is named.
			imp, _ = Import(filepath.Base(p), data)
			imp.DropTargets()
			warned := strings.Join(imp.Warnings, "\n")
			out = exportVSCodeDoc(t, imp.Theme)
			dropped := 0
			for _, k := range slices.Sorted(maps.Keys(src.Colors)) {
				if sameColour(out.Colors[k], src.Colors[k]) {
					continue
				}
				dropped++
				if !strings.Contains(warned, theme.JoinKey("colors", k)+" is not carried") {
					t.Errorf("colors.%s changed (%q → %q) without a warning", k, src.Colors[k], out.Colors[k])
				}
			}
			for i := range rules {
				if !strings.Contains(warned, fmt.Sprintf("tokenColors[%d] ", i)) {
					t.Errorf("tokenColors[%d] dropped without a warning", i)
				}
			}
			for k := range src.SemanticTokenColors {
				if !strings.Contains(warned, theme.JoinKey("semanticTokenColors", k)+" is not carried") {
					t.Errorf("semanticTokenColors.%s dropped without a warning", k)
				}
			}
			t.Logf("%s: %d colors, %d rules, %d semantic; without overrides %d colors change, all named", filepath.Base(p), len(src.Colors), len(rules), len(src.SemanticTokenColors), dropped)
		})
	}
}
