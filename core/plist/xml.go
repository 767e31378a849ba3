package plist

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// LineError is a fault of an XML property list at a line of it.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseXML reads an XML property list. Nesting is bounded, and
// encoding/xml expands no external entities. An error about a place in
// the file is a *LineError, or an *xml.SyntaxError from the decoder.
func ParseXML(data []byte) (*Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	line := func() int { l, _ := dec.InputPos(); return l }
	var value func(start xml.StartElement, depth int) (*Node, error)
	value = func(start xml.StartElement, depth int) (*Node, error) {
		if depth > MaxDepth {
			return nil, &LineError{Line: line(), Msg: "nested too deeply"}
		}
		v := &Node{Kind: start.Name.Local, Line: line()}
		switch v.Kind {
		case "dict", "array":
			if v.Kind == "dict" {
				v.Dict = map[string]*Node{}
			}
			pendingKey, haveKey := "", false
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				switch el := tok.(type) {
				case xml.StartElement:
					if v.Kind == "dict" && el.Name.Local == "key" {
						var k string
						if err := dec.DecodeElement(&k, &el); err != nil {
							return nil, err
						}
						pendingKey, haveKey = k, true
						continue
					}
					child, err := value(el, depth+1)
					if err != nil {
						return nil, err
					}
					if v.Kind == "array" {
						v.Array = append(v.Array, child)
					} else if haveKey {
						if _, dup := v.Dict[pendingKey]; !dup {
							v.Keys = append(v.Keys, pendingKey)
						}
						v.Dict[pendingKey] = child
						haveKey = false
					} else {
						return nil, &LineError{Line: child.Line, Msg: fmt.Sprintf("a <%s> in a <dict> without a <key>", child.Kind)}
					}
				case xml.EndElement:
					return v, nil
				}
			}
		case "true", "false":
			return v, dec.Skip()
		default:
			var s string
			if err := dec.DecodeElement(&s, &start); err != nil {
				return nil, err
			}
			v.Text = strings.TrimSpace(s)
			return v, nil
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no <plist> element")
		}
		if err != nil {
			return nil, err
		}
		if el, ok := tok.(xml.StartElement); ok {
			if el.Name.Local != "plist" {
				return nil, &LineError{Line: line(), Msg: fmt.Sprintf("want <plist>, got <%s>", el.Name.Local)}
			}
			for {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				if inner, ok := tok.(xml.StartElement); ok {
					return value(inner, 0)
				}
				if _, ok := tok.(xml.EndElement); ok {
					return nil, errors.New("an empty <plist>")
				}
			}
		}
	}
}
