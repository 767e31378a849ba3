package packaging

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"cdxtheme/core/fswrite"
	"cdxtheme/core/publish"
	"cdxtheme/core/quote"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// PackageLicense is the licence a package exported without the build's
// publish metadata declares (and ships the text of): MIT, the usual one
// for colour themes; Publish takes the build's own (core/publish).
const PackageLicense = "MIT"

// vsixAssets are the manifest's asset types, by path inside the package.
var vsixAssets = []struct{ typ, path string }{
	{"Microsoft.VisualStudio.Code.Manifest", "extension/package.json"},
	{"Microsoft.VisualStudio.Services.Content.Details", "extension/README.md"},
	{"Microsoft.VisualStudio.Services.Content.License", "extension/LICENSE.txt"},
	{"Microsoft.VisualStudio.Services.Icons.Default", "extension/icon.png"},
}

// VSIXManifest is extension.vsixmanifest (VSIX schema 2.0, as vsce writes
// it for VS Code); exported for the schema check of the tests.
type VSIXManifest struct {
	XMLName  xml.Name `xml:"http://schemas.microsoft.com/developer/vsx-schema/2011 PackageManifest"`
	Version  string   `xml:"Version,attr"`
	Metadata struct {
		Identity struct {
			Language  string `xml:"Language,attr"`
			ID        string `xml:"Id,attr"`
			Version   string `xml:"Version,attr"`
			Publisher string `xml:"Publisher,attr"`
		} `xml:"Identity"`
		DisplayName string `xml:"DisplayName"`
		Description struct {
			Space string `xml:"http://www.w3.org/XML/1998/namespace space,attr"`
			Text  string `xml:",chardata"`
		} `xml:"Description"`
		Tags         string `xml:"Tags"`
		Categories   string `xml:"Categories"`
		GalleryFlags string `xml:"GalleryFlags"`
		Properties   struct {
			Property []VSIXProperty `xml:"Property"`
		} `xml:"Properties"`
		License string `xml:"License"`
		Icon    string `xml:"Icon"`
	} `xml:"Metadata"`
	Installation struct {
		Target struct {
			ID string `xml:"Id,attr"`
		} `xml:"InstallationTarget"`
	} `xml:"Installation"`
	Dependencies struct{} `xml:"Dependencies"`
	Assets       struct {
		Asset []VSIXAsset `xml:"Asset"`
	} `xml:"Assets"`
}

// VSIXProperty is one Metadata property.
type VSIXProperty struct {
	ID    string `xml:"Id,attr"`
	Value string `xml:"Value,attr"`
}

// VSIXAsset is one file the manifest declares.
type VSIXAsset struct {
	Type        string `xml:"Type,attr"`
	Path        string `xml:"Path,attr"`
	Addressable bool   `xml:"Addressable,attr"`
}

const vsixContentTypes = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".vsixmanifest" ContentType="text/xml"/><Default Extension=".md" ContentType="text/markdown"/><Default Extension=".png" ContentType="image/png"/><Default Extension=".txt" ContentType="text/plain"/></Types>
`

// licenseText is the licence file: the MIT text in the author's name (no
// year: an export is the same file whenever it is made); for another
// licence, its SPDX id and where its text is, which the publisher
// replaces with the full text when the licence asks for it.
func licenseText(t *theme.Theme, license string) []byte {
	holder := theme.OneLine(orDefault(t.Author, "The "+t.Name+" authors"))
	if license != "MIT" {
		return []byte(fmt.Sprintf("SPDX-License-Identifier: %s\n\nCopyright (c) %s\n\nThis theme is licensed under %s: https://spdx.org/licenses/ has its text.\n", license, holder, license))
	}
	return []byte(fmt.Sprintf(`MIT License

Copyright (c) %s

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`, holder))
}

// packageReadme is the README shipped in the packages: what the theme is
// and where its licence and publisher are set.
func packageReadme(t *theme.Theme, m publish.Meta, install string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", markdownText(t.Name))
	if d := markdownText(orDefault(m.Description, t.Description)); d != "" {
		b.WriteString(d + "\n\n")
	}
	fmt.Fprintf(&b, "A %s colour theme made with CDXTheme.\n\n## Install\n\n%s\n\n", t.Appearance, install)
	fmt.Fprintf(&b, "## Licence\n\n%s (see the licence file).\n", markdownText(m.License))
	if m.Repository != "" {
		// The URL is checked (https, a host) and shown as code, never as a link the text could shape.
		fmt.Fprintf(&b, "\n## Source\n\n`%s`\n", strings.ReplaceAll(m.Repository, "`", "%60"))
	}
	return []byte(b.String())
}

