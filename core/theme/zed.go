package theme

// The Zed theme file is a template (core/targets/templates/zed); what stays
// here is what the importers and packaging share with it.

// ZedSchema is the theme-family schema Zed validates user themes against.
const ZedSchema = "https://zed.dev/schema/themes/v0.2.0.json"

// ZedANSI are Zed's terminal colour key suffixes in ANSI order.
var ZedANSI = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}
