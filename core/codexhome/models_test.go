package codexhome

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/fixtures"
)

func ids(ms []Model) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func fallbackIDs() []string { return ids(FallbackModels()) }

func TestModels(t *testing.T) {
	realCache := string(fixtures.Read("models_cache.json"))
	noVisibility := `{"fetched_at":"2026-01-01T00:00:00Z","models":[
	 {"slug":"b-model","display_name":"B","priority":5,"supported_reasoning_levels":[{"effort":"ultra","description":"new effort name"}],"brand_new_field":{"x":1}},
	 {"slug":"a-model","display_name":"A","description":"first","priority":2,"visibility":"list","default_reasoning_level":"minimal"},
	 {"slug":"hidden","display_name":"H","priority":0,"visibility":"hide"},
	 {"slug":"gone","display_name":"G","priority":1,"visibility":"none"}]}`
	tests := []struct {
		name       string
		config     string
		cache      *string
		wantSource string
		wantIDs    []string
		wantCur    string
		wantHint   string
		wantWarn   bool
	}{
		{"real cache, config model appended", "model = \"gpt-5.5\"\n", &realCache, ModelsFromCache, []string{"gpt-6.1-sol", "gpt-6-luna", "gpt-5.5"}, "gpt-5.5", "", false},
		{"config model already listed is not repeated", "model = \"gpt-6-luna\"\n", &realCache, ModelsFromCache, []string{"gpt-6.1-sol", "gpt-6-luna"}, "gpt-6-luna", "", false},
		{"no config model: first listed is current", "", &realCache, ModelsFromCache, []string{"gpt-6.1-sol", "gpt-6-luna"}, "gpt-6.1-sol", "", false},
		{"hidden models and missing visibility", "", &noVisibility, ModelsFromCache, []string{"a-model", "b-model"}, "a-model", "", false},
		{"missing cache falls back", "", nil, ModelsFromFallback, fallbackIDs(), fallbackIDs()[0], "No model list from Codex yet", false},
		{"corrupt cache falls back with a warning", "model = \"gpt-5.5\"\n", ptr(`{"models":[{"slug":"x",`), ModelsFromFallback, fallbackIDs(), "gpt-5.5", "unreadable", true},
		{"cache with only hidden models falls back", "", ptr(`{"models":[{"slug":"x","visibility":"hide"}]}`), ModelsFromFallback, fallbackIDs(), fallbackIDs()[0], "unreadable", true},
		{"corrupt config is a warning, cache still used", "model = [", &realCache, ModelsFromCache, []string{"gpt-6.1-sol", "gpt-6-luna"}, "gpt-6.1-sol", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "config.toml"), []byte(tt.config))
			if tt.cache != nil {
				writeFile(t, filepath.Join(dir, "models_cache.json"), []byte(*tt.cache))
			}
			got := Home{Dir: dir}.Models()
			if got.Source != tt.wantSource {
				t.Errorf("source = %q, want %q", got.Source, tt.wantSource)
			}
			if !reflect.DeepEqual(ids(got.Models), tt.wantIDs) {
				t.Errorf("models = %v, want %v", ids(got.Models), tt.wantIDs)
			}
			if got.Current != tt.wantCur {
				t.Errorf("current = %q, want %q", got.Current, tt.wantCur)
			}
			if tt.wantHint == "" && got.Hint != "" || !strings.Contains(got.Hint, tt.wantHint) {
				t.Errorf("hint = %q, want it to contain %q", got.Hint, tt.wantHint)
			}
			// Every hint carries a code for the UI to word it, and the folder.
			if (got.Hint == "") != (got.HintCode == "") || got.HintCode != "" && got.HintDir != dir {
				t.Errorf("hint %q has code %q dir %q", got.Hint, got.HintCode, got.HintDir)
			}
			if (len(got.Warnings) > 0) != tt.wantWarn {
				t.Errorf("warnings = %v, want some: %v", got.Warnings, tt.wantWarn)
			}
		})
	}
}

func TestModelDetails(t *testing.T) {
	got := copyHome(t).Models()
	sol := got.Models[0]
	if sol.Name != "GPT-6.1-Sol" || sol.Description != "Latest workhorse model for coding and everyday work." || sol.DefaultReasoningLevel != "low" {
		t.Errorf("gpt-6.1-sol = %+v", sol)
	}
	var efforts []string
	for _, l := range sol.ReasoningLevels {
		efforts = append(efforts, l.Effort)
		if l.Description == "" {
			t.Errorf("effort %q lost its description", l.Effort)
		}
	}
	if want := []string{"low", "medium", "high", "xhigh", "max", "ultra"}; !reflect.DeepEqual(efforts, want) {
		t.Errorf("efforts = %v, want %v (cache order, new names kept)", efforts, want)
	}
	// config.toml's model, unknown to the cache, carries config's effort.
	last := got.Models[len(got.Models)-1]
	if last.ID != "gpt-5.5" || last.DefaultReasoningLevel != "medium" || len(last.ReasoningLevels) == 0 {
		t.Errorf("config model entry = %+v", last)
	}
}

func TestModelsMissingHome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "absent")
	got := Home{Dir: dir}.Models()
	if got.Source != ModelsFromFallback || len(got.Models) == 0 || len(got.Warnings) != 0 {
		t.Errorf("got %+v, want the fallback list without warnings", got)
	}
	if !strings.Contains(got.Hint, "No Codex home at "+dir) || got.HintCode != HintNoHome || got.HintDir != dir {
		t.Errorf("hint = %q (%s %s)", got.Hint, got.HintCode, got.HintDir)
	}
}

func TestModelListJSONShape(t *testing.T) {
	b, err := json.Marshal(copyHome(t).Models())
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Current, Source, Hint *string
		Models                []map[string]any
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Current == nil || v.Source == nil || v.Hint == nil || len(v.Models) == 0 {
		t.Fatalf("missing top-level fields in %s", b)
	}
	for _, k := range []string{"id", "name", "description", "defaultReasoningLevel", "reasoningLevels"} {
		if _, ok := v.Models[0][k]; !ok {
			t.Errorf("model lacks %q: %v", k, v.Models[0])
		}
	}
	lv := v.Models[0]["reasoningLevels"].([]any)[0].(map[string]any)
	if _, ok := lv["effort"]; !ok {
		t.Errorf("reasoning level lacks effort: %v", lv)
	}
	if _, ok := lv["description"]; !ok {
		t.Errorf("reasoning level lacks description: %v", lv)
	}
}
