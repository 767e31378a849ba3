package theme

import "strings"

// JSONSchema is the JSON Schema (draft 2020-12) of a version 3 theme
// document, built from the catalogue; schema/theme.schema.json is this
// output committed (a test keeps the two equal), for editors and the agent.
func JSONSchema() ([]byte, error) {
	colorRef := func(desc string) ordered {
		o := ordered{{"$ref", "#/$defs/value"}}
		if desc != "" {
			o = append(o, orderedKV{"description", desc})
		}
		return o
	}
	roleDesc := func(info RoleInfo) string {
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
		for _, r := range groupRoles[name] {
			info, _ := RoleByPath(name + "." + r)
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
	for _, info := range catalogueRoles {
		if !info.Required {
			optionalPaths = append(optionalPaths, info.Path)
		}
	}
	rolePath := ordered{{"enum", RolePaths()}}
	props := ordered{
		{"$schema", ordered{{"type", "string"}}},
		{"version", ordered{{"enum", []int{1, 2, Version}}, {"description", "Document version: 3 (roles may name palette entries). A file without it is version 1; versions 1 and 2 are written back as 3."}}},
		{"name", ordered{{"type", "string"}, {"minLength", 1}, {"pattern", "\\S"}, {"description", "Display name of the theme."}}},
		{"appearance", ordered{{"enum", Appearances}}},
		{"author", ordered{{"type", "string"}}},
		{"description", ordered{{"type", "string"}}},
		{"palette", ordered{{"type", "object"}, {"description", "The theme's named colours, the source the roles follow: each entry a colour or a ramp. A role whose value does not start with # names an entry (\"blue\") or a ramp's step (\"blue.600\") and moves with it."},
			{"maxProperties", MaxPaletteEntries},
			{"propertyNames", ordered{{"pattern", "^[^#.][^.]*$"}, {"maxLength", 64}}},
			{"additionalProperties", ordered{{"oneOf", []ordered{{{"$ref", "#/$defs/color"}}, {{"$ref", "#/$defs/ramp"}}}}}}}},
	}
	for _, g := range Groups {
		if g == "ansi" {
			props = append(props, orderedKV{"ansi", ordered{{"type", "array"},
				{"description", "Terminal colours in order: " + strings.Join(ANSINames, ", ") + "."},
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
		{"description", "A colour theme written into theme.json at the workspace root (version 3). CDXTheme exports it to " + exportNames() + "."},
		{"type", "object"},
		{"required", Required},
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
					{"steps", ordered{{"type", "array"}, {"maxItems", MaxRampSteps}, {"uniqueItems", true}, {"items", ordered{{"type", "integer"}, {"minimum", 1}, {"maximum", 999}}},
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
	return EncodeJSON(doc)
}

func exportNames() string {
	// This package's formats only: the schema must not depend on which
	// packages a program links.
	var names []string
	for _, f := range Formats {
		if !f.external {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ")
}
