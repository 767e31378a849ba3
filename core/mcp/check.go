package mcp

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
)

// CheckResult is theme_check's structured content.
type CheckResult struct {
	File   string  `json:"file"`
	Valid  bool    `json:"valid"`
	Passes bool    `json:"passes"`
	Target float64 `json:"target"`
	// Problems are the parse errors: where (a role path such as
	// "ui.background", or a JSON path) and why.
	Problems     []Problem `json:"problems"`
	MoreProblems int       `json:"moreProblems,omitempty"`
	// Checked counts the contrast pairs measured; Failing are those below
	// Target.
	Checked int           `json:"checked"`
	Failing []FailingPair `json:"failing"`
	// Locked are the colours the designer locked; Kept false means this
	// file changed one, which the app puts back after the turn.
	Locked []Locked `json:"locked"`
	// HandEdits are colours the designer set by hand since the agent last
	// heard of them.
	HandEdits []HandEdit `json:"handEdits"`
	Warnings  []string   `json:"warnings"`

	unreadable error // the file could not be read at all
}

// Problem is one parse error.
type Problem struct {
	Role   string `json:"role"`
	Reason string `json:"reason"`
}

// Side is one colour of a pair.
type Side struct {
	Role  string `json:"role"`
	Color string `json:"color"`
	// Follows is the palette entry the role follows ("" when none).
	Follows string `json:"follows"`
}

// FailingPair is a contrast pair below its target.
type FailingPair struct {
	Foreground Side    `json:"foreground"`
	Background Side    `json:"background"`
	Ratio      float64 `json:"ratio"`
	APCA       float64 `json:"apcaLc"`
	Target     float64 `json:"target"`
	Fix        *Fix    `json:"fix,omitempty"`
}

// Fix is the nearest colour (OKLCH lightness moved, hue and chroma kept)
// at which the role passes every pair it takes part in.
type Fix struct {
	Role  string  `json:"role"`
	Color string  `json:"color"`
	Ratio float64 `json:"ratio"` // of this pair with the fix
	Note  string  `json:"note,omitempty"`
}

// Locked is one locked colour.
type Locked struct {
	Role    string `json:"role"`
	Color   string `json:"color"`
	Current string `json:"current"`
	Kept    bool   `json:"kept"`
}

// HandEdit is one colour the designer set by hand.
type HandEdit struct {
	Role  string `json:"role"`
	Color string `json:"color"`
}

var checkSchema = func() map[string]any {
	side := map[string]any{"type": "object", "properties": map[string]any{
		"role": map[string]any{"type": "string"}, "color": map[string]any{"type": "string"}, "follows": map[string]any{"type": "string"},
	}}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"file":   map[string]any{"type": "string"},
			"valid":  map[string]any{"type": "boolean"},
			"passes": map[string]any{"type": "boolean"},
			"target": map[string]any{"type": "number"},
			"problems": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
				"role": map[string]any{"type": "string"}, "reason": map[string]any{"type": "string"},
			}}},
			"checked": map[string]any{"type": "integer"},
			"failing": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
				"foreground": side, "background": side,
				"ratio": map[string]any{"type": "number"}, "apcaLc": map[string]any{"type": "number"}, "target": map[string]any{"type": "number"},
				"fix": map[string]any{"type": "object", "properties": map[string]any{
					"role": map[string]any{"type": "string"}, "color": map[string]any{"type": "string"},
					"ratio": map[string]any{"type": "number"}, "note": map[string]any{"type": "string"},
				}},
			}}},
			"locked": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
				"role": map[string]any{"type": "string"}, "color": map[string]any{"type": "string"},
				"current": map[string]any{"type": "string"}, "kept": map[string]any{"type": "boolean"},
			}}},
			"handEdits": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
				"role": map[string]any{"type": "string"}, "color": map[string]any{"type": "string"},
			}}},
			"warnings": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"required": []string{"file", "valid", "passes", "target", "problems", "checked", "failing", "locked", "handEdits", "warnings"},
	}
}()

// follows is the palette entry a role follows ("" when it holds its own
// colour or is derived): the one place theme_check and theme_roles ask.
func follows(t *theme.Theme, role string) string { return t.Follows(role) }

