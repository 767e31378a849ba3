package theme

import (
	"bytes"
	"encoding/json"
)

// The VS Code colour theme and its package.json are templates
// (core/targets/templates/vscode); what stays here is what Apply, the
// packages and the importer share with them.

// VSCodePublisher and VSCodeVersion name the generated extension; the
// install folder is <publisher>.<slug>-<version>.
const (
	VSCodePublisher = "cdxtheme"
	VSCodeVersion   = "1.0.0"
)

// VSCodeANSI are the colour names of VS Code's terminal.ansi* ids, in ANSI order.
var VSCodeANSI = []string{"Black", "Red", "Green", "Yellow", "Blue", "Magenta", "Cyan", "White"}

// marshalJSON is indented JSON with a trailing newline and without HTML
// escaping, so theme names with "&" or "<" stay readable.
func EncodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
