// Package winlink makes the links the Windows tests plant in a folder (a
// symlink, a directory junction) and says plainly when the system cannot:
// creating a symlink needs Developer Mode or an elevated token on Windows,
// and Wine 8 claims to create one but makes nothing, so a test asserting
// what a link does must know it really has one.
package winlink

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
)

var (
	// ErrNotMade is a link the system said it created but is not there
	// (Wine 8's CreateSymbolicLinkW is a stub that reports success).
	ErrNotMade = errors.New("reported as created, but no link is there")
	// ErrPrivilege is a symlink Windows refused to this user
	// (ERROR_PRIVILEGE_NOT_HELD: no Developer Mode, not elevated).
	ErrPrivilege = errors.New("this user may not create symbolic links")
)

// Symlink makes link point at target and checks that it does.
func Symlink(target, link string) error {
	if err := os.Symlink(target, link); err != nil {
		if isPrivilege(err) {
			return fmt.Errorf("symlink %s: %w", link, ErrPrivilege)
		}
		return fmt.Errorf("symlink %s: %w", link, err)
	}
	fi, err := os.Lstat(link)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
		return fmt.Errorf("symlink %s: %w", link, ErrNotMade)
	}
	if err != nil {
		return fmt.Errorf("symlink %s: %w", link, err)
	}
	return nil
}

// SymlinkOrSkip is Symlink for a test: it skips when this Windows user may
// not make symlinks (no Developer Mode) and fails on anything else, Wine's
// stub that makes nothing included (scripts/wine/known-limits.txt names it).
func SymlinkOrSkip(tb testing.TB, target, link string) {
	tb.Helper()
	if err := Symlink(target, link); errors.Is(err, ErrPrivilege) {
		tb.Skip(err)
	} else if err != nil {
		tb.Fatal(err)
	}
}
