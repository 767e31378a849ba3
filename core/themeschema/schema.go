// Package themeschema builds the JSON Schema (draft 2020-12) of a version
// 3 theme.json from the model's catalogue; schema/theme.schema.json is its
// output committed (a test keeps the two equal), for editors and the
// agent. The validator itself is the model's (theme.Parse); a test here
// holds the two to the same rules.
package themeschema

import (
	"bytes"
	"encoding/json"
	"strings"

	"cdxtheme/core/theme"
)

// JSONSchema is the JSON Schema (draft 2020-12) of a version 3 theme
// document, built from the catalogue; schema/theme.schema.json is this
// output committed (a test keeps the two equal), for editors and the agent.
// exports names the formats its description says a theme is exported to:
// the export menu's (core/targets, which this package does not import).
func JSONSchema(exports []string) ([]byte, error) {
	colorRef := func(desc string) ordered {
		o := ordered{{"$ref", "#/$defs/value"}}
		if desc != "" {
			o = append(o, orderedKV{"description", desc})
		}
		return o
	}
	roleDesc := func(info theme.RoleInfo) string {
		d := info.Help
		if info.Rule != nil {
			d += " Unset: " + info.RuleText + "."
		}
		if info.FontStyle != "" {
			d += " Default font style: " + string(info.FontStyle) + "."
		}
		return d
	}
	group := func(name string) ordered {
		var props ordered
		var required []string
		for _, r := range theme.GroupRoles(name) {
			info, _ := theme.RoleByPath(name + "." + r)
			if info.Required {
				required = append(required, r)
			}
			if name == "syntax" {
				ref := "#/$defs/syntaxOptional"
				if info.Required {
					ref = "#/$defs/syntaxRequired"
				}
				props = append(props, orderedKV{r, ordered{{"$ref", ref}, {"description", roleDesc(info)}}})
				continue
			}
			props = append(props, orderedKV{r, colorRef(roleDesc(info))})
		}
		o := ordered{{"type", "object"}}
		if len(required) > 0 {
			o = append(o, orderedKV{"required", required})
		}
		return append(o, orderedKV{"additionalProperties", false}, orderedKV{"properties", props})
	}
	var optionalPaths []string
	for _, info := range theme.Catalogue() {
		if !info.Required {
			optionalPaths = append(optionalPaths, info.Path)
		}
	}
	rolePath := ordered{{"enum", theme.RolePaths()}}
	props := ordered{
		{"$schema", ordered{{"type", "string"}}},
		{"version", ordered{{"enum", []int{1, 2, theme.Version}}, {"description", "Document version: 3 (roles may name palette entries). A file without it is version 1; versions 1 and 2 are written back as 3."}}},
		{"name", ordered{{"type", "string"}, {"minLength", 1}, {"pattern", "\\S"}, {"description", "Display name of the theme."}}},
		{"appearance", ordered{{"enum", theme.Appearances}}},
		{"author", ordered{{"type", "string"}}},
		{"description", ordered{{"type", "string"}}},
		{"palette", ordered{{"type", "object"}, {"description", "The theme's named colours, the source the roles follow: each entry a colour or a ramp. A role whose value does not start with # names an entry (\"blue\") or a ramp's step (\"blue.600\") and moves with it."},
			{"maxProperties", theme.MaxPaletteEntries},
			{"propertyNames", ordered{{"pattern", "^[^#.][^.]*$"}, {"maxLength", 64}}},
			{"additionalProperties", ordered{{"oneOf", []ordered{{{"$ref", "#/$defs/color"}}, {{"$ref", "#/$defs/ramp"}}}}}}}},
	}
	for _, g := range theme.Groups {
		if g == "ansi" {
			props = append(props, orderedKV{"ansi", ordered{{"type", "array"},
				{"description", "Terminal colours in order: " + strings.Join(theme.ANSINames, ", ") + "."},
				{"minItems", 16}, {"maxItems", 16}, {"items", ordered{{"$ref", "#/$defs/value"}}}}})
			continue
		}
		props = append(props, orderedKV{g, group(g)})
	}
	props = append(props, orderedKV{"derive", ordered{{"type", "object"},
		{"description", "Derivation rules replacing the defaults, by optional role path: how a role the theme does not set is computed from others."},
		{"propertyNames", ordered{{"enum", optionalPaths}}},
		{"additionalProperties", ordered{{"$ref", "#/$defs/rule"}}}}})
	props = append(props, keptSchemaProps()...)
	props = append(props, orderedKV{"companion", ordered{{"$ref", "#"},
		{"description", "The theme's other appearance, a whole theme document of its own (its own name, the opposite appearance, no companion): exports carry both as one family where the format holds several themes, and write its files beside the theme's elsewhere."}}})
	doc := ordered{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"$id", "theme.schema.json"},
		{"title", "CDXTheme theme"},
		{"description", "A colour theme written into theme.json at the workspace root (version 3). CDXTheme exports it to " + strings.Join(exports, ", ") + "."},
		{"type", "object"},
		{"required", theme.Required},
		{"additionalProperties", false},
		{"properties", props},
		{"$defs", append(ordered{
			{"color", ordered{{"type", "string"}, {"pattern", "^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"}, {"description", "#rrggbb or #rrggbbaa, any letter case."}}},
			{"reference", ordered{{"type", "string"}, {"pattern", "^[^#]"}, {"minLength", 1},
				{"description", "The name of a palette entry (\"blue\") or a step of a ramp entry (\"blue.600\"): the role follows it."}}},
			{"value", ordered{{"oneOf", []ordered{{{"$ref", "#/$defs/color"}}, {{"$ref", "#/$defs/reference"}}}}}},
			{"ramp", ordered{{"type", "object"}, {"required", []string{"base"}}, {"additionalProperties", false},
				{"description", "A scale generated in OKLCH from base: steps on Tailwind's 0–1000 scale (50 lightest, 950 darkest), the base being step `at` (else the step nearest its lightness)."},
				{"properties", ordered{
					{"base", ordered{{"$ref", "#/$defs/color"}}},
					{"steps", ordered{{"type", "array"}, {"maxItems", theme.MaxRampSteps}, {"uniqueItems", true}, {"items", ordered{{"type", "integer"}, {"minimum", 1}, {"maximum", 999}}},
						{"description", "Default: 50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950."}}},
					{"at", ordered{{"type", "integer"}, {"minimum", 1}, {"maximum", 999}}},
				}}}},
			{"fontStyle", ordered{{"type", "string"}, {"pattern", "^\\s*((bold|italic|underline|strikethrough)(\\s+|$))*\\s*$"},
				{"description", "Any of bold, italic, underline, strikethrough, space-separated; \"\" for plain."}}},
			{"syntaxRequired", ordered{{"oneOf", []ordered{
				{{"$ref", "#/$defs/value"}},
				{{"type", "object"}, {"required", []string{"color"}}, {"additionalProperties", false},
					{"properties", ordered{{"color", ordered{{"$ref", "#/$defs/value"}}}, {"fontStyle", ordered{{"$ref", "#/$defs/fontStyle"}}}}}},
			}}}},
			{"syntaxOptional", ordered{{"oneOf", []ordered{
				{{"$ref", "#/$defs/value"}},
				{{"type", "object"}, {"additionalProperties", false},
					{"properties", ordered{{"color", ordered{{"$ref", "#/$defs/value"}}}, {"fontStyle", ordered{{"$ref", "#/$defs/fontStyle"}}}}}},
			}}}},
			{"rolePath", rolePath},
			{"rule", ordered{{"type", "object"}, {"required", []string{"from"}}, {"additionalProperties", false},
				{"description", "Start from `from`; with best+on take whichever of from and best reads better on on; with mix move `amount` toward mix; with alpha scale the opacity."},
				{"properties", ordered{
					{"from", ordered{{"$ref", "#/$defs/rolePath"}}},
					{"best", ordered{{"$ref", "#/$defs/rolePath"}}},
					{"on", ordered{{"$ref", "#/$defs/rolePath"}}},
					{"mix", ordered{{"$ref", "#/$defs/rolePath"}}},
					{"amount", ordered{{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 1}}},
					{"alpha", ordered{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}},
				}}}},
		}, keptSchemaDefs()...)},
	}
	return theme.EncodeJSON(doc)
}