// Check runs theme_check on the workspace's file rel (default
// theme.json) with the contrast target.
func (s *Server) Check(rel string, target float64) CheckResult {
	res := CheckResult{Target: target, Problems: []Problem{}, Failing: []FailingPair{}, Locked: []Locked{}, HandEdits: []HandEdit{}, Warnings: []string{}}
	name, data, err := s.readTheme(rel)
	res.File = name
	if err != nil {
		res.Problems = append(res.Problems, Problem{Role: "", Reason: "cannot read: " + err.Error()})
		res.unreadable = err
		return res
	}
	t, perr := theme.Parse(data)
	if perr != nil {
		probs := problemsOf(perr)
		for i, p := range probs {
			if i == maxProblems {
				res.MoreProblems = len(probs) - maxProblems
				break
			}
			res.Problems = append(res.Problems, Problem{Role: orDoc(p.Path), Reason: clip(p.Message, 300)})
		}
	} else {
		res.Valid = true
		res.Failing, res.Checked = failing(t, "", target)
		if t.Companion != nil {
			f, n := failing(t.Companion, theme.CompanionPrefix, target)
			res.Failing, res.Checked = append(res.Failing, f...), res.Checked+n
		}
		res.Warnings = append(res.Warnings, warnings(t)...)
	}
	s.handEdits(t, &res)
	res.Passes = res.Valid && len(res.Failing) == 0
	for _, l := range res.Locked {
		res.Passes = res.Passes && l.Kept
	}
	return res
}

func (s *Server) check(rel string, target float64) *result {
	res := s.Check(rel, target)
	if res.unreadable != nil {
		return toolError("cannot read %s: %v", res.File, res.unreadable)
	}
	return &result{Content: []content{{Type: "text", Text: summary(res)}}, StructuredContent: res}
}

// failing measures t's pairs and proposes a fix for each one below
// target. prefix names the document ("companion." for the companion).
func failing(t *theme.Theme, prefix string, target float64) ([]FailingPair, int) {
	checks := contrast.Checks(t)
	out := []FailingPair{}
	fixes := map[string]*theme.Color{} // role → its passing colour (nil: none)
	fixOf := func(role string) *theme.Color {
		if c, ok := fixes[role]; ok {
			return c
		}
		var got *theme.Color
		if c, ok := nearestPassing(t, role, target); ok {
			got = &c
		}
		fixes[role] = got
		return got
	}
	for _, c := range checks {
		fg, _ := theme.ParseColor(c.FG)
		bg, _ := theme.ParseColor(c.BG)
		r := colour.Ratio(fg, bg)
		if r >= target {
			continue
		}
		fp := FailingPair{
			Foreground: Side{Role: prefix + c.FGRole, Color: t.Color(c.FGRole).String(), Follows: follows(t, c.FGRole)},
			Background: Side{Role: prefix + c.BGRole, Color: t.Color(c.BGRole).String(), Follows: follows(t, c.BGRole)},
			Ratio:      c.Ratio, APCA: c.APCA, Target: target,
		}
		// The foreground moves first (the background is shared by every
		// pair); when no lightness of it passes, the background.
		for _, role := range []string{c.FGRole, c.BGRole} {
			if col := fixOf(role); col != nil {
				trial := t.Clone()
				trial.Set(role, *col)
				fp.Fix = &Fix{Role: prefix + role, Color: col.String(), Ratio: pairRatio(trial, c.FGRole, c.BGRole)}
				if !t.Has(role) {
					if rule, ok := t.RuleFor(role); ok {
						fp.Fix.Note = fmt.Sprintf("%s is derived today (%s); setting it gives it its own colour", role, rule)
					}
				}
				break
			}
		}
		out = append(out, fp)
	}
	return out, len(checks)
}

// nearestPassing is contrast.MakePass made quick for the common case, a role
// that is the foreground of every pair it takes part in: its backgrounds
// stay as they are, so each candidate is measured against them alone
// instead of re-running every check of the theme (MakePass measures
// ~1000 candidates, each of which re-ran all the pairs: over a second a
// role). A role that is some pair's background goes to MakePass.
func nearestPassing(t *theme.Theme, role string, target float64) (theme.Color, bool) {
	pairs := contrast.Pairs(t, role)
	if len(pairs) == 0 {
		return theme.Color{}, false
	}
	var bgs []theme.Color
	for _, p := range pairs {
		bg, err := theme.ParseColor(p.BG)
		if p.FGRole != role || p.BGRole == role || err != nil {
			c, err := contrast.MakePass(t, role, target)
			return c, err == nil
		}
		bgs = append(bgs, bg)
	}
	return theme.NearestPassing(t.Color(role), target, func(cand theme.Color) float64 {
		worst := math.Inf(1)
		for _, bg := range bgs {
			worst = math.Min(worst, colour.Ratio(cand.Over(bg), bg))
		}
		return worst
	})
}

