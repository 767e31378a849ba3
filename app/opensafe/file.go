package opensafe

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"
)

// A file the agent wrote is opened with the OS's default handler only when
// it is one of a few types that handler shows rather than runs: images,
// text, JSON, PDF. Its type is decided as the desktop decides it: by the
// shared-mime-info glob rules (/usr/share/mime/globs2, as xdg-mime reads
// them; a built-in table where there is none, as on Windows), and its
// content must agree with that type. Everything else (desktop entries by
// any name, programs, scripts, shortcuts, every Windows shell-handled type,
// a name the OS would read differently) is revealed in its folder instead.

// viewable is the allowlist: MIME type → does the file's start fit it.
var viewable = map[string]func(head []byte) bool{
	"image/png":  prefix("\x89PNG\r\n\x1a\n"),
	"image/jpeg": prefix("\xff\xd8\xff"),
	"image/gif": func(h []byte) bool {
		return bytes.HasPrefix(h, []byte("GIF87a")) || bytes.HasPrefix(h, []byte("GIF89a"))
	},
	"image/webp":       func(h []byte) bool { return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == "WEBP" },
	"image/bmp":        prefix("BM"),
	"application/pdf":  prefix("%PDF-"),
	"text/plain":       plainText,
	"text/markdown":    plainText,
	"text/csv":         plainText,
	"text/css":         plainText,
	"application/json": plainText,
	"application/toml": plainText,
	"application/yaml": plainText,
}

func prefix(p string) func([]byte) bool {
	return func(h []byte) bool { return bytes.HasPrefix(h, []byte(p)) }
}

// plainText is UTF-8 with no NUL that no launcher takes for its own: no
// shebang, no desktop entry group.
func plainText(h []byte) bool {
	if bytes.IndexByte(h, 0) >= 0 || bytes.HasPrefix(h, []byte("#!")) {
		return false
	}
	// The head may end inside a character.
	for i := 0; i < utf8.UTFMax-1 && len(h) > 0 && !utf8.Valid(h); i++ {
		h = h[:len(h)-1]
	}
	if !utf8.Valid(h) {
		return false
	}
	for _, line := range bytes.Split(bytes.TrimPrefix(h, []byte("\xef\xbb\xbf")), []byte("\n")) {
		if l := bytes.TrimSpace(line); bytes.EqualFold(l, []byte("[Desktop Entry]")) || bytes.EqualFold(l, []byte("[KDE Desktop Entry]")) {
			return false
		}
	}
	return true
}

// builtinGlobs stand in for shared-mime-info where it is not installed.
var builtinGlobs = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp", ".bmp": "image/bmp",
	".pdf": "application/pdf", ".txt": "text/plain", ".text": "text/plain", ".log": "text/plain", ".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".css": "text/css", ".json": "application/json", ".toml": "application/toml", ".yaml": "application/yaml", ".yml": "application/yaml",
}

type glob struct {
	weight  int
	mime    string
	pattern string
	cs      bool
}

var (
	globsOnce sync.Once
	globs     []glob // nil: no shared-mime-info here
)

// mimeDirs are where shared-mime-info keeps its database, most important first.
func mimeDirs() []string {
	home := os.Getenv("XDG_DATA_HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".local", "share")
		}
	}
	dirs := []string{home}
	sys := os.Getenv("XDG_DATA_DIRS")
	if sys == "" {
		sys = "/usr/local/share:/usr/share"
	}
	return append(dirs, filepath.SplitList(sys)...)
}

func loadGlobs() {
	if goruntime.GOOS == "windows" || goruntime.GOOS == "darwin" {
		return
	}
	for _, d := range mimeDirs() {
		if d == "" {
			continue
		}
		f, err := os.Open(filepath.Join(d, "mime", "globs2"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(io.LimitReader(f, 8<<20))
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' {
				continue
			}
			parts := strings.Split(line, ":")
			if len(parts) < 3 {
				continue
			}
			w, err := strconv.Atoi(parts[0])
			if err != nil || parts[1] == "__NOGLOBS__" {
				continue
			}
			g := glob{weight: w, mime: parts[1], pattern: parts[2]}
			if len(parts) > 3 && strings.Contains(parts[3], "cs") {
				g.cs = true
			} else {
				g.pattern = strings.ToLower(g.pattern)
			}
			globs = append(globs, g)
		}
		f.Close()
	}
}

// mimeByName is the type the desktop gives name by its globs: the highest
// weight, then the longest pattern ("" when none matches).
func mimeByName(name string) string {
	globsOnce.Do(loadGlobs)
	if globs == nil {
		return builtinGlobs[strings.ToLower(filepath.Ext(name))]
	}
	lower := strings.ToLower(name)
	var best *glob
	for i := range globs {
		g := &globs[i]
		n := lower
		if g.cs {
			n = name
		}
		if ok, _ := path.Match(g.pattern, n); !ok {
			continue
		}
		if best == nil || g.weight > best.weight || g.weight == best.weight && len(g.pattern) > len(best.pattern) {
			best = g
		}
	}
	if best == nil {
		return ""
	}
	return best.mime
}

// RevealReason says why path must be revealed rather than opened ("" when
// it may be opened). path is already resolved inside the workspace.
func RevealReason(p string) (string, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	name := filepath.Base(p)
	switch {
	case info.IsDir():
		if ext := strings.ToLower(filepath.Ext(name)); ext == ".app" || ext == ".appimage" || ext == ".workflow" || ext == ".action" {
			return "an application bundle", nil
		}
		return "", nil // a folder opens in the file manager
	case !info.Mode().IsRegular():
		return "not a regular file", nil // FIFO, socket, device: never handed on
	case goruntime.GOOS != "windows" && info.Mode().Perm()&0o111 != 0:
		return "executable", nil
	case strings.TrimRight(name, " .") != name:
		return "a name ending in a space or dot, which Windows reads as another", nil
	}
	mt := mimeByName(name)
	fits, ok := viewable[mt]
	if !ok {
		if mt == "" {
			mt = "no known type"
		}
		return "not a type the app opens (" + mt + ")", nil
	}
	// O_NONBLOCK: should the file have been swapped for a FIFO since Lstat,
	// the open does not wait for a writer.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "not a regular file", nil
	}
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	if !fits(head[:n]) {
		return "its content is not " + mt, nil
	}
	return "", nil
}
