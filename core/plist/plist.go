// Package plist reads Apple property lists, XML and binary ("bplist00"),
// into a tree of Nodes. Its input is untrusted (an imported .itermcolors
// or .tmTheme), so both readers are bounded (docs/SECURITY.md, "Importing
// a hostile file"); what the keys mean is the importer's business.
package plist

// The readers' bounds. The XML tree is linear in its input, so the
// caller caps the input's size; a binary list shares objects by
// reference, so its tree is bounded here, whatever its size.
const (
	// MaxDepth: how deep containers nest in either form (a real
	// .itermcolors nests 2 deep).
	MaxDepth = 32
	// MaxNodes: the values a binary list may build.
	MaxNodes = 100000
	// MaxTree: the bytes a binary list may build, charged at 128 a value
	// plus its text before anything is allocated. Far above a real
	// .itermcolors (~30 KB built), and in the range of what a 1 MB XML
	// list can build.
	MaxTree = 4 << 20
)

// Node is one value of a property list.
type Node struct {
	// Kind is "dict", "array", "string", "real", "integer", "true",
	// "false", "data" or "date" ("uid" too in a binary list). In a
	// binary list data, dates and uids carry no text: no importer reads
	// them.
	Kind  string
	Text  string
	Keys  []string // a dict's keys in order (a repeated key keeps its first place, its last value)
	Dict  map[string]*Node
	Array []*Node
	Line  int // where it starts in an XML list; 0 in a binary one
}

// Parse reads a property list in either form.
func Parse(data []byte) (*Node, error) {
	if IsBinary(data) {
		return ParseBinary(data)
	}
	return ParseXML(data)
}
