package theme_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	_ "cdxtheme/core/packaging" // the packages are formats the schema names
	"cdxtheme/core/theme"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite schema/theme.schema.json from the catalogue")

// TestSchemaIsGenerated: the committed schema is JSONSchema's output, so
// it lists every role of the catalogue with its rule; run
// go test ./core/theme -run TestSchemaIsGenerated -update-schema to refresh it.
func TestSchemaIsGenerated(t *testing.T) {
	want, err := theme.JSONSchema()
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
