package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// The registry the install goes to is the one Bun and npm would use.
func TestRegistry(t *testing.T) {
	home := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "MIRROR": "mirror.example"}
	get := func(k string) string { return env[k] }

	if got := Registry(get); got != DefaultRegistry {
		t.Errorf("nothing configured: %s", got)
	}
	write(".npmrc", "# comment\n@acme:registry=https://acme.example/\nregistry = https://${MIRROR}/npm\n")
	if got := Registry(get); got != "https://mirror.example/npm/" {
		t.Errorf(".npmrc: %s", got)
	}
	write(".bunfig.toml", "[install]\nregistry = { url = \"https://bun.example/r\", token = \"x\" }\n")
	if got := Registry(get); got != "https://bun.example/r/" {
		t.Errorf("bunfig over .npmrc: %s", got)
	}
	env["npm_config_registry"] = "http://127.0.0.1:4873"
	if got := Registry(get); got != "http://127.0.0.1:4873/" {
		t.Errorf("npm_config_registry: %s", got)
	}
	env["BUN_CONFIG_REGISTRY"] = "http://127.0.0.1:9999/"
	if got := Registry(get); got != "http://127.0.0.1:9999/" {
		t.Errorf("BUN_CONFIG_REGISTRY first: %s", got)
	}
}