// The JSON Schema of what an import keeps verbatim ("scheme", "spaces",
// "targets"); schema.go adds it to the document's schema.

func keptSchemaProps() ordered {
	slots := ordered{}
	for _, n := range theme.SchemeSlotNames("base24") {
		slots = append(slots, orderedKV{n, ordered{{"$ref", "#/$defs/opaqueColor"}}})
	}
	object := func(desc string, props ordered) ordered {
		return ordered{{"type", "object"}, {"description", desc}, {"additionalProperties", false}, {"properties", props}}
	}
	free := func(desc string) ordered { return ordered{{"type", "object"}, {"description", desc}} }
	return ordered{
		{"scheme", ordered{{"type", "object"},
			{"description", "A tinted-theming base16/base24 palette kept verbatim as imported; the base16/base24 export writes these slots back (a slot whose role was changed since follows the role). base16 styling.md (tinted-theming/home 0c49e86), base24 styling.md 0.1.3."},
			{"required", []string{"system", "slots"}}, {"additionalProperties", false},
			{"properties", ordered{
				{"system", ordered{{"enum", theme.SchemeSystems}}},
				{"name", ordered{{"type", "string"}}},
				{"author", ordered{{"type", "string"}}},
				{"slots", ordered{{"type", "object"}, {"description", "base00 … base0F (base16) or base00 … base17 (base24), opaque."},
					{"required", theme.SchemeSlotNames("base16")}, {"additionalProperties", false}, {"properties", slots}}},
			}}}},
		{"spaces", ordered{{"type", "object"},
			{"description", "By role path: the colour as its source gave it in another colour space (an iTerm2 Display P3 or Calibrated colour). The role holds the sRGB conversion; the iTerm2 export writes the original back while the role still equals srgb."},
			{"propertyNames", ordered{{"$ref", "#/$defs/rolePath"}}},
			{"additionalProperties", ordered{{"$ref", "#/$defs/sourceColor"}}}}},
		{"targets", object("Per-target overrides: keys of a program's own theme format, passed through verbatim and applied on export over the values generated from the roles.", ordered{
			{"vscode", object("VS Code colour theme keys.", ordered{
				{"colors", ordered{{"type", "object"}, {"description", "Workbench colour keys; each replaces the generated value."}, {"additionalProperties", ordered{{"type", "string"}}}}},
				{"tokenColors", ordered{{"type", "array"}, {"description", "The tokenColors array, written in place of the generated rules."}}},
				{"semanticTokenColors", free("Semantic token selectors; each replaces the generated one.")},
				{"semanticHighlighting", ordered{{"type", "boolean"}}},
			})},
			{"zed", object("Zed theme keys.", ordered{
				{"style", free("Keys of the Zed theme's style object; each replaces the generated value (syntax and players whole).")},
			})},
			{"iterm2", ordered{{"type", "object"}, {"description", ".itermcolors colour entries by key (\"Bold Color\", \"Ansi 0 Color (Dark)\", …), written as given."},
				{"additionalProperties", ordered{{"$ref", "#/$defs/sourceColor"}}}}},
		})},
	}
}

func keptSchemaDefs() ordered {
	return ordered{
		{"opaqueColor", ordered{{"type", "string"}, {"pattern", "^#[0-9a-fA-F]{6}$"}, {"description", "#rrggbb."}}},
		{"sourceColor", ordered{{"type", "object"}, {"required", []string{"space", "components", "srgb"}}, {"additionalProperties", false},
			{"properties", ordered{
				{"space", ordered{{"enum", theme.ColorSpaces}, {"description", "iTerm2's colour space names."}}},
				{"components", ordered{{"type", "array"}, {"minItems", 4}, {"maxItems", 4},
					{"items", ordered{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}}, {"description", "red, green, blue, alpha as written."}}},
				{"srgb", ordered{{"$ref", "#/$defs/color"}, {"description", "What the components convert to in sRGB (Display P3 through linear light, clamped)."}}},
			}}}},
	}
}

// ordered is a JSON object whose keys keep their order.
type ordered []orderedKV

type orderedKV struct {
	k string
	v any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshalCompact(e.k)
		v, err := marshalCompact(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalCompact is JSON without HTML escaping or the trailing newline.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
