package theme

import (
	"encoding/json"
	"errors"
	"testing"
)

// withCompanion is the example theme with a light companion.
func withCompanion(t *testing.T) *Theme {
	t.Helper()
	th := Example()
	th.Companion = otherAppearance(th)
	return th
}

// otherAppearance is a plain companion of th, named as core/companion
// names one (the model's tests cannot import it: it imports the model):
// the other appearance, background and text swapped.
func otherAppearance(th *Theme) *Theme {
	c := th.Clone()
	c.Companion, c.Scheme, c.Spaces, c.Targets = nil, nil, nil, nil
	c.Appearance = Opposite(th.Appearance)
	c.Name = CompanionName(th.Name, c.Appearance)
	c.Set("ui.background", th.UI.Text)
	c.Set("ui.text", th.UI.Background)
	return c
}

func TestCompanionRoundTripsThroughTheDocument(t *testing.T) {
	th := withCompanion(t)
	b, err := EncodeJSON(th)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b)
	if err != nil {
		t.Fatalf("a document with its companion does not parse back: %v", err)
	}
	if back.Companion == nil || back.Companion.Name != th.Companion.Name || back.Companion.UI != th.Companion.UI || back.Companion.ANSI != th.Companion.ANSI {
		t.Fatalf("companion lost or changed on the way through theme.json: %+v", back.Companion)
	}
}

func TestCompanionProblemsAreNamedUnderCompanion(t *testing.T) {
	th := withCompanion(t)
	doc := func(edit func(c map[string]any)) []byte {
		b, _ := EncodeJSON(th)
		var m map[string]any
		json.Unmarshal(b, &m)
		edit(m["companion"].(map[string]any))
		out, _ := json.Marshal(m)
		return out
	}
	for name, tc := range map[string]struct {
		edit func(c map[string]any)
		want string
	}{
		"same appearance": {func(c map[string]any) { c["appearance"] = "dark" }, "companion.appearance"},
		"same name":       {func(c map[string]any) { c["name"] = th.Name }, "companion.name"},
		"a bad colour":    {func(c map[string]any) { c["ui"].(map[string]any)["accent"] = "blue" }, "companion.ui.accent"},
		"a missing group": {func(c map[string]any) { delete(c, "syntax") }, "companion.syntax"},
		"nested":          {func(c map[string]any) { c["companion"] = map[string]any{} }, "companion.companion"},
	} {
		_, err := Parse(doc(tc.edit))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a validation error", name, err)
			continue
		}
		found := false
		for _, p := range ve.Problems {
			found = found || p.Path == tc.want
		}
		if !found {
			t.Errorf("%s: no problem at %s in %v", name, tc.want, ve.Problems)
		}
	}
}
