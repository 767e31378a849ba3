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

// A step Apply could not carry out as written is refused when the
// manifest loads, naming the target and the step: a setting value with a
// line break (it would become two lines of the user's file), a setting on
// a file whose name the user picks ("<your profile>.profile"), which
// Apply cannot find. Such a file without a setting loads: the step is
// shown for the user to do.
func TestManifestStepRefusedAtLoad(t *testing.T) {
	head := "id = \"x\"\nname = \"X\"\nfile = \"{slug}.conf\"\n[install]\n[install.path]\ndefault = \"{{.Config}}/x/{{.Slug}}.conf\"\n" +
		"[[install.steps]]\nkind = \"command\"\ntext = \"x --reload\"\n"
	for _, tt := range []struct{ step, want string }{
		{"[[install.steps]]\nkind = \"line\"\nfile = \"{{.Config}}/x/x.conf\"\ntext = \"theme {{.Slug}}\"\n[install.steps.setting]\nmatch = '^theme (?P<v>.*)$'\nvalue = \"{{.Slug}}\\nbell = on\"\n",
			"target x, step 2: setting value has a line break"},
		{"[[install.steps]]\nkind = \"line\"\nfile = \"{{.Config}}/x/x.conf\"\ntext = \"theme {{.Slug}}\"\n[install.steps.setting]\nmatch = '^theme (?P<v>.*)$'\nvalue = \"{{.Slug}}\\r\"\n",
			"target x, step 2: setting value has a line break"},
		{"[[install.steps]]\nkind = \"line\"\nfile = \"{{.Config}}/x/<your profile>.conf\"\ntext = \"theme {{.Slug}}\"\n[install.steps.setting]\nmatch = '^theme (?P<v>.*)$'\nvalue = \"{{.Slug}}\"\n",
			"target x, step 2: the file names a part the user picks"},
		{"[[install.steps]]\nkind = \"line\"\nfile = \"{{.Config}}/x/<your profile>.conf\"\ntext = \"theme {{.Slug}}\"\n", ""},
	} {
		fsys := fstest.MapFS{
			"templates/x/manifest.toml": {Data: []byte(head + tt.step)},
			"templates/x/template.tmpl": {Data: []byte("x")},
		}
		_, err := load(fsys)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("step %q: load says %v, want %q", tt.step, err, tt.want)
		}
	}
}
