package targets

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"

	"cdxtheme/core/quote"
	"cdxtheme/core/scopes"
	"cdxtheme/core/theme"
)

// The quote helpers a template calls on text that comes from the theme (a
// name, an author, a description): each returns a literal the target's own
// parser reads back as exactly that text, or, where a syntax has no way to
// carry some characters (a newline in an INI value), the text without them.
// Every template must quote what it did not write itself; the hostile-name
// test renders each target with a name made of every syntax's specials.

// oneLine is s with control characters as spaces and runs of space joined:
// a name is one line in every target.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == 0x85 {
			return ' '
		}
		return r
	}, s)), " ")
}

// The string literals shared with core/apply and core/packaging are
// core/quote's, of the name on one line.

func quoteJSON(s string) string { return quote.JSON(oneLine(s)) }

func quoteTOML(s string) string { return quote.TOML(oneLine(s)) }

// quoteYAML is a double-quoted YAML scalar: TOML's basic string is one
// (JSON's is not quite: YAML reads no surrogate pairs).
func quoteYAML(s string) string { return quote.TOML(oneLine(s)) }

func quoteLua(s string) string { return quote.Lua(oneLine(s)) }

// quoteVim is a Vim single-quoted string: only ' needs doubling.
func quoteVim(s string) string { return "'" + strings.ReplaceAll(oneLine(s), "'", "''") + "'" }

// quoteElisp is an Emacs Lisp string.
func quoteElisp(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(oneLine(s)) + `"`
}

