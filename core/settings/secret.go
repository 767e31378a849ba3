package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/paths"

	"github.com/zalando/go-keyring"
)

// The API key the user typed for the agent is a secret: it goes to the OS
// keyring where one answers, else to a 0600 file in the config dir. It is
// never written into settings.toml (which users share when reporting bugs).

const (
	keyringService = "cdxtheme"
	keyringUser    = "openai-api-key"
	// keyringTimeout bounds a keyring call: on a desktop without a Secret
	// Service, D-Bus activation can stall rather than fail.
	keyringTimeout = 3 * time.Second
)

// Where an API key is kept.
const (
	StoreKeyring = "keyring"
	StoreFile    = "file"
	StoreNone    = ""
)

func apiKeyPath() string { return filepath.Join(paths.ConfigDir(), "api-key") }

// useKeyring is false when CDXTHEME_NO_KEYRING is set (tests, headless CI).
func useKeyring() bool { return os.Getenv("CDXTHEME_NO_KEYRING") == "" }

func withTimeout[T any](f func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := f()
		ch <- res{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		var zero T
		return zero, errors.New("the OS keyring did not answer")
	}
}

// LoadAPIKey returns the stored key and where it came from ("" if none).
func LoadAPIKey() (key, store string, err error) {
	if useKeyring() {
		k, kerr := withTimeout(func() (string, error) { return keyring.Get(keyringService, keyringUser) })
		if kerr == nil && k != "" {
			return k, StoreKeyring, nil
		}
	}
	b, err := os.ReadFile(apiKeyPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", StoreNone, nil
	}
	if err != nil {
		return "", StoreNone, fmt.Errorf("read api key: %w", err)
	}
	return strings.TrimSpace(string(b)), StoreFile, nil
}

// SaveAPIKey stores key, in the keyring when possible, and reports where.
func SaveAPIKey(key string) (string, error) {
	key = strings.TrimSpace(key)
	if key == "" {
		return StoreNone, errors.New("the API key is empty")
	}
	if strings.ContainsAny(key, "\r\n\x00") {
		return StoreNone, errors.New("the API key contains line breaks")
	}
	if useKeyring() {
		if _, err := withTimeout(func() (struct{}, error) {
			return struct{}{}, keyring.Set(keyringService, keyringUser, key)
		}); err == nil {
			os.Remove(apiKeyPath()) // one place only
			return StoreKeyring, nil
		}
	}
	if err := paths.WriteFileAtomic(apiKeyPath(), []byte(key+"\n"), 0o600); err != nil {
		return StoreNone, err
	}
	return StoreFile, nil
}

// DeleteAPIKey removes the key from both places (sign-out).
func DeleteAPIKey() error {
	if useKeyring() {
		withTimeout(func() (struct{}, error) { return struct{}{}, keyring.Delete(keyringService, keyringUser) })
	}
	if err := os.Remove(apiKeyPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove api key: %w", err)
	}
	return nil
}

// APIKeyVars are the variables that carry the OpenAI API key: codex-acp
// reads either name depending on its version.
var APIKeyVars = []string{"OPENAI_API_KEY", "CODEX_API_KEY"}

// APIKeyEnv is the environment that hands key to an agent of the Codex kind.
func APIKeyEnv(key string) []string {
	if key == "" {
		return nil
	}
	out := make([]string, 0, len(APIKeyVars))
	for _, v := range APIKeyVars {
		out = append(out, v+"="+key)
	}
	return out
}
