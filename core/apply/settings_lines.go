package apply

// Files of one setting a line: Ghostty, kitty, bat, .gitconfig, tmux, …

import (
	"bytes"
	"cdxtheme/core/install"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

var sectionHeader = regexp.MustCompile(`^\s*\[\s*([^\]]*?)\s*\]\s*(?:[#;].*)?$`)

// editLines finds the setting's line by s.Match and replaces its "v"
// group with s.Value, or inserts s.Add where s.Insert says.
func editLines(b []byte, s *install.Setting, text string) (edited, error) {
	if !s.TOML {
		return editLineSyntax(b, s, text)
	}
	var before map[string]any
	if err := toml.Unmarshal(b, &before); err != nil {
		return edited{}, fmt.Errorf("is not valid TOML (%s)", firstLine(err.Error()))
	}
	r, err := editLineSyntax(b, s, text)
	if err == nil && r.data != nil {
		var after map[string]any
		if toml.Unmarshal(r.data, &after) != nil {
			return edited{}, errors.New("could not be changed safely")
		}
	}
	return r, err
}

func editLineSyntax(b []byte, s *install.Setting, text string) (edited, error) {
	if strings.ContainsAny(s.Value, "\r\n") {
		// A manifest's value is checked when it loads; this is what the
		// theme put in it (a name): one setting must stay one line.
		return edited{}, errors.New("would get a line break from the theme, so it was not changed")
	}
	re, err := regexp.Compile(s.Match)
	if err != nil {
		return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
	}
	vi := re.SubexpIndex("v")
	eol := eolOf(b)
	type hit struct{ start, vs, ve, end int }
	var hits []hit
	section, header, before := "", -1, -1
	var beforeRe, conflictRe *regexp.Regexp
	conflict := ""
	if s.Conflict != "" {
		if conflictRe, err = regexp.Compile(s.Conflict); err != nil {
			return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
		}
	}
	if s.Insert == "before" {
		if beforeRe, err = regexp.Compile(s.Before); err != nil {
			return edited{}, fmt.Errorf("has a setting Apply cannot look for (%v)", err)
		}
	}
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end, next = len(b)-start, len(b)
		}
		end += start
		line := strings.TrimSuffix(string(b[start:end]), "\r")
		if s.Sectioned {
			if m := sectionHeader.FindStringSubmatch(line); m != nil {
				section = m[1]
				if header < 0 && strings.EqualFold(section, s.Section) {
					header = next
				}
			}
		}
		if !s.Sectioned || strings.EqualFold(section, s.Section) {
			if loc := re.FindStringSubmatchIndex(line); loc != nil {
				vs, ve := loc[0], loc[1]
				if vi > 0 && loc[2*vi] >= 0 {
					vs, ve = loc[2*vi], loc[2*vi+1]
				}
				hits = append(hits, hit{start, start + vs, start + ve, start + len(line)})
			}
		}
		if conflictRe != nil && conflictRe.MatchString(line) && !re.MatchString(line) {
			conflict = line
		}
		if beforeRe != nil && beforeRe.MatchString(line) {
			before = start
		}
		start = next
	}
	if conflict != "" {
		return edited{}, errors.New(orDefault(s.ConflictWhy, "sets it in a way Apply does not change"))
	}
	if len(hits) > 1 && s.Multi == "one" {
		return edited{}, fmt.Errorf("sets it on %d lines", len(hits))
	}
	add := withEOL(addOf(s, text), eol)
	if len(hits) > 0 {
		h := hits[len(hits)-1]
		old := string(b[h.start:h.end])
		if unquote(string(b[h.vs:h.ve])) == unquote(s.Value) {
			return edited{state: "set", old: old, new: old}, nil
		}
		out := splice(b, h.vs, h.ve, s.Value)
		return edited{state: "change", old: old, new: string(out[h.start : h.end-(h.ve-h.vs)+len(s.Value)]), data: out}, nil
	}
	tail := func() []byte { // b, ending with a line end
		out := append([]byte(nil), b...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, eol...)
		}
		return out
	}
	var out []byte
	switch s.Insert {
	case "top":
		out = append([]byte(add+eol), b...)
	case "section":
		if header >= 0 {
			pre := b[:header]
			if len(pre) > 0 && pre[len(pre)-1] != '\n' {
				pre = append(append([]byte(nil), pre...), eol...)
			}
			out = append(append(append([]byte(nil), pre...), add+eol...), b[header:]...)
		} else {
			out = append(tail(), withEOL(s.Header, eol)+eol+add+eol...)
		}
	case "before":
		if before < 0 {
			return edited{}, errors.New(orDefault(s.BeforeWhy, "has no place Apply knows to put it"))
		}
		out = splice(b, before, before, add+eol)
	default:
		out = append(tail(), add+eol...)
	}
	return edited{state: "add", new: addOf(s, text), data: out}, nil
}

// unquote drops one pair of quotes around a value, so `--theme=x` and
// `--theme="x"` are the same setting.
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
