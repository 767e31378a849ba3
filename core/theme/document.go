package theme

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON writes the theme as a version 3 document, fields and roles
// in catalogue order: a version 1 or 2 file read and written back is
// migrated (its colours unchanged, "version": 3, roles holding a palette
// entry's colour naming it). A role following a palette entry is written
// as the entry's name. Optional roles appear only when the document sets
// them; derived ones stay derived.
func (t Theme) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	n := 0
	field := func(k string, v any) error {
		raw, err := marshalCompact(v)
		if err != nil {
			return err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		kb, _ := marshalCompact(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	type kv struct {
		k string
		v any
	}
	fields := []kv{{"version", Version}, {"name", t.Name}, {"appearance", t.Appearance}}
	if t.Author != "" {
		fields = append(fields, kv{"author", t.Author})
	}
	if t.Description != "" {
		fields = append(fields, kv{"description", t.Description})
	}
	if len(t.Palette) > 0 {
		fields = append(fields, kv{"palette", t.paletteJSON()})
	}
	for _, g := range Groups {
		if g == "ansi" {
			ansi := make([]any, len(t.ANSI))
			for i := range t.ANSI {
				ansi[i] = t.roleJSON(ANSIPath(i))
			}
			fields = append(fields, kv{"ansi", ansi})
			continue
		}
		if obj := t.groupJSON(g); obj != nil {
			fields = append(fields, kv{g, obj})
		}
	}
	if len(t.Rules) > 0 {
		fields = append(fields, kv{"derive", orderedRules(t.Rules)})
	}
	// What an import kept verbatim (scheme.go, colorspace.go, targets.go).
	if t.Scheme != nil {
		fields = append(fields, kv{"scheme", t.Scheme})
	}
	if len(t.Spaces) > 0 {
		fields = append(fields, kv{"spaces", t.Spaces})
	}
	if t.Targets != nil {
		fields = append(fields, kv{"targets", t.Targets})
	}
	if t.Companion != nil {
		fields = append(fields, kv{"companion", t.Companion})
	}
	for _, f := range fields {
		if err := field(f.k, f.v); err != nil {
			return nil, err
		}
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// groupJSON is one role object in catalogue order, nil when an optional
// group has nothing set.
func (t Theme) groupJSON(group string) json.Marshaler {
	var o ordered
	for _, name := range groupRoles[group] {
		path := group + "." + name
		style, styled := t.Styles[path]
		switch {
		case group == "syntax" && styled:
			v := struct {
				Color     any       `json:"color,omitempty"`
				FontStyle FontStyle `json:"fontStyle"`
			}{FontStyle: style}
			if t.Has(path) {
				v.Color = t.roleJSON(path)
			}
			o = append(o, orderedKV{name, v})
		case t.Has(path):
			o = append(o, orderedKV{name, t.roleJSON(path)})
		}
	}
	if len(o) == 0 && group != "ui" && group != "syntax" {
		return nil
	}
	return o
}

// orderedRules lists rules by catalogue order.
func orderedRules(rules map[string]Rule) ordered {
	var o ordered
	for _, info := range catalogueRoles {
		if r, ok := rules[info.Path]; ok {
			o = append(o, orderedKV{info.Path, r})
		}
	}
	return o
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

func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
