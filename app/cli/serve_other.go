//go:build !unix && !windows

package cli

import (
	"errors"
	"syscall"
)

var errLocked = errors.New("locked by another process")

func lockServe(string) (func(), error) { return func() {}, nil }

func detached() *syscall.SysProcAttr { return nil }

const oNoFollow = 0
