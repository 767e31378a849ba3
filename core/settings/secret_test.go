package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAPIKeyFileStore(t *testing.T) {
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(t.TempDir(), "cfg"))

	if k, store, err := LoadAPIKey(); err != nil || k != "" || store != StoreNone {
		t.Fatalf("fresh: %q %q %v", k, store, err)
	}
	if _, err := SaveAPIKey("  \n"); err == nil {
		t.Fatal("an empty key was accepted")
	}
	if _, err := SaveAPIKey("sk-a\nsk-b"); err == nil {
		t.Fatal("a key with a line break was accepted")
	}
	store, err := SaveAPIKey(" sk-test-123 ")
	if err != nil || store != StoreFile {
		t.Fatalf("save: %q %v", store, err)
	}
	info, err := os.Stat(apiKeyPath())
	if err != nil || !private(info) {
		t.Fatalf("key file must be 0600: %v %v", info.Mode(), err)
	}
	k, store, err := LoadAPIKey()
	if err != nil || k != "sk-test-123" || store != StoreFile {
		t.Fatalf("load: %q %q %v", k, store, err)
	}
	// The key never lands in settings.toml.
	if err := Save(Settings{Model: "gpt-5.5"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(Path())
	if len(b) == 0 || strings.Contains(string(b), "sk-test") {
		t.Fatalf("settings.toml: %q", b)
	}
	if err := DeleteAPIKey(); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := LoadAPIKey(); k != "" {
		t.Fatalf("key survived sign-out: %q", k)
	}
	if env := APIKeyEnv("sk-x"); len(env) != 2 || env[0] != "OPENAI_API_KEY=sk-x" || env[1] != "CODEX_API_KEY=sk-x" {
		t.Fatalf("env: %v", env)
	}
}
