//go:build !windows

package winlink

import "errors"

func isPrivilege(error) bool { return false }

// Junction is Windows' own: elsewhere it is errors.ErrUnsupported.
func Junction(link, target string) error { return errors.ErrUnsupported }
