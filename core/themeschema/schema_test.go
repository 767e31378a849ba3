package themeschema

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// schemaDoc is the part of schema/theme.schema.json the Go validator must
// agree with.
type schemaDoc struct {
	Schema               string                     `json:"$schema"`
	Required             []string                   `json:"required"`
	AdditionalProperties *bool                      `json:"additionalProperties"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Defs                 struct {
		Color struct {
			Pattern string `json:"pattern"`
		} `json:"color"`
	} `json:"$defs"`
}

type schemaObject struct {
	Type                 string                     `json:"type"`
	Required             []string                   `json:"required"`
	AdditionalProperties *bool                      `json:"additionalProperties"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Enum                 []string                   `json:"enum"`
	MinItems             *int                       `json:"minItems"`
	MaxItems             *int                       `json:"maxItems"`
	Items                *struct {
		Ref string `json:"$ref"`
	} `json:"items"`
}

func loadSchema(t *testing.T) schemaDoc {
	t.Helper()
	b, err := os.ReadFile("../../schema/theme.schema.json")
	if err != nil {
		t.Fatalf("read committed schema: %v", err)
	}
	var s schemaDoc
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("parse committed schema: %v", err)
	}
	return s
}

func prop(t *testing.T, s schemaDoc, name string) schemaObject {
	t.Helper()
	raw, ok := s.Properties[name]
	if !ok {
		t.Fatalf("schema has no property %q", name)
	}
	var o schemaObject
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatalf("schema property %s: %v", name, err)
	}
	return o
}

func sorted(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}

func TestSchemaAgreesWithValidator(t *testing.T) {
	s := loadSchema(t)
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("schema dialect = %q, want draft 2020-12", s.Schema)
	}
	if !reflect.DeepEqual(sorted(s.Required), sorted(theme.Required)) {
		t.Errorf("top-level required: schema %v, Go %v", s.Required, theme.Required)
	}
	var top []string
	for k := range s.Properties {
		top = append(top, k)
	}
	if !reflect.DeepEqual(sorted(top), sorted(append(append([]string{}, theme.Required...), theme.Optional...))) {
		t.Errorf("top-level properties: schema %v, Go %v + %v", sorted(top), theme.Required, theme.Optional)
	}
	if s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Error("schema allows unknown top-level fields; the Go validator rejects them")
	}
	if got := prop(t, s, "appearance").Enum; !reflect.DeepEqual(sorted(got), sorted(theme.Appearances)) {
		t.Errorf("appearance enum: schema %v, Go %v", got, theme.Appearances)
	}
	for _, group := range theme.Groups {
		if group == "ansi" {
			continue
		}
		var required []string
		for _, info := range theme.Catalogue() {
			if info.Group == group && info.Required {
				required = append(required, strings.TrimPrefix(info.Path, group+"."))
			}
		}
		o := prop(t, s, group)
		if !reflect.DeepEqual(o.Required, required) {
			t.Errorf("%s required: schema %v, Go %v", group, o.Required, required)
		}
		var names []string
		for k := range o.Properties {
			names = append(names, k)
		}
		if !reflect.DeepEqual(sorted(names), sorted(theme.GroupRoles(group))) {
			t.Errorf("%s properties: schema %v, Go %v", group, sorted(names), theme.GroupRoles(group))
		}
		if o.AdditionalProperties == nil || *o.AdditionalProperties {
			t.Errorf("schema allows unknown %s roles; the Go validator rejects them", group)
		}
	}
	ansi := prop(t, s, "ansi")
	if ansi.MinItems == nil || *ansi.MinItems != 16 || ansi.MaxItems == nil || *ansi.MaxItems != 16 || len(theme.ANSINames) != 16 {
		t.Errorf("ansi length: schema min %v max %v, Go %d names", ansi.MinItems, ansi.MaxItems, len(theme.ANSINames))
	}
	if ansi.Items == nil || ansi.Items.Ref != "#/$defs/value" {
		t.Errorf("ansi items are not colours or palette names in the schema")
	}
}

func TestSchemaFontStylePatternAgreesWithParseFontStyle(t *testing.T) {
	var s struct {
		Defs struct {
			FontStyle struct {
				Pattern string `json:"pattern"`
			} `json:"fontStyle"`
		} `json:"$defs"`
	}
	b, _ := JSONSchema(menuNames())
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(s.Defs.FontStyle.Pattern)
	for _, in := range []string{"", "bold", "italic bold", " underline  strikethrough ", "bolder", "bold,italic", "Bold", "none"} {
		_, err := theme.ParseFontStyle(in)
		if goOK, schemaOK := err == nil, re.MatchString(in); goOK != schemaOK {
			t.Errorf("%q: Go accepts=%v, schema accepts=%v", in, goOK, schemaOK)
		}
	}
}

func TestSchemaColourPatternAgreesWithParseColor(t *testing.T) {
	s := loadSchema(t)
	re, err := regexp.Compile(s.Defs.Color.Pattern)
	if err != nil {
		t.Fatalf("schema colour pattern %q: %v", s.Defs.Color.Pattern, err)
	}
	for _, in := range []string{
		"#000000", "#FFFFFF", "#aBcDeF", "#12345678", "#1234567", "#12345", "#fff", "123456",
		"#12345g", "#+12345", "#-12345", " #123456", "#123456 ", "#0x1234", "", "#", "##123456",
	} {
		_, err := theme.ParseColor(in)
		if goOK, schemaOK := err == nil, re.MatchString(in); goOK != schemaOK {
			t.Errorf("%q: Go accepts=%v, schema accepts=%v", in, goOK, schemaOK)
		}
	}
}
