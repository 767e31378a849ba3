package jsonc

import (
	"encoding/json"
	"testing"
)

func TestStripBlanksTrailingCommasOutsideStrings(t *testing.T) {
	in := `{"a": [1, 2,], "b": "x,}", "c": {"d": "\",]",},}`
	want := `{"a": [1, 2 ], "b": "x,}", "c": {"d": "\",]" } }`
	if got := string(Strip([]byte(in))); got != want {
		t.Errorf("got %s", got)
	}
}

func TestStripBlanksCommentsAndKeepsLines(t *testing.T) {
	in := "{\n  // a comment, with a comma,\n  \"a\": \"// not one\", /* two\n lines */ \"b\": [1,],\n}"
	got := Strip([]byte(in))
	if len(got) != len(in) {
		t.Fatalf("length %d, want %d", len(got), len(in))
	}
	for i := range in {
		if (in[i] == '\n') != (got[i] == '\n') {
			t.Fatalf("line break moved at offset %d: %q", i, got)
		}
	}
	var v struct {
		A string
		B []int
	}
	if err := json.Unmarshal(got, &v); err != nil || v.A != "// not one" || len(v.B) != 1 {
		t.Fatalf("%q → %+v, %v", got, v, err)
	}
}
