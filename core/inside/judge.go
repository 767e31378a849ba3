package inside

import (
	"fmt"
	"strings"
)

// judge decides, from the text of p alone, which path below root it names:
// before anything touches the file system, because on Windows merely
// looking at \\host\share (or //host/share) opens an SMB connection that
// hands the user's NTLM hash to that host, and on Linux a stat of
// /net/<host> makes autofs mount it. The rules are the same on every OS, so
// they are tested once for all: both separators count, and what Windows
// would read differently (drives, device names, trailing dots and spaces,
// stream names) is refused everywhere.
//
// Refused: UNC, \\?\ and \\.\ (and //host) paths, \??\ object paths,
// drive-relative (C:x) and current-drive-rooted (\x under a C:\ root)
// paths, device names (NUL, COM1, CONIN$, …), components with a colon, a
// NUL byte, or a trailing dot or space; an absolute path is taken only when
// its text lies in root. The answer is slash-separated, clean and local
// ("." for root itself), or an error wrapping ErrOutside when the path
// leaves root.
func judge(root, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q holds a NUL byte", p)
	}
	abs, rest := false, p
	switch {
	case len(p) >= 2 && isSep(p[0]) && isSep(p[1]):
		return "", fmt.Errorf("%q is a network or device path (UNC, \\\\?\\, //host): %w", p, ErrOutside)
	case len(p) >= 4 && isSep(p[0]) && p[1] == '?' && p[2] == '?' && isSep(p[3]):
		return "", fmt.Errorf("%q is an object-manager path: %w", p, ErrOutside)
	case hasDrive(p):
		if len(p) == 2 || !isSep(p[2]) {
			return "", fmt.Errorf("%q is relative to a drive's current folder: %w", p, ErrOutside)
		}
		if !hasDrive(root) || !strings.EqualFold(p[:2], root[:2]) {
			return "", fmt.Errorf("%q is on another drive than the workspace: %w", p, ErrOutside)
		}
		abs, rest = true, p[2:]
	case isSep(p[0]):
		if hasDrive(root) || root == "" || !isSep(root[0]) {
			return "", fmt.Errorf("%q is rooted on the current drive, not in the workspace: %w", p, ErrOutside)
		}
		abs = true
	}
	comps := split(rest)
	for _, c := range comps {
		if err := component(c); err != nil {
			return "", fmt.Errorf("path %q: %w", p, err)
		}
	}
	var out []string
	if abs {
		full, _ := clean(comps) // "/.." is "/", as the OS has it
		body := root
		if hasDrive(root) {
			body = root[2:]
		}
		r, _ := clean(split(body))
		if len(full) < len(r) {
			return "", fmt.Errorf("%q: %w", p, ErrOutside)
		}
		for i := range r {
			if full[i] != r[i] && !(hasDrive(root) && strings.EqualFold(full[i], r[i])) {
				return "", fmt.Errorf("%q: %w", p, ErrOutside)
			}
		}
		out = full[len(r):]
	} else {
		var up bool
		if out, up = clean(comps); up {
			return "", fmt.Errorf("%q: %w", p, ErrOutside)
		}
	}
	if len(out) == 0 {
		return ".", nil
	}
	return strings.Join(out, "/"), nil
}

func isSep(c byte) bool { return c == '/' || c == '\\' }

func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

// split cuts p at either separator, dropping empty components.
func split(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
}

// clean applies "." and ".."; up reports a ".." above the start.
func clean(comps []string) (out []string, up bool) {
	for _, c := range comps {
		switch c {
		case ".":
		case "..":
			if len(out) == 0 {
				up = true
				continue
			}
			out = out[:len(out)-1]
		default:
			out = append(out, c)
		}
	}
	return out, up
}

// component refuses a name Windows would not take at its word.
func component(c string) error {
	if c == "." || c == ".." {
		return nil
	}
	if strings.ContainsRune(c, ':') {
		return fmt.Errorf("%q names a drive or a stream: %w", c, ErrOutside)
	}
	if strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
		return fmt.Errorf("%q ends in a dot or a space, which Windows drops: %w", c, ErrOutside)
	}
	for _, r := range c {
		if r < 0x20 {
			return fmt.Errorf("%q holds a control character: %w", c, ErrOutside)
		}
	}
	if isDevice(c) {
		return fmt.Errorf("%q is a device name: %w", c, ErrOutside)
	}
	return nil
}

// isDevice reports a Windows reserved device name, with any extension.
func isDevice(c string) bool {
	stem := c
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && '0' <= stem[3] && stem[3] <= '9' {
		return true
	}
	for _, sup := range []string{"¹", "²", "³"} {
		if stem == "COM"+sup || stem == "LPT"+sup {
			return true
		}
	}
	return false
}
