package serve

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNoServer: nothing listens on the socket (or it does not exist).
var ErrNoServer = errors.New("no server on the socket")

// ErrInUse: another server answers on the socket.
var ErrInUse = errors.New("another server answers on the socket")

// place is what the socket folder is decided from: the OS and the folders
// it offers. It is a value so the decision for every OS can be tested on
// any of them.
type place struct {
	goos         string
	runtime      string // $XDG_RUNTIME_DIR (unix), "" if unset
	temp         string // os.TempDir(): on macOS the per-user $TMPDIR
	localAppData string // %LOCALAPPDATA% (windows)
	uid          int
}

// sunPathMax is the longest socket path bind and connect take: sun_path
// holds 104 bytes on macOS and the BSDs, 108 on Linux and Windows, one of
// them the terminating NUL.
func sunPathMax(goos string) int {
	switch goos {
	case "darwin", "ios", "freebsd", "openbsd", "netbsd", "dragonfly":
		return 103
	}
	return 107
}

// bindSuffix is what Listen adds to a socket's name while it binds
// (".<pid>.tmp"), at its longest (Linux pids have up to 7 digits).
const bindSuffix = ".4194304.tmp"

// longestName is the longest socket name the app uses ("serve"); the
// folder is chosen so that it fits.
const longestName = "serve.sock"

// fits says whether the socket name would fit in dir, bound under its
// temporary name too.
func fits(goos, dir, name string) bool {
	return len(dir)+1+len(name)+len(bindSuffix) <= sunPathMax(goos)
}

// candidates are the folders the sockets may live in, best first. Each is
// the app's own folder, made 0700 (a protected DACL on Windows) and
// checked before use, so its parent may be shared: $XDG_RUNTIME_DIR on
// Linux; the temp dir, which on macOS is the user's own
// /var/folders/…/T/ (~/Library/Application Support, adrg/xdg's runtime dir
// there, is 0755 and holds the config); /tmp when the others are too long
// for sun_path. On Windows, %LOCALAPPDATA%\cdxtheme\run.
func candidates(p place) []string {
	if p.goos == "windows" {
		if !winAbs(p.localAppData) {
			return nil
		}
		return []string{strings.TrimRight(p.localAppData, `\/`) + `\cdxtheme\run`}
	}
	own := "cdxtheme-" + strconv.Itoa(p.uid)
	var c []string
	if path.IsAbs(p.runtime) {
		c = append(c, path.Join(p.runtime, "cdxtheme"))
	}
	if path.IsAbs(p.temp) {
		c = append(c, path.Join(p.temp, own))
	}
	if path.Clean(p.temp) != "/tmp" {
		c = append(c, path.Join("/tmp", own))
	}
	return c
}

// winAbs: a Windows path from a drive's root (C:\…), the only kind
// %LOCALAPPDATA% may be. (filepath.IsAbs judges by the OS this runs on.)
func winAbs(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// socketDir is the first candidate a socket path fits in.
func socketDir(p place) (string, error) {
	c := candidates(p)
	if len(c) == 0 {
		return "", errors.New("socket folder: no place for it (LOCALAPPDATA is not set)")
	}
	for _, d := range c {
		if fits(p.goos, d, longestName) {
			return d, nil
		}
	}
	return "", fmt.Errorf("socket folder: every place is too long for a socket path (at most %d bytes): %q", sunPathMax(p.goos), c)
}

// socketPath is the socket called name in dir, refused when it would be
// too long to bind.
func socketPath(goos, dir, name string) (string, error) {
	if !fits(goos, dir, name+".sock") {
		return "", fmt.Errorf("socket %s.sock in %s: the path is longer than a socket takes (%d bytes)", name, dir, sunPathMax(goos))
	}
	return filepath.Join(dir, name+".sock"), nil
}
