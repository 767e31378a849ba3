package apply

// TOML: a top-level key, as Helix keeps its theme.

import (
	"cdxtheme/core/install"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// editTOML sets the top-level key s.Path[0] (before any [table], where a
// key of the same name is another setting) to the string s.Value.
func editTOML(b []byte, s *install.Setting) (edited, error) {
	var before map[string]any
	if err := toml.Unmarshal(b, &before); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	var want map[string]any
	if len(s.Path) != 1 || toml.Unmarshal([]byte("v = "+s.Value), &want) != nil {
		return edited{}, errors.New("names no setting")
	}
	key := s.Path[0]
	var p unstable.Parser
	p.Reset(b)
	found := false
	var kv, val unstable.Range
	var cur string
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable {
			break
		}
		if e.Kind != unstable.KeyValue {
			continue
		}
		it := e.Key()
		var parts []string
		for it.Next() {
			parts = append(parts, string(it.Node().Data))
		}
		if len(parts) != 1 || parts[0] != key {
			continue
		}
		v := e.Value()
		if v.Kind != unstable.String {
			return edited{}, fmt.Errorf("sets %s to a %s, not a name", key, strings.ToLower(v.Kind.String()))
		}
		found, kv, val, cur = true, e.Raw, v.Raw, string(v.Data)
	}
	if err := p.Error(); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	var out []byte
	r := edited{state: "add", new: addOf(s, key+" = "+s.Value)}
	if found {
		old := string(b[kv.Offset : kv.Offset+kv.Length])
		if cur == want["v"] {
			return edited{state: "set", old: old, new: old}, nil
		}
		out = splice(b, int(val.Offset), int(val.Offset+val.Length), s.Value)
		r = edited{state: "change", old: old, new: string(out[kv.Offset : int(val.Offset)+len(s.Value)])}
	} else {
		out = append([]byte(withEOL(r.new, eolOf(b))+eolOf(b)), b...)
	}
	// Exactly one setting changed, and the file still parses.
	var after map[string]any
	if err := toml.Unmarshal(out, &after); err != nil || after[key] != want["v"] {
		return edited{}, errors.New("could not be changed safely")
	}
	delete(after, key)
	delete(before, key)
	if !reflect.DeepEqual(before, after) {
		return edited{}, errors.New("could not be changed safely")
	}
	r.data = out
	return r, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
