//go:build unix

package serve

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"
)

// Dir is the private folder the sockets live in (socketDir):
// $XDG_RUNTIME_DIR/cdxtheme, else <temp dir>/cdxtheme-<uid>, else
// /tmp/cdxtheme-<uid> when those are too long for a socket path. It is
// made 0700 if missing; an existing one must be a real folder of this user
// that nobody else can enter, or it is refused (another user could have
// planted it in a shared temp dir).
func Dir() (string, error) {
	dir, err := socketDir(place{goos: runtime.GOOS, runtime: os.Getenv("XDG_RUNTIME_DIR"), temp: os.TempDir(), uid: os.Getuid()})
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	if err := private(fi, true); err != nil {
		return "", fmt.Errorf("socket folder %s: %w", dir, err)
	}
	return dir, nil
}

// Path is the socket called name ("app", "serve") in Dir.
func Path(name string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return socketPath(runtime.GOOS, dir, name)
}

// private checks that fi is this user's, a folder (dir) or a socket, and
// closed to group and others.
func private(fi fs.FileInfo, dir bool) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok:
		return errors.New("cannot tell its owner")
	case dir && !fi.IsDir():
		return fmt.Errorf("not a folder (%s)", fi.Mode().Type())
	case !dir && fi.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("not a socket (%s)", fi.Mode().Type())
	case int(st.Uid) != os.Getuid():
		return fmt.Errorf("owned by uid %d, not %d", st.Uid, os.Getuid())
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("mode %04o lets others in", fi.Mode().Perm())
	}
	return nil
}

// Dial connects to the socket at path after checking it is this user's
// and 0600, and that the peer runs as this user.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoServer
	}
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	if err := private(fi, false); err != nil {
		return nil, fmt.Errorf("socket %s refused: %w", path, err)
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoServer
		}
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	if err := samePeer(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("socket %s refused: %w", path, err)
	}
	return c, nil
}

// Listen makes the socket at path (0600), replacing a stale one of this
// user. A socket something still answers on is left alone: ErrInUse.
func Listen(path string) (net.Listener, error) {
	if _, err := Dir(); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if err := private(fi, false); err != nil {
			return nil, fmt.Errorf("socket %s: %w; remove it to serve here", path, err)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, ErrInUse
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
		}
	}
	// Bound under a temporary name, made 0600, then renamed into place: a
	// client never finds the socket at path with the umask's mode (it
	// would refuse it and run its turn cold). The folder is 0700 already;
	// the socket's own mode is the second lock.
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	os.Remove(tmp) // a leftover of a serve that died with this pid
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ul := ln.(*net.UnixListener)
	ul.SetUnlinkOnClose(false) // the name it was bound to moves
	if err := os.Chmod(tmp, 0o600); err != nil {
		ln.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	fi, err := os.Lstat(tmp)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		ln.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return &peerListener{Listener: ln, path: path, made: fi}, nil
}

// peerListener accepts only connections of this user.
type peerListener struct {
	net.Listener
	path string      // where the socket was moved to
	made fs.FileInfo // the socket as made, to remove only our own
}

// Close stops listening and removes the socket, unless another has taken
// its place since.
func (l *peerListener) Close() error {
	err := l.Listener.Close()
	if fi, lerr := os.Lstat(l.path); lerr == nil && os.SameFile(fi, l.made) {
		os.Remove(l.path)
	}
	return err
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := samePeer(c); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
}
