package targets

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A manifest's step setting that Apply could not use is refused when the
// manifest loads, naming what is wrong, never found out on a user's file.
func TestManifestSettingChecked(t *testing.T) {
	base := "id = \"x\"\nname = \"X\"\nfile = \"{slug}.conf\"\n[install]\n[install.path]\ndefault = \"{{.Config}}/x/{{.Slug}}.conf\"\n" +
		"[[install.steps]]\nkind = \"line\"\nfile = \"{{.Config}}/x/x.conf\"\ntext = \"theme {{.Slug}}\"\n[install.steps.setting]\n"
	for _, tt := range []struct{ setting, want string }{
		{"match = '^theme (?P<v>.*)$'\nvalue = \"{{.Slug}}\"\n", ""},
		{"match = '^theme (.*)$'\nvalue = \"{{.Slug}}\"\n", "no (?P<v>"},
		{"match = '^theme (?P<v>.*$'\nvalue = \"{{.Slug}}\"\n", "setting match"},
		{"match = '^theme (?P<v>.*)$'\n", "no value"},
		{"match = '^theme (?P<v>.*)$'\nvalue = \"x\"\nmulti = \"first\"\n", "multi \"first\""},
		{"match = '^theme (?P<v>.*)$'\nvalue = \"x\"\ninsert = \"middle\"\n", "insert \"middle\""},
	} {
		fsys := fstest.MapFS{
			"templates/x/manifest.toml": {Data: []byte(base + tt.setting)},
			"templates/x/template.tmpl": {Data: []byte("x")},
		}
		_, err := load(fsys)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("setting %q: load says %v, want %q", tt.setting, err, tt.want)
		}
	}
}
