package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"cdxtheme/core/paths"
)

// signInPath records the agent sign-in method that last succeeded, so
// Settings can say how the user is signed in.
func signInPath() string { return filepath.Join(paths.ConfigDir(), "signin") }

// SignedInMethod is the agent sign-in method that last succeeded ("" =
// none since the last sign-out).
func SignedInMethod() string {
	b, err := os.ReadFile(signInPath())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// RememberSignIn records that signing in with methodID succeeded.
func RememberSignIn(methodID string) error {
	return paths.WriteFileAtomic(signInPath(), []byte(methodID+"\n"), 0o600)
}

// ForgetSignIn forgets the sign-in (sign-out).
func ForgetSignIn() error {
	if err := os.Remove(signInPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget sign-in: %w", err)
	}
	return nil
}
