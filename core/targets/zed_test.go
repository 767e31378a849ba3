package targets

// zedFamily is the shape of a Zed theme family file, for the tests that
// read one back.
type zedFamily struct {
	Schema string     `json:"$schema"`
	Name   string     `json:"name"`
	Author string     `json:"author"`
	Themes []zedTheme `json:"themes"`
}

type zedTheme struct {
	Name       string         `json:"name"`
	Appearance string         `json:"appearance"`
	Style      map[string]any `json:"style"`
}
