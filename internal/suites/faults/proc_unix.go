//go:build unix

package faults

import (
	"errors"
	"syscall"
)

// GroupGone reports whether process group pgid has no live member: kill(-pgid, 0)
// finds none (ESRCH), or every member left is a zombie nobody reaps.
func GroupGone(pgid int) (bool, []Proc) {
	if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		return true, nil
	}
	live, err := LiveInGroup(pgid)
	if err != nil {
		return false, nil
	}
	return len(live) == 0, live
}
