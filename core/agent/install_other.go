//go:build !linux

package agent

import "syscall"

// installAttr: only Linux can tie a child's life to its parent's.
func installAttr() *syscall.SysProcAttr { return nil }