// symbolElisp is s as an Emacs Lisp symbol: letters, digits and dashes (a
// slug already is one), with the first character escaped when the name
// would otherwise read as a number ("1984", "1e5", "-1").
func symbolElisp(s string) string {
	var b strings.Builder
	if s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '-') {
		b.WriteByte('\\')
	}
	for _, r := range s {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// escapeXML is text for an XML attribute value or element content.
func escapeXML(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	return r.Replace(oneLine(s))
}

// iniValue is a value for INI-like files (Konsole, Xfce, mintty, dconf
// keyfiles without quotes): one line, no leading or trailing space.
func iniValue(s string) string { return strings.TrimSpace(oneLine(s)) }

// quoteSh is a POSIX shell word of s as it is: the manifests quote paths
// with it, which a one-line form would change.
func quoteSh(s string) string { return quote.Sh(s) }

// quoteCSS is a CSS string.
func quoteCSS(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range oneLine(s) {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<', '>', '&':
			// Written as escapes so a <style> element holding the file
			// cannot be closed by a name.
			fmt.Fprintf(&b, "\\%x ", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteKDL is a KDL string (zellij). Not JSON's: KDL has no \uXXXX
// escape (its form is \u{…}), so Go's \u003c for < would not parse;
// oneLine leaves no control character to escape.
func quoteKDL(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(oneLine(s)) + `"`
}

// quoteGVariant is a GVariant text-format string (dconf).
func quoteGVariant(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(oneLine(s)) + "'"
}

// comment is text for inside a comment of any syntax: one line, and no
// sequence that ends a block comment (*/, -->) or a Lua long comment.
func comment(s string) string {
	s = oneLine(s)
	for _, end := range []string{"*/", "-->", "]]", "--"} {
		for strings.Contains(s, end) {
			s = strings.ReplaceAll(s, end, end[:1]+" "+end[1:])
		}
	}
	return s
}

// Object is a JSON object with ordered keys.
type Object struct {
	keys []string
	vals map[string]any
}

// Set sets k (in place when it is there) and returns "" for a template.
func (o *Object) Set(k string, v any) string {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
	return ""
}

// SortKeys orders the keys as Go's encoder orders a map's.
func (o *Object) SortKeys() string { sort.Strings(o.keys); return "" }

func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshalNoHTML(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalNoHTML(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonDoc is v as the app writes every JSON file: two-space indents, no
// HTML escaping, a trailing newline.
func jsonDoc(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return b.String(), err
}

func jsonText(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// truncate cuts s to at most n runes.
func truncate(n int, s string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

var funcs = template.FuncMap{
	"json":     quoteJSON,
	"toml":     quoteTOML,
	"yaml":     quoteYAML,
	"lua":      quoteLua,
	"vim":      quoteVim,
	"elisp":    quoteElisp,
	"elsym":    symbolElisp,
	"xml":      escapeXML,
	"ini":      iniValue,
	"sh":       quoteSh,
	"css":      quoteCSS,
	"kdl":      quoteKDL,
	"gvariant": quoteGVariant,
	"comment":  comment,
	"oneline":  oneLine,
	// plainline is core/theme's one-line form (control characters as
	// spaces, runs of space joined), for the formats moved from Go, whose
	// bytes must not change.
	"plainline": func(s string) string {
		return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, s)), " ")
	},
	"truncate": truncate,
	// jsonText is a JSON string of s as Go's encoder writes it without
	// HTML escaping (control characters and U+2028 escaped, invalid UTF-8
	// as U+FFFD), and jsonHTML with it (<, >, & as \u003c …): the
	// quoting of the formats moved from Go, whose bytes must not change.
	"jsonText": jsonText,
	"jsonHTML": func(s string) string { b, _ := json.Marshal(s); return string(b) },
	"list":     func(xs ...any) []any { return xs },
	// required are the role names every theme sets in a group ("ui",
	// "syntax", "ansi"), in document order.
	"required": func(group string) ([]string, error) {
		switch group {
		case "ui":
			return theme.UIRoles, nil
		case "syntax":
			return theme.SyntaxRoles, nil
		case "ansi":
			return theme.ANSINames, nil
		}
		return nil, fmt.Errorf("no required roles in %q", group)
	},
	// cssvar is a role's custom property name ("ui", "mutedText" →
	// "--cdx-ui-muted-text").
	"cssvar": CSSVar,
	// groupRoles are every role name of a group (theme.GroupRoles).
	"groupRoles": theme.GroupRoles,
	// syntaxScopes are the syntax roles' names in each target's token
	// vocabulary (TextMate, Helix, Zed, Vim, …), in core/theme's order.
	"syntaxScopes": scopes.SyntaxMap,
	// syntaxGroups are one of the syntax map's vocabularies ("Vim",
	// "Captures") as group table entries, for View.Highlights.
	"syntaxGroups": syntaxGroups,
	"hasPrefix":    strings.HasPrefix,
	// obj is an object whose keys keep the order they were first set in
	// (set; sortKeys sorts them): JSON targets build their document and
	// write it with jsonDoc.
	"obj":     func() *Object { return &Object{vals: map[string]any{}} },
	"jsonDoc": jsonDoc,
	// raw is a string's JSON as json.Marshal writes it, kept as it is.
	"raw": func(s string) json.RawMessage { b, _ := json.Marshal(s); return b },
	// vscodeColorKeys are core/theme's workbench colour table (which the
	// VS Code importer reads back with): key, role, alpha, clear.
	"vscodeColorKeys": scopes.VSCodeColorKeys,
	"vscodePublisher": func() string { return theme.VSCodePublisher },
	"vscodeVersion":   func() string { return theme.VSCodeVersion },
	// nameUUID is a UUID (version 5 layout) from a theme's name, which
	// Sublime Text remembers a .tmTheme by (View.UUID is from the slug).
	"nameUUID": func(name string) string {
		h := sha1.Sum([]byte("cdxtheme:" + name))
		h[6] = h[6]&0x0f | 0x50
		h[8] = h[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
	},
	// xmltext is XML character data as encoding/xml escapes it (the
	// formats moved from Go: quotes, tabs and newlines as references).
	"xmltext": func(s string) string {
		var b strings.Builder
		xml.EscapeText(&b, []byte(s))
		return b.String()
	},
	"trimPrefix": func(s, prefix string) string { return strings.TrimPrefix(s, prefix) },
	// before and after split s at the first sep ("ui.text" → "ui", "text").
	"before": func(s, sep string) string { b, _, _ := strings.Cut(s, sep); return b },
	"after":  func(s, sep string) string { _, a, _ := strings.Cut(s, sep); return a },
	"split":  strings.Split,
	// hasWord says whether a space-separated list holds w.
	"hasWord": func(s, w string) bool {
		for _, x := range strings.Fields(s) {
			if x == w {
				return true
			}
		}
		return false
	},
	// Lists: append, concat, uniq (first of each, "" dropped), minus (a
	// without b's), sortStrings, join and joinq (each quoted "x").
	"append": func(l []any, xs ...any) []any { return append(append([]any(nil), l...), xs...) },
	"concat": func(ls ...[]any) []any {
		var out []any
		for _, l := range ls {
			out = append(out, l...)
		}
		return out
	},
	"uniq": func(l []any) []any {
		var out []any
		seen := map[string]bool{}
		for _, x := range l {
			if s := fmt.Sprint(x); s != "" && !seen[s] {
				seen[s] = true
				out = append(out, x)
			}
		}
		return out
	},
	"minus": func(a, b []any) []any {
		drop := map[string]bool{}
		for _, x := range b {
			drop[fmt.Sprint(x)] = true
		}
		var out []any
		for _, x := range a {
			if !drop[fmt.Sprint(x)] {
				out = append(out, x)
			}
		}
		return out
	},
	"sortStrings": func(l []any) []any {
		out := append([]any(nil), l...)
		sort.SliceStable(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
		return out
	},
	"join": func(l any, sep string) (string, error) {
		switch l := l.(type) {
		case []string:
			return strings.Join(l, sep), nil
		case []any:
			s := make([]string, len(l))
			for i, x := range l {
				s[i] = fmt.Sprint(x)
			}
			return strings.Join(s, sep), nil
		}
		return "", fmt.Errorf("join: %T is not a list", l)
	},
	"joinq": func(l []string, sep string) string {
		q := make([]string, len(l))
		for i, x := range l {
			q[i] = strconv.Quote(x)
		}
		return strings.Join(q, sep)
	},
	// include is a named template's output as a string (each template
	// gets its own).
	"include": func(string, any) (string, error) { return "", fmt.Errorf("include outside a target template") },
	"replace": func(s, old, new string) string { return strings.ReplaceAll(s, old, new) },
	// goquote is a Go-syntax string (strconv.Quote: a YAML double-quoted
	// scalar reads it back), the base16/base24 exports' quoting.
	"goquote": strconv.Quote,
	// slots are the base16 (16) or base24 (24) slot names, in file order.
	"slots": func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("base%02X", i)
		}
		return out
	},
	// title is s with its first letter upper-case ("black" → "Black").
	"title": func(s string) string {
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
	"underscore": func(s string) string {
		return strings.ReplaceAll(s, "-", "_")
	},
	"add": func(a, b int) int { return a + b },
	"dict": func(kv ...any) (map[string]any, error) {
		if len(kv)%2 != 0 {
			return nil, fmt.Errorf("dict wants key, value pairs")
		}
		m := make(map[string]any, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			k, ok := kv[i].(string)
			if !ok {
				return nil, fmt.Errorf("dict key %v is not a string", kv[i])
			}
			m[k] = kv[i+1]
		}
		return m, nil
	},
	// jetConsole are JetBrains' console colour keys in ANSI order.
	"jetConsole": func() []string {
		return []string{"CONSOLE_BLACK_OUTPUT", "CONSOLE_RED_OUTPUT", "CONSOLE_GREEN_OUTPUT", "CONSOLE_YELLOW_OUTPUT",
			"CONSOLE_BLUE_OUTPUT", "CONSOLE_MAGENTA_OUTPUT", "CONSOLE_CYAN_OUTPUT", "CONSOLE_GRAY_OUTPUT",
			"CONSOLE_DARKGRAY_OUTPUT", "CONSOLE_RED_BRIGHT_OUTPUT", "CONSOLE_GREEN_BRIGHT_OUTPUT", "CONSOLE_YELLOW_BRIGHT_OUTPUT",
			"CONSOLE_BLUE_BRIGHT_OUTPUT", "CONSOLE_MAGENTA_BRIGHT_OUTPUT", "CONSOLE_CYAN_BRIGHT_OUTPUT", "CONSOLE_WHITE_OUTPUT"}
	},
	"splitExt": strings.Fields,
	// gradients are btop's three-colour gradients.
	"gradients": func() []string {
		return []string{"temp", "cpu", "free", "cached", "available", "used", "download", "upload", "process"}
	},
	// orDefault is s, or def when s is blank (core/theme's rule for an
	// author).
	"orDefault": func(def, s string) string {
		if strings.TrimSpace(s) == "" {
			return def
		}
		return s
	},
	"nscolor": nsColor,
	// terminalANSI are Terminal.app's colour keys in ANSI order.
	"terminalANSI": func() []string {
		var out []string
		for _, b := range []string{"", "Bright"} {
			for _, n := range []string{"Black", "Red", "Green", "Yellow", "Blue", "Magenta", "Cyan", "White"} {
				out = append(out, "ANSI"+b+n+"Color")
			}
		}
		return out
	},
	"has": func(m map[string]any, k string) bool { _, ok := m[k]; return ok },
	// data is the target's data file (Manifest.Data); each template gets
	// its own.
	"data": func() map[string]any { return nil },
}

// nsColor is a colour as Terminal.app stores it: an NSColor archived by
// NSKeyedArchiver (calibrated RGB, "r g b" as text), the archive in XML
// property-list form, base64 for a <data> element. NSKeyedUnarchiver reads
// XML archives as it reads binary ones, so no binary plist writer is
// needed.
func nsColor(c Colour) string {
	rgb := base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%.10g %.10g %.10g\x00",
		float64(c.c.R)/255, float64(c.c.G)/255, float64(c.c.B)/255)))
	archive := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>$archiver</key>
	<string>NSKeyedArchiver</string>
	<key>$objects</key>
	<array>
		<string>$null</string>
		<dict>
			<key>$class</key>
			<dict><key>CF$UID</key><integer>2</integer></dict>
			<key>NSColorSpace</key>
			<integer>1</integer>
			<key>NSRGB</key>
			<data>` + rgb + `</data>
		</dict>
		<dict>
			<key>$classes</key>
			<array><string>NSColor</string><string>NSObject</string></array>
			<key>$classname</key>
			<string>NSColor</string>
		</dict>
	</array>
	<key>$top</key>
	<dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
	<key>$version</key>
	<integer>100000</integer>
</dict>
</plist>
`
	return base64.StdEncoding.EncodeToString([]byte(archive))
}