// markdownText is s on one line as literal Markdown text: the name and
// description are the agent's, and the marketplace and GitHub render the
// README with inline HTML and autolinks on. Every ASCII punctuation mark
// gets a backslash (CommonMark's escape), so nothing becomes a link, an
// image, emphasis, a heading or a list, and a bare URL or domain is no
// longer one token for the autolinker; <, > and & become entities, which
// every renderer, CommonMark or not, shows as text.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range theme.OneLine(s) {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// themeIcon is a 128×128 PNG of the theme itself: its background, a band of
// the surface, and swatches of the accent and the syntax colours.
func themeIcon(t *theme.Theme) ([]byte, error) {
	const size = 128
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	fill := func(x0, y0, x1, y1 int, c theme.Color) {
		c = t.Seen(c)
		nc := color.NRGBA{R: c.R, G: c.G, B: c.B, A: 255}
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.SetNRGBA(x, y, nc)
			}
		}
	}
	fill(0, 0, size, size, t.UI.Background)
	fill(0, 0, size, 24, t.UI.Surface)
	fill(12, 8, 40, 16, t.UI.Accent)
	row := []theme.Color{t.Syntax.Keyword, t.Syntax.String, t.Syntax.Function, t.Syntax.Type, t.Syntax.Number, t.Syntax.Comment}
	for i, c := range row {
		y := 36 + i*14
		w := 40 + (i*23)%60
		fill(12, y, 12+w, y+8, c)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// renderVSIX is the VS Code extension of the vscode format packaged as a
// .vsix (what `vsce package` makes): the manifest, the content types, and
// under extension/ the package.json (with icon, licence and README), the
// colour theme, the icon, the README and the licence.
func renderVSIX(fam []*theme.Theme) (map[string][]byte, error) {
	return renderVSIXWith(fam, unpublished())
}

// unpublished is the metadata of a package exported without the build's
// own: the app's publisher and version, as before publishing existed.
func unpublished() publish.Meta {
	return publish.Meta{Publisher: theme.VSCodePublisher, Version: theme.VSCodeVersion, License: PackageLicense}
}

// PackageFormats are the formats that carry publish metadata.
var PackageFormats = []string{"vsix", "zed-extension"}

// RenderPackage renders a package format (PackageFormats) with the build's
// publish metadata m, which it checks first.
func RenderPackage(t *theme.Theme, format string, m publish.Meta) (map[string][]byte, error) {
	m, err := m.Clean()
	if err != nil {
		return nil, err
	}
	fam := t.Family()
	var files map[string][]byte
	switch format {
	case "vsix":
		files, err = renderVSIXWith(fam, m)
	case "zed-extension":
		files, err = renderZedExtensionWith(fam, m)
	default:
		return nil, fmt.Errorf("%q is not a package format (want one of %s)", format, strings.Join(PackageFormats, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("package %s: %w", format, err)
	}
	return files, nil
}

// ExportPackage is Export for a package format with the build's publish
// metadata: the files go into rel below base, nothing followed through a
// symlink (as Export).
func ExportPackage(t *theme.Theme, format string, m publish.Meta, base, rel string) ([]string, error) {
	files, err := RenderPackage(t, format, m)
	if err != nil {
		return nil, err
	}
	dir, err := fswrite.Open(base, rel)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", format, err)
	}
	defer dir.Close()
	var paths []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p, err := dir.WriteFile(name, files[name], 0o644)
		if err != nil {
			return paths, fmt.Errorf("export %s: %w", format, err)
		}
		paths = append(paths, filepath.FromSlash(p))
	}
	sort.Strings(paths)
	return paths, nil
}

func renderVSIXWith(fam []*theme.Theme, pub publish.Meta) (map[string][]byte, error) {
	t := fam[0]
	files, err := targets.RenderFormat("vscode", fam)
	if err != nil {
		return nil, err
	}
	var pkg map[string]any
	if err := json.Unmarshal(files["package.json"], &pkg); err != nil {
		return nil, err
	}
	pkg["icon"] = "icon.png"
	pkg["publisher"] = pub.Publisher
	pkg["version"] = pub.Version
	pkg["license"] = pub.License
	if pub.Description != "" {
		pkg["description"] = theme.OneLine(pub.Description)
	}
	if pub.Repository != "" {
		pkg["repository"] = map[string]string{"type": "git", "url": pub.Repository}
	}
	pkg["keywords"] = append([]string{"theme", "color-theme"}, appearances(fam)...)
	pkgJSON, err := theme.EncodeJSON(pkg)
	if err != nil {
		return nil, err
	}
	icon, err := themeIcon(t)
	if err != nil {
		return nil, err
	}
	slug := theme.Slug(t.Name)
	var m VSIXManifest
	m.Version = "2.0.0"
	m.Metadata.Identity.Language = "en-US"
	m.Metadata.Identity.ID = slug
	m.Metadata.Identity.Version = pub.Version
	m.Metadata.Identity.Publisher = pub.Publisher
	m.Metadata.DisplayName = theme.OneLine(t.Name)
	m.Metadata.Description.Space = "preserve"
	m.Metadata.Description.Text = theme.OneLine(fmt.Sprint(pkg["description"]))
	m.Metadata.Tags = "theme,color-theme," + strings.Join(appearances(fam), ",")
	m.Metadata.Categories = "Themes"
	m.Metadata.GalleryFlags = "Public"
	m.Metadata.Properties.Property = []VSIXProperty{
		{"Microsoft.VisualStudio.Code.Engine", "^1.70.0"},
		{"Microsoft.VisualStudio.Code.ExtensionDependencies", ""},
		{"Microsoft.VisualStudio.Code.ExtensionPack", ""},
		{"Microsoft.VisualStudio.Code.ExtensionKind", "ui,workspace"},
		{"Microsoft.VisualStudio.Code.LocalizedLanguages", ""},
		{"Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown", "true"},
		{"Microsoft.VisualStudio.Services.Content.Pricing", "Free"},
	}
	m.Metadata.License = "extension/LICENSE.txt"
	m.Metadata.Icon = "extension/icon.png"
	m.Installation.Target.ID = "Microsoft.VisualStudio.Code"
	for _, a := range vsixAssets {
		m.Assets.Asset = append(m.Assets.Asset, VSIXAsset{Type: a.typ, Path: a.path, Addressable: true})
	}
	manifest, err := xml.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	manifest = append([]byte(xml.Header), append(manifest, '\n')...)

	install := fmt.Sprintf("`code --install-extension %s-%s.vsix`, then pick **%s** in Preferences: Color Theme.", slug, pub.Version, markdownText(t.Name))
	entries := []struct {
		name string
		data []byte
	}{
		{"[Content_Types].xml", []byte(vsixContentTypes)},
		{"extension.vsixmanifest", manifest},
		{"extension/package.json", pkgJSON},
		{"extension/icon.png", icon},
		{"extension/README.md", packageReadme(t, pub, install)},
		{"extension/LICENSE.txt", licenseText(t, pub.License)},
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if data := files[name]; name != "package.json" {
			entries = append(entries, struct {
				name string
				data []byte
			}{"extension/" + name, data})
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return map[string][]byte{slug + "-" + pub.Version + ".vsix": buf.Bytes()}, nil
}

// renderZedExtension is a Zed extension folder for the theme: the
// extension.toml Zed's extension registry reads, the theme family under
// themes/, a licence file (the registry requires one) and a README.
func renderZedExtension(fam []*theme.Theme) (map[string][]byte, error) {
	return renderZedExtensionWith(fam, unpublished())
}

func renderZedExtensionWith(fam []*theme.Theme, pub publish.Meta) (map[string][]byte, error) {
	t := fam[0]
	zed, err := targets.RenderFormat("zed", fam)
	if err != nil {
		return nil, err
	}
	slug := theme.Slug(t.Name)
	var family []byte
	for _, v := range zed {
		family = v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "id = %s\n", quote.TOML(zedExtensionID(slug)))
	fmt.Fprintf(&b, "name = %s\n", quote.TOML(theme.OneLine(t.Name)))
	fmt.Fprintf(&b, "version = %s\n", quote.TOML(pub.Version))
	b.WriteString("schema_version = 1\n")
	fmt.Fprintf(&b, "authors = [%s]\n", quote.TOML(theme.OneLine(orDefault(t.Author, "The "+t.Name+" authors"))))
	fmt.Fprintf(&b, "description = %s\n", quote.TOML(theme.OneLine(orDefault(pub.Description, orDefault(t.Description, t.Name+" colour theme, made with CDXTheme")))))
	if pub.Repository != "" {
		fmt.Fprintf(&b, "repository = %s\n", quote.TOML(pub.Repository))
	} else {
		b.WriteString("# Zed's registry needs the repository this folder is published in:\n")
		b.WriteString("# repository = \"https://github.com/you/" + slug + "\"\n")
	}
	install := "In Zed run **zed: install dev extension** and pick this folder; to publish, push it to a repository, set `repository` in extension.toml and follow zed-industries/extensions."
	return map[string][]byte{
		"extension.toml":           []byte(b.String()),
		"themes/" + slug + ".json": family,
		"LICENSE":                  licenseText(t, pub.License),
		"README.md":                packageReadme(t, pub, install),
	}, nil
}

// zedExtensionID is the slug without "zed" (Zed's registry refuses ids
// that contain it).
func zedExtensionID(slug string) string {
	id := strings.Trim(strings.ReplaceAll(strings.ReplaceAll(slug, "zed", ""), "--", "-"), "-")
	if id == "" {
		id = "theme"
	}
	return id
}

// appearances are the family's appearances, in its order.
func appearances(fam []*theme.Theme) []string {
	var out []string
	for _, t := range fam {
		out = append(out, t.Appearance)
	}
	return out
}

// The packages fill their places in the model's format menu.
func init() {
	for id, render := range map[string]func([]*theme.Theme) (map[string][]byte, error){"vsix": renderVSIX, "zed-extension": renderZedExtension} {
		if _, err := targets.FillFormat(id, render); err != nil {
			panic("packaging: " + err.Error())
		}
	}
}

// orDefault is s, or def when s is blank.
func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
