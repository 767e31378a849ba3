package theme

// The JSON Schema of what an import keeps verbatim ("scheme", "spaces",
// "targets"); schema.go adds it to the document's schema.

func keptSchemaProps() ordered {
	slots := ordered{}
	for _, n := range SchemeSlotNames("base24") {
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
				{"system", ordered{{"enum", SchemeSystems}}},
				{"name", ordered{{"type", "string"}}},
				{"author", ordered{{"type", "string"}}},
				{"slots", ordered{{"type", "object"}, {"description", "base00 … base0F (base16) or base00 … base17 (base24), opaque."},
					{"required", SchemeSlotNames("base16")}, {"additionalProperties", false}, {"properties", slots}}},
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
				{"space", ordered{{"enum", ColorSpaces}, {"description", "iTerm2's colour space names."}}},
				{"components", ordered{{"type", "array"}, {"minItems", 4}, {"maxItems", 4},
					{"items", ordered{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}}, {"description", "red, green, blue, alpha as written."}}},
				{"srgb", ordered{{"$ref", "#/$defs/color"}, {"description", "What the components convert to in sRGB (Display P3 through linear light, clamped)."}}},
			}}}},
	}
}
