package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Query is a parsed search. The syntax is small and the same everywhere
// (Home's search box, `cdxtheme sessions --search`): words must all occur
// in the session (any case, accents ignored), `word*` matches every word starting so, and
// "a few words" in double quotes must occur together in that order.
type Query struct {
	terms []term
}

type term struct {
	text   string // a word or a phrase, as typed
	prefix bool
}

// ParseQuery reads s; text that cannot form a term (lone punctuation, an
// empty pair of quotes) is dropped.
func ParseQuery(s string) Query {
	var q Query
	add := func(text string, prefix bool) {
		text = strings.Join(strings.Fields(text), " ")
		if strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			return
		}
		q.terms = append(q.terms, term{text: text, prefix: prefix})
	}
	for s != "" {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			break
		}
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				add(s[1:], false) // an unclosed quote: the rest is the phrase
				break
			}
			phrase := s[1 : 1+end]
			s = s[end+2:]
			prefix := strings.HasPrefix(s, "*")
			if prefix {
				s = s[1:]
			}
			add(phrase, prefix)
			continue
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		word := s[:end]
		s = s[end:]
		prefix := strings.HasSuffix(word, "*")
		add(strings.Trim(word, `*"`), prefix)
	}
	return q
}

// Empty reports whether the query has no term.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// match is the FTS5 expression: every term quoted (so nothing the user
// typed is FTS5 syntax), joined by AND.
func (q Query) match() string {
	parts := make([]string, 0, len(q.terms))
	for _, t := range q.terms {
		p := `"` + strings.ReplaceAll(t.text, `"`, `""`) + `"`
		if t.prefix {
			p += "*"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// matchAny is the expression matching any one term: for the snippet of a
// session whose words are spread over several messages.
func (q Query) matchAny() string {
	return strings.ReplaceAll(Query{terms: q.terms}.match(), `" "`, `" OR "`)
}

// MatchesText reports whether every term occurs in one of texts (any
// case): how titles and folders match.
func (q Query) MatchesText(texts ...string) bool {
	if q.Empty() {
		return false
	}
	lower := make([]string, len(texts))
	for i, t := range texts {
		lower[i] = strings.ToLower(t)
	}
	for _, t := range q.terms {
		want := strings.ToLower(t.text)
		found := false
		for _, l := range lower {
			if strings.Contains(l, want) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Hit is one rollout that matches a query.
type Hit struct {
	Session string
	Path    string
	base    int64 // the file's rowids: base .. base+count-1
	count   int64
}

// Search returns every matching rollout, keyed by path.
func (ix *Index) Search(ctx context.Context, q Query) (map[string]Hit, error) {
	out := map[string]Hit{}
	if q.Empty() {
		return out, nil
	}
	ranges, err := ix.fileRanges(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT rowid FROM docs WHERE docs MATCH ?", q.match())
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", q.match(), err)
	}
	defer rows.Close()
	for rows.Next() {
		var file int64
		if err := rows.Scan(&file); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if r, ok := ranges[file<<fileBits]; ok { // else committed after ranges were read
			out[r.path] = Hit{Session: r.session, Path: r.path, base: r.base, count: r.count}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return out, nil
}

// fileRanges returns the files table by base, cached until a write bumps
// meta "gen".
func (ix *Index) fileRanges(ctx context.Context) (map[int64]fileRange, error) {
	var gen string
	if err := ix.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'gen'").Scan(&gen); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.ranges != nil && gen == ix.gen {
		return ix.ranges, nil
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT base, count, session, path FROM files WHERE count > 0")
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	ranges := map[int64]fileRange{}
	for rows.Next() {
		var r fileRange
		if err := rows.Scan(&r.base, &r.count, &r.session, &r.path); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		ranges[r.base] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	ix.ranges, ix.gen = ranges, gen
	return ranges, nil
}

// Snippet is the matched part of a message. Marks are the highlighted
// spans, as [start, end) offsets in Unicode code points of Text: the UI
// renders Text as text and the marks as elements around slices of it, so
// nothing in a rollout is ever taken for markup.
type Snippet struct {
	Text  string `json:"snippet"`
	Marks []Span `json:"marks,omitempty"`
	Role  string `json:"role,omitempty"` // who wrote the message: user or assistant
}

// Span is a highlighted part of a snippet: code points [Start, End).
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Snippet returns the first message of hit that matches the whole query
// (else, when its words are spread over several messages, the first that
// has one of them), marked, with its index in the transcript; -1 and an
// empty snippet when none does (the file changed since it was indexed).
func (ix *Index) Snippet(ctx context.Context, q Query, hit Hit) (Snippet, int, error) {
	for _, expr := range []string{q.match(), q.matchAny()} {
		var row int64
		var role, raw string
		err := ix.db.QueryRowContext(ctx,
			"SELECT rowid, role, snippet(fts, 0, char(2), char(3), '…', 24) FROM fts WHERE fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid LIMIT 1",
			expr, hit.base, hit.base+hit.count).Scan(&row, &role, &raw)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return Snippet{}, -1, fmt.Errorf("search snippet: %w", err)
		}
		s := parseSnippet(raw)
		s.Role = role
		return s, int(row - hit.base), nil
	}
	return Snippet{}, -1, nil
}

// parseSnippet turns FTS5's marked snippet into one line of text and the
// spans of its marks.
func parseSnippet(raw string) Snippet {
	var b strings.Builder
	var marks []Span
	n, open, space := 0, -1, false
	for _, r := range raw {
		switch {
		case string(r) == markOpen:
			if space && n > 0 {
				b.WriteByte(' ')
				n++
			}
			space = false
			open = n
		case string(r) == markClose:
			if open >= 0 && n > open {
				marks = append(marks, Span{open, n})
			}
			open = -1
		case unicode.IsSpace(r):
			space = true
		default:
			if space && n > 0 {
				b.WriteByte(' ')
				n++
			}
			space = false
			b.WriteRune(r)
			n++
		}
	}
	return Snippet{Text: b.String(), Marks: marks}
}
