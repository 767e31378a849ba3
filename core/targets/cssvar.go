package targets

import (
	"strings"
	"unicode"
)

// CSSVar is the custom property name for a group and a camelCase role,
// e.g. ("ui", "mutedText") → "--cdx-ui-muted-text".
func CSSVar(group, role string) string {
	var b strings.Builder
	b.WriteString("--cdx-" + group + "-")
	dash := false
	for _, r := range role {
		switch {
		case r < 128 && (unicode.IsLower(r) || unicode.IsDigit(r)):
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(r)
		case r < 128 && unicode.IsUpper(r):
			if b.Len() > len("--cdx-"+group+"-") {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
			dash = false
		default:
			dash = b.Len() > len("--cdx-"+group+"-")
		}
	}
	return b.String()
}
