//go:build !unix

package faults

import "errors"

// FreeBytes is unknown here; callers skip what needs it.
func FreeBytes(dir string) (uint64, error) {
	return 0, errors.New("free space unknown on this system")
}