// pairRatio is the ratio of the pair (fg, bg) in t, as Checks measures it.
func pairRatio(t *theme.Theme, fg, bg string) float64 {
	for _, c := range contrast.Checks(t) {
		if c.FGRole == fg && c.BGRole == bg {
			return c.Ratio
		}
	}
	return 0
}

// warnings are what the exports will do to the theme that the designer
// may not expect.
func warnings(t *theme.Theme) []string {
	var out []string
	var translucent []string
	for _, v := range t.Values() {
		if v.Set && strings.HasPrefix(v.Path, "ansi.") {
			if c, err := theme.ParseColor(v.Color); err == nil && !c.Opaque() {
				translucent = append(translucent, v.Path)
			}
		}
	}
	for _, p := range []string{"ui.background", "ui.surface", "ui.text"} {
		if !t.Color(p).Opaque() {
			translucent = append(translucent, p)
		}
	}
	if len(translucent) > 0 {
		out = append(out, fmt.Sprintf("%s translucent: terminals and the base16/base24, tmux and foot formats cannot carry alpha and get it composited over the background (ui.background over black)", strings.Join(translucent, ", ")))
	}
	return out
}

// handEdits fills in the designer's locks and edits from the app's
// record (read, never written: a damaged record is a warning here; the
// app sets it aside itself).
func (s *Server) handEdits(t *theme.Theme, res *CheckResult) {
	if s.cfg.EditsFile == "" {
		return
	}
	l, err := handedit.Peek(s.cfg.EditsFile)
	if err != nil {
		res.Warnings = append(res.Warnings, "the designer's record of locked colours is unreadable: "+err.Error())
		return
	}
	for _, p := range sortedKeys(l.Locked) {
		lk := Locked{Role: p, Color: l.Locked[p]}
		if t != nil {
			if c, ok := handedit.ColorAt(t, p); ok {
				lk.Current = c.String()
				want, _ := theme.ParseColor(lk.Color)
				lk.Kept = c == want
			}
		}
		res.Locked = append(res.Locked, lk)
	}
	for _, p := range sortedKeys(l.Changed) {
		res.HandEdits = append(res.HandEdits, HandEdit{Role: p, Color: l.Changed[p]})
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// summary is the check in a few lines of text, for a model that reads
// text content only.
func summary(r CheckResult) string {
	var b strings.Builder
	switch {
	case !r.Valid:
		fmt.Fprintf(&b, "%s does not parse (%d problem(s)); fix these first:\n", r.File, len(r.Problems)+r.MoreProblems)
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "- %s: %s\n", p.Role, p.Reason)
		}
		if r.MoreProblems > 0 {
			fmt.Fprintf(&b, "… and %d more\n", r.MoreProblems)
		}
	case r.Passes:
		fmt.Fprintf(&b, "%s passes: all %d contrast pairs reach %.1f:1", r.File, r.Checked, r.Target)
		if len(r.Locked) > 0 {
			fmt.Fprintf(&b, " and every locked colour is kept")
		}
		b.WriteString(".\n")
	default:
		if len(r.Failing) > 0 {
			fmt.Fprintf(&b, "%d of %d contrast pairs in %s are below %.1f:1:\n", len(r.Failing), r.Checked, r.File, r.Target)
			for _, f := range r.Failing {
				fmt.Fprintf(&b, "- %s %s on %s %s: %.2f:1, APCA Lc %.1f", f.Foreground.Role, f.Foreground.Color, f.Background.Role, f.Background.Color, f.Ratio, f.APCA)
				if f.Fix != nil {
					fmt.Fprintf(&b, "; nearest passing: %s %s (%.2f:1)", f.Fix.Role, f.Fix.Color, f.Fix.Ratio)
				}
				b.WriteString("\n")
			}
		}
	}
	for _, l := range r.Locked {
		if !l.Kept {
			fmt.Fprintf(&b, "LOCKED %s must stay %s (the file has %s); set it back.\n", l.Role, l.Color, orNone(l.Current))
		}
	}
	if len(r.HandEdits) > 0 {
		b.WriteString("Keep the designer's hand edits:")
		for _, h := range r.HandEdits {
			fmt.Fprintf(&b, " %s %s;", h.Role, h.Color)
		}
		b.WriteString("\n")
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", w)
	}
	return strings.TrimRight(b.String(), "\n")
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
