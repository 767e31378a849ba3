//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

var errLocked = errors.New("locked by another process")

// lockServe takes the lock only one serve holds at a time (two chats
// starting one at once must not race for the socket).
func lockServe(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// detached puts serve in a session of its own: no terminal, no signals
// meant for the shell's foreground job.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

const oNoFollow = syscall.O_NOFOLLOW
