package render

import (
	"sort"
	"strings"
	"unicode"
)

// A token is a run of source text and the syntax role that paints it.
type token struct {
	role string // a role path: "syntax.keyword", …; "" is plain text
	text string
}

// language is what the small lexer needs to colour one language's
// sample: enough to look like an editor, not a parser.
type language struct {
	comment   string // line comment prefix
	keywords  []string
	constants []string // built-in constants: true, nil, None
	types     []string // built-in types
	sample    string
}

// Languages are the code samples theme_render can show, by id.
var languages = map[string]language{
	"go": {
		comment:   "//",
		keywords:  []string{"package", "import", "func", "return", "if", "else", "for", "range", "type", "struct", "const", "var", "defer", "go"},
		constants: []string{"true", "false", "nil", "iota"},
		types:     []string{"string", "int", "float64", "uint32", "error", "bool", "byte"},
		sample: `// Package palette mixes colours for the theme.
package palette

import "fmt"

const maxSteps = 12

type Swatch struct {
	Name string
	Hex  uint32
}

func (s *Swatch) Describe(weight float64) string {
	if weight > 0.5 && s.Hex != 0 {
		return fmt.Sprintf("%s #%06x\n", s.Name, s.Hex)
	}
	return "unnamed" // TODO: name it
}`,
	},
	"python": {
		comment:   "#",
		keywords:  []string{"def", "class", "return", "if", "else", "elif", "for", "in", "import", "from", "as", "with", "and", "or", "not", "lambda", "yield"},
		constants: []string{"True", "False", "None", "self"},
		types:     []string{"str", "int", "float", "list", "dict"},
		sample: `# Mix colours for the theme.
from dataclasses import dataclass

MAX_STEPS = 12

@dataclass
class Swatch:
    name: str
    hex: int = 0

    def describe(self, weight: float) -> str:
        if weight > 0.5 and self.hex != 0:
            return f"{self.name} #{self.hex:06x}\n"
        return "unnamed"  # TODO: name it

def lighten(swatches, amount=0.25):
    return [s for s in swatches if s.hex > 0]`,
	},
	"rust": {
		comment:   "//",
		keywords:  []string{"fn", "let", "mut", "pub", "struct", "impl", "use", "return", "if", "else", "for", "in", "match", "const", "self", "Self"},
		constants: []string{"true", "false", "None", "Some"},
		types:     []string{"String", "u32", "f64", "usize", "str", "bool"},
		sample: `// Mix colours for the theme.
use std::fmt;

const MAX_STEPS: usize = 12;

pub struct Swatch {
    name: String,
    hex: u32,
}

impl Swatch {
    pub fn describe(&self, weight: f64) -> String {
        if weight > 0.5 && self.hex != 0 {
            return format!("{} #{:06x}\n", self.name, self.hex);
        }
        String::from("unnamed") // TODO: name it
    }
}`,
	},
	"typescript": {
		comment:   "//",
		keywords:  []string{"export", "import", "from", "function", "return", "if", "else", "const", "let", "interface", "type", "class", "new", "for", "of", "this"},
		constants: []string{"true", "false", "null", "undefined"},
		types:     []string{"string", "number", "boolean", "void"},
		sample: `// Mix colours for the theme.
import { format } from "./format";

const MAX_STEPS = 12;

export interface Swatch {
  name: string;
  hex: number;
}

export function describe(s: Swatch, weight: number): string {
  if (weight > 0.5 && s.hex !== 0) {
    return format("%s #%06x\n", s.name, s.hex);
  }
  return "unnamed"; // TODO: name it
}`,
	},
	"c": {
		comment:   "//",
		keywords:  []string{"struct", "typedef", "return", "if", "else", "for", "while", "static", "const", "#include", "#define", "sizeof"},
		constants: []string{"NULL", "true", "false"},
		types:     []string{"int", "char", "double", "unsigned", "void", "size_t"},
		sample: `// Mix colours for the theme.
#include <stdio.h>

#define MAX_STEPS 12

typedef struct {
    const char *name;
    unsigned hex;
} Swatch;

static int describe(const Swatch *s, double weight) {
    if (weight > 0.5 && s->hex != 0) {
        return printf("%s #%06x\n", s->name, s->hex);
    }
    return puts("unnamed"); // TODO: name it
}`,
	},
}

// Languages lists the sample languages theme_render offers.
func Languages() []string {
	out := make([]string, 0, len(languages))
	for k := range languages {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lex cuts one line into tokens.
func (l language) lex(line string) []token {
	var out []token
	add := func(role, s string) { out = append(out, token{role, s}) }
	in := func(list []string, w string) bool {
		for _, x := range list {
			if x == w {
				return true
			}
		}
		return false
	}
	rs := []rune(line)
	for i := 0; i < len(rs); {
		r := rs[i]
		rest := string(rs[i:])
		switch {
		case unicode.IsSpace(r):
			j := i
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				j++
			}
			add("", string(rs[i:j]))
			i = j
		case strings.HasPrefix(rest, l.comment):
			add("syntax.comment", rest)
			i = len(rs)
		case r == '"' || r == '\'' || r == '`':
			j := i + 1
			for j < len(rs) && rs[j] != r {
				if rs[j] == '\\' && j+1 < len(rs) {
					add("syntax.string", string(rs[i:j]))
					add("syntax.escape", string(rs[j:j+2]))
					i, j = j+2, j+2
					continue
				}
				j++
			}
			if j < len(rs) {
				j++
			}
			add("syntax.string", string(rs[i:j]))
			i = j
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || rs[j] == 'x') {
				j++
			}
			add("syntax.number", string(rs[i:j]))
			i = j
		case unicode.IsLetter(r) || r == '_' || r == '#' || r == '@':
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_') {
				j++
			}
			w := string(rs[i:j])
			next := ""
			if j < len(rs) {
				next = string(rs[j])
			}
			switch {
			case in(l.keywords, w):
				add("syntax.keyword", w)
			case in(l.constants, w):
				add("syntax.builtinConstant", w)
			case in(l.types, w):
				add("syntax.builtinType", w)
			case r == '@':
				add("syntax.attribute", w)
			case next == "(" || next == "!":
				add("syntax.function", w)
			case w == strings.ToUpper(w) && len(w) > 1:
				add("syntax.constant", w)
			case unicode.IsUpper(r):
				add("syntax.type", w)
			case i > 0 && rs[i-1] == '.':
				add("syntax.property", w)
			default:
				add("syntax.variable", w)
			}
			i = j
		case strings.ContainsRune("(){}[];,", r):
			add("syntax.punctuation", string(r))
			i++
		default:
			add("syntax.operator", string(r))
			i++
		}
	}
	// Drop empty string runs an escape at a string's start leaves.
	kept := out[:0]
	for _, t := range out {
		if t.text != "" {
			kept = append(kept, t)
		}
	}
	return kept
}
