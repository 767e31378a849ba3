package themeschema

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"cdxtheme/core/targets"
)

// menuNames are the export menu's formats, less the targets added as data
// after it: the schema must not change with the targets a program links.
func menuNames() []string {
	var names []string
	for _, f := range targets.Formats {
		if !f.External() {
			names = append(names, f.Name)
		}
	}
	return names
}

var updateSchema = flag.Bool("update-schema", false, "rewrite schema/theme.schema.json from the catalogue")

// TestSchemaIsGenerated: the committed schema is JSONSchema's output, so
// it lists every role of the catalogue with its rule; run
// go test ./core/themeschema -run TestSchemaIsGenerated -update-schema to refresh it.
func TestSchemaIsGenerated(t *testing.T) {
	want, err := JSONSchema(menuNames())
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../schema/theme.schema.json"
	if *updateSchema {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not JSONSchema()'s output; rerun with -update-schema", path)
	}
}
