package codexhome

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"cdxtheme/internal/testrig/fixtures"
)

func TestConfig(t *testing.T) {
	sample := string(fixtures.Read("config.toml"))
	tests := []struct {
		name    string
		content *string // nil = no file
		want    Config
		wantErr bool
	}{
		{"real annotated config", &sample, Config{Model: "gpt-5.5", ModelProvider: "openai", ReasoningEffort: "medium"}, false},
		{"missing file gives defaults", nil, Config{}, false},
		{"legacy profile and unknown keys tolerated", ptr("profile = \"work\"\nmodel = \"o3\"\nfuture_key = [1, 2]\n[profiles.work]\nmodel = \"x\"\n[tui]\nnotifications = true\n"), Config{Model: "o3"}, false},
		{"corrupt file is a warning and defaults", ptr("model = \"gpt-5.5\nmodel_provider = ["), Config{}, true},
		{"wrong type is a warning and defaults", ptr("model = 5\n"), Config{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != nil {
				writeFile(t, filepath.Join(dir, "config.toml"), []byte(*tt.content))
			}
			got, err := Home{Dir: dir}.Config()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			got.Providers = nil // compared on their own below
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestModelServerNamesTheProvider(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "config.toml"), []byte("model_provider = \"mock\"\n[model_providers.mock]\nname = \"Mock Responses\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
	cfg, err := Home{Dir: dir}.Config()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{cfg, "Mock Responses (http://127.0.0.1:9/v1)"},
		{Config{}, "OpenAI"},
		{Config{ModelProvider: "azure"}, "azure"},
	} {
		if got := tc.cfg.ModelServer(); got != tc.want {
			t.Errorf("ModelServer() = %q, want %q", got, tc.want)
		}
	}
}

func TestConfigUnreadable(t *testing.T) {
	dir := t.TempDir()
	// A directory where the file should be: reading fails, it is reported.
	if err := os.Mkdir(filepath.Join(dir, "config.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := (Home{Dir: dir}).Config(); err == nil {
		t.Fatal("want an error for an unreadable config.toml")
	}
}

func ptr[T any](v T) *T { return &v }
