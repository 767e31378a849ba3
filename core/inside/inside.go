// Package inside decides whether a path lies inside a folder: the one
// check between a path the agent named (a tool call's file, a
// resource_link, a file:// URI in its Markdown) and anything that opens,
// reads or attaches it. Links are followed on both sides, so a symlink in
// the workspace cannot point the OS at a file elsewhere.
package inside

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrOutside is returned for a path that leaves the folder.
var ErrOutside = errors.New("path lies outside the workspace")

// Resolve turns p (an absolute path, a path relative to root, or a
// file:// URI) into the real path of something that exists inside root,
// every symlink on the way followed, and says what is there. A path that
// leaves root (by "..", an absolute path, or a link pointing out) is
// ErrOutside; a missing one is fs.ErrNotExist.
func Resolve(root, p string) (string, fs.FileInfo, error) {
	given := p
	p, err := fromURI(p)
	if err != nil {
		return "", nil, err
	}
	if p == "" {
		return "", nil, fmt.Errorf("empty path")
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	if !filepath.IsAbs(p) {
		// Not filepath.Join: it would clean "link/.." away before the link
		// is followed; EvalSymlinks walks it as the OS does.
		p = root + string(filepath.Separator) + p
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		// A path that leaves root lexically is outside whether or not
		// anything is there (its error must not tell the agent which).
		if !Within(root, p) && !Within(realRoot, p) {
			return "", nil, fmt.Errorf("%s: %w", given, ErrOutside)
		}
		return "", nil, fmt.Errorf("path %s: %w", given, err)
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || !filepath.IsLocal(rel) {
		return "", nil, fmt.Errorf("%s: %w", given, ErrOutside)
	}
	// The same answer from the folder's own handle: os.Root refuses
	// anything that leaves it, also a link swapped in since.
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return "", nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	defer r.Close()
	fi, err := r.Stat(rel)
	if err != nil {
		return "", nil, fmt.Errorf("path %s: %w", given, err)
	}
	return real, fi, nil
}

// Within reports whether p lies in dir by its name alone (nothing need
// exist; links are not followed): for paths not created yet.
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// Local reports whether name, a slash-separated path, names something
// below a folder: relative, clean (no empty, "." or ".." component, no
// trailing slash) and local by filepath.IsLocal (on Windows also no drive,
// no backslash and no reserved name such as NUL).
func Local(name string) bool {
	if name == "" || name == "." || path.Clean(name) != name {
		return false
	}
	if runtime.GOOS == "windows" && strings.Contains(name, `\`) {
		return false
	}
	return filepath.IsLocal(filepath.FromSlash(name))
}

// fromURI turns a file:// URI into a local path; anything else is taken
// as a path. Only local file URIs are accepted (no host but localhost),
// and the path is decoded, so %2e%2e is "..".
func fromURI(p string) (string, error) {
	if len(p) < 5 || !strings.EqualFold(p[:5], "file:") {
		return p, nil
	}
	u, err := url.Parse(p)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	if u.Opaque != "" || (u.Host != "" && !strings.EqualFold(u.Host, "localhost")) {
		return "", fmt.Errorf("path %q: only local file:// URIs are opened", p)
	}
	local := u.Path
	if runtime.GOOS == "windows" && len(local) > 2 && local[0] == '/' && local[2] == ':' {
		local = local[1:] // file:///C:/x → C:/x
	}
	return filepath.FromSlash(local), nil
}
