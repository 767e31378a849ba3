package plist

import (
	"errors"
	"strings"
	"testing"
)

func nested(n int) []byte {
	return []byte("<plist>\n" + strings.Repeat("<array>", n) + "\n" + strings.Repeat("</array>", n) + "</plist>")
}

// TestXMLIsBounded: nesting stops at MaxDepth, and a fault of the file's
// shape names its line for the importer's message.
func TestXMLIsBounded(t *testing.T) {
	if _, err := ParseXML(nested(MaxDepth + 1)); err != nil {
		t.Errorf("%d arrays deep: %v", MaxDepth+1, err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"too deep", nested(MaxDepth + 2), 2, "nested too deeply"},
		{"no key", []byte("<plist>\n<dict>\n<key>a</key><true/>\n<string>b</string>\n</dict></plist>"), 4, "a <string> in a <dict> without a <key>"},
		{"not a plist", []byte("<?xml version=\"1.0\"?>\n\n<html></html>"), 3, "want <plist>, got <html>"},
	} {
		_, err := ParseXML(tc.data)
		var le *LineError
		if !errors.As(err, &le) || le.Line != tc.line || le.Msg != tc.want {
			t.Errorf("%s: got %v, want line %d: %s", tc.name, err, tc.line, tc.want)
		}
	}
}

// TestXMLDictKeepsKeyOrder: the importers walk a dict in the file's
// order; a repeated key keeps its first place and takes its last value.
func TestXMLDictKeepsKeyOrder(t *testing.T) {
	root, err := Parse([]byte(`<plist><dict><key>b</key><integer>1</integer><key>a</key><real> 0.5 </real><key>b</key><string>x</string></dict></plist>`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(root.Keys, ","); got != "b,a" {
		t.Errorf("keys %s, want b,a", got)
	}
	if b := root.Dict["b"]; b.Kind != "string" || b.Text != "x" {
		t.Errorf("b = %+v, want the last value", b)
	}
	if a := root.Dict["a"]; a.Kind != "real" || a.Text != "0.5" {
		t.Errorf("a = %+v, want real 0.5", a)
	}
}
