// Package inside decides whether a path lies inside a folder: the one
// check between a path the agent named (a tool call's file, a
// resource_link, a file:// URI in its Markdown) and anything that opens,
// reads or attaches it. The path's text is judged before any file-system
// call, then it is looked up from the folder's own handle, so neither a
// network path nor a symlink in the workspace can point the OS elsewhere.
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
// and says what is there. The text is judged first (judge): a network,
// device or drive-relative path, or one that leaves root by its name, is
// ErrOutside before anything is looked up. Only then is it looked up from
// root's own handle (os.Root), which follows the links inside and refuses
// any that leads out (or is absolute): ErrOutside too. A missing path is
// fs.ErrNotExist.
func Resolve(root, p string) (string, fs.FileInfo, error) {
	given := p
	p, err := fromURI(p)
	if err != nil {
		return "", nil, err
	}
	rel, err := judge(root, p)
	if errors.Is(err, ErrOutside) && root != "" {
		// An absolute path may name the workspace by its real path.
		if realRoot, rerr := filepath.EvalSymlinks(root); rerr == nil && realRoot != root {
			if r2, err2 := judge(realRoot, p); err2 == nil {
				rel, err = r2, nil
			}
		}
	}
	if err != nil {
		return "", nil, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return "", nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	defer r.Close()
	fi, err := r.Stat(filepath.FromSlash(rel))
	if err != nil {
		var pe *fs.PathError
		if !errors.Is(err, fs.ErrNotExist) && errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return "", nil, fmt.Errorf("%s: %w", given, ErrOutside)
		}
		return "", nil, fmt.Errorf("path %s: %w", given, err)
	}
	// The real path, for the OS to open: os.Root vouched that every link on
	// the way stays inside, and the answer is checked again.
	real, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if err != nil {
		return "", nil, fmt.Errorf("path %s: %w", given, err)
	}
	if !Within(realRoot, real) && real != realRoot {
		return "", nil, fmt.Errorf("%s: %w", given, ErrOutside)
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

// FileURI is the file:// URI of an absolute local path: file:///home/x on
// Unix, file:///C:/x on Windows (RFC 8089; file://C:/x would make "C:"
// the host, which fromURI rightly refuses).
func FileURI(path string) string {
	return slashURI(filepath.ToSlash(path))
}

// slashURI is FileURI for a path already in slash form; kept apart from
// filepath so Windows paths are testable on any OS.
func slashURI(p string) string {
	if hasDrive(p) {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// fromURI turns a file:// URI into a local path; anything else is taken
// as a path. Only local file URIs are accepted (no host but localhost),
// and the path is decoded, so %2e%2e is "..".
func fromURI(p string) (string, error) {
	local, err := uriSlash(p)
	if err != nil {
		return "", err
	}
	return filepath.FromSlash(local), nil
}

// uriSlash is fromURI without the final turn into the OS's separators, so
// Windows URIs are testable on any OS. A non-URI comes back unchanged.
func uriSlash(p string) (string, error) {
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
	if len(local) > 2 && local[0] == '/' && hasDrive(local[1:]) {
		local = local[1:] // file:///C:/x → C:/x
	}
	return local, nil
}
