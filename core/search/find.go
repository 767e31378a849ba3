package search

import (
	"context"

	"cdxtheme/core/codexhome"
)

// Result is one session of a search: the listing's entry, and where its
// text matched.
type Result struct {
	codexhome.Session
	Snippet
	// Message is the transcript index of the matched message; -1 when only
	// the title or the folder matched.
	Message int `json:"message"`
}

// Results is a newest-first page of sessions matching a query.
type Results struct {
	Sessions []Result `json:"sessions"`
	Hint     string   `json:"hint"`
	// HintCode and HintDir say Hint for a UI to word (codexhome's Hint* codes).
	HintCode string `json:"hintCode,omitempty"`
	HintDir  string `json:"hintDir,omitempty"`
	// Partial: the first index build is still running, so text matches
	// cover only the sessions indexed so far.
	Partial bool `json:"partial"`
	// TitlesOnly says why message text was not searched: the index could
	// not be opened (e.g. the disk under the cache dir is full), so only
	// titles and folders matched. The caller sets it; "" when text was
	// searched or no query was asked.
	TitlesOnly string `json:"titlesOnly,omitempty"`
	// Stale says why the index could not be brought up to date: text
	// matches are those of its last good update. The caller sets it.
	Stale    string   `json:"stale,omitempty"`
	Warnings []string `json:"-"`
}

// Degraded records, for a search (not a plain listing), why its text
// matches are missing (openErr: no index) or out of date (updateErr).
func (r *Results) Degraded(text string, openErr, updateErr error) {
	if ParseQuery(text).Empty() {
		return
	}
	if openErr != nil {
		r.TitlesOnly = openErr.Error()
	} else if updateErr != nil {
		r.Stale = updateErr.Error()
	}
}

// Find lists the sessions whose title or folder matches text, or whose
// messages do (through ix; nil means titles and folders only), newest
// first, at most opts.Limit (0 = all). opts.Search is ignored. An empty
// query lists every session as opts says.
func Find(ctx context.Context, l *codexhome.Lister, ix *Index, text string, opts codexhome.ListOptions) (Results, error) {
	q := ParseQuery(text)
	limit := opts.Limit
	opts.Search = ""
	if !q.Empty() {
		opts.Limit = 0 // which sessions match is known only after looking at all
	}
	list, err := l.List(ctx, opts)
	out := Results{Sessions: []Result{}, Hint: list.Hint, HintCode: list.HintCode, HintDir: list.HintDir, Warnings: list.Warnings}
	if err != nil {
		return out, err
	}
	if q.Empty() {
		for _, s := range list.Sessions {
			out.Sessions = append(out.Sessions, Result{Session: s, Message: -1})
		}
		return out, nil
	}
	var hits map[string]Hit
	byID := map[string]Hit{}
	if ix != nil {
		out.Partial = !ix.Built(ctx)
		if hits, err = ix.Search(ctx, q); err != nil {
			out.Warnings = append(out.Warnings, err.Error())
		}
		for _, h := range hits {
			if old, ok := byID[h.Session]; !ok || h.Path < old.Path {
				byID[h.Session] = h
			}
		}
	}
	for _, s := range list.Sessions {
		if limit > 0 && len(out.Sessions) >= limit {
			break
		}
		h, ok := hits[s.Path]
		if !ok && s.Path != "" {
			h, ok = byID[s.ID]
		}
		if !ok && !q.MatchesText(s.Title, s.Cwd) {
			continue
		}
		r := Result{Session: s, Message: -1}
		if ok && s.Unreadable == "" {
			sn, at, err := ix.Snippet(ctx, q, h)
			if err != nil {
				out.Warnings = append(out.Warnings, err.Error())
			} else {
				r.Snippet, r.Message = sn, at
			}
		}
		out.Sessions = append(out.Sessions, r)
	}
	return out, ctx.Err()
}
