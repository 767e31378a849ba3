package themeimport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "cdxtheme/core/packaging" // the package formats the tests render
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// model is the model's testdata (the sample themes), read from here.
const model = "../theme/testdata"

func mustColor(t testing.TB, s string) theme.Color {
	t.Helper()
	c, err := theme.ParseColor(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// within bounds a hostile input's work.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %s", what, d)
	}
}

// sampleThemes are the model's sample themes, by name.
func sampleThemes(t *testing.T) map[string]*theme.Theme {
	t.Helper()
	out := map[string]*theme.Theme{}
	for _, f := range []string{"example.theme.json", "light.theme.json"} {
		b, err := os.ReadFile(filepath.Join(model, f))
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(f, ".theme.json")] = th
	}
	return out
}

func forSamples(t *testing.T, format string, fn func(t *testing.T, th *theme.Theme, files map[string][]byte)) {
	for name, th := range sampleThemes(t) {
		t.Run(name, func(t *testing.T) {
			files, err := targets.Render(th, format)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, th, files)
		})
	}
}
