// Package workspace manages theme-builder workspaces: one folder per New
// Build under <data dir>/theme_builder/{id}, where the agent writes
// theme.json, plus the folder's metadata (.cdxtheme.json).
package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"cdxtheme/core/damaged"
	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/paths"
)

// MetaFile is the metadata file inside each workspace folder.
const MetaFile = ".cdxtheme.json"

// DefaultTitle is used when a workspace is created without one.
const DefaultTitle = "Untitled theme"

const maxTitle = 120 // runes

// Meta describes a workspace.
type Meta struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	Created    time.Time `json:"created" ts_type:"string"`
	SessionIDs []string  `json:"sessionIds"`
	Model      string    `json:"model"`
	Dir        string    `json:"dir"` // absolute folder; recomputed on read, so a moved data dir still works
	// FollowsTheme: the title is the app's (the first line of the prompt,
	// an imported theme's name) and follows the name theme.json gives the
	// theme; false once the user named the build (Rename), for a
	// duplicate, and for builds made before the flag (their titles may be
	// the user's).
	FollowsTheme bool `json:"followsTheme,omitempty"`
}

// Root is where workspaces live: <data dir>/theme_builder.
func Root() string { return filepath.Join(paths.DataDir(), "theme_builder") }

// idPattern: UTC creation time then 6 random hex digits, so ids sort by age
// and can never name a path outside the root.
var idPattern = regexp.MustCompile(`^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$`)

// ValidID reports whether id has the workspace id form.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// mu serialises read-modify-write of metadata within the process (the GUI
// may record a session while the user renames the workspace).
var mu sync.Mutex

// Create makes a new workspace folder under root with its metadata and the
// AGENTS.md that tells the agent the theme format.
func Create(root, title, model string) (Meta, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Meta{}, fmt.Errorf("create workspace: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return Meta{}, fmt.Errorf("create workspace root: %w", err)
	}
	tightenDir(abs)
	now := time.Now().UTC()
	for attempt := 0; ; attempt++ {
		id, err := newID(now)
		if err != nil {
			return Meta{}, err
		}
		dir := filepath.Join(abs, id)
		if err := os.Mkdir(dir, 0o700); errors.Is(err, fs.ErrExist) && attempt < 10 {
			continue // same second and same random suffix: draw again
		} else if err != nil {
			return Meta{}, fmt.Errorf("create workspace: %w", err)
		}
		m := Meta{ID: id, Title: cleanTitle(title), Created: now, SessionIDs: []string{}, Model: model, Dir: dir, FollowsTheme: true}
		if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(AgentsMD()), 0o600); err != nil {
			os.RemoveAll(dir)
			return Meta{}, fmt.Errorf("create workspace %s: %w", id, err)
		}
		if err := write(m); err != nil {
			os.RemoveAll(dir)
			return Meta{}, err
		}
		return m, nil
	}
}

func newID(t time.Time) (string, error) {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("workspace id: %w", err)
	}
	return t.Format("20060102-150405") + "-" + hex.EncodeToString(b[:]), nil
}

// Open reads a workspace's metadata. The id is checked first, so a caller
// passing user input cannot reach outside root.
func Open(root, id string) (Meta, error) {
	if !ValidID(id) {
		return Meta{}, fmt.Errorf("open workspace: %q is not a workspace id", id)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return Meta{}, fmt.Errorf("open workspace %s: %w", id, err)
	}
	m, err := read(filepath.Join(abs, id), id)
	if err == nil {
		tighten(abs, m.Dir)
	}
	return m, err
}

// maxMeta bounds .cdxtheme.json (a few hundred bytes); the agent can
// replace it with anything, so it is read like any workspace file: never
// through a link, never from a FIFO or device, never past the limit.
const maxMeta = 64 << 10

// metaMu keeps this process's reads of a workspace's metadata apart from
// its writes: on Windows a rename cannot replace a file another handle has
// open (Access denied), so a write (a session recorded, a rename) could
// fail whenever another goroutine was reading the file.
var metaMu sync.RWMutex

// readMeta reads dir's metadata file under metaMu.
func readMeta(dir string) ([]byte, error) {
	metaMu.RLock()
	defer metaMu.RUnlock()
	return fsread.ReadFile(filepath.Join(dir, MetaFile), maxMeta, fsread.NoFollow)
}

func read(dir, id string) (Meta, error) {
	b, err := readMeta(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(dir); serr != nil {
				return Meta{}, fmt.Errorf("open workspace %s: no such workspace", id)
			}
		}
		return Meta{}, fmt.Errorf("open workspace %s: %w", id, err)
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return rebuild(dir, id, fmt.Errorf("parse %s: %w", MetaFile, err))
	}
	if m.ID != id {
		return Meta{}, fmt.Errorf("open workspace %s: %s says id %q", id, MetaFile, m.ID)
	}
	m.Dir = dir
	if m.SessionIDs == nil {
		m.SessionIDs = []string{}
	}
	if strings.TrimSpace(m.Title) == "" {
		m.Title = DefaultTitle
	}
	return m, nil
}

// rebuild sets a damaged metadata file aside (core/damaged) and writes a
// new one from the folder: its id from the folder's name (with the time it
// was made), its title from theme.json. The build stays on Home; only the
// session list it kept is gone (the sessions themselves are Codex's).
func rebuild(dir, id string, why error) (Meta, error) {
	if err := damaged.Handle(filepath.Join(dir, MetaFile), why); !errors.As(err, new(*damaged.Error)) {
		return Meta{}, fmt.Errorf("open workspace %s: %w", id, err)
	}
	m := Meta{ID: id, Title: DefaultTitle, SessionIDs: []string{}, Dir: dir, FollowsTheme: true}
	if t, err := time.Parse("20060102-150405", id[:15]); err == nil {
		m.Created = t.UTC()
	}
	if name := themeName(dir); name != "" {
		m.Title = cleanTitle(name)
	}
	if err := write(m); err != nil {
		return Meta{}, err
	}
	return m, nil
}

// maxThemeName bounds the theme.json read for a title.
const maxThemeName = 4 << 20

// themeName is the name theme.json in dir gives the theme, "" without one.
func themeName(dir string) string {
	b, err := fsread.ReadFile(filepath.Join(dir, ThemeFile), maxThemeName, fsread.NoFollow)
	if err != nil {
		return ""
	}
	var th struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(b, &th) != nil {
		return ""
	}
	return strings.TrimSpace(th.Name)
}

func write(m Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write workspace %s: %w", m.ID, err)
	}
	// The agent writes this folder too: a link or FIFO it left at the
	// metadata's name is refused, never followed.
	dir, err := fswrite.Open(m.Dir, "")
	if err != nil {
		return fmt.Errorf("write workspace %s: %w", m.ID, err)
	}
	defer dir.Close()
	metaMu.Lock()
	_, err = dir.WriteFile(MetaFile, append(b, '\n'), 0o600)
	metaMu.Unlock()
	if err != nil {
		return fmt.Errorf("write workspace %s: %w", m.ID, err)
	}
	return nil
}

// List returns the workspaces under root, newest first. Folders whose
// metadata is missing or corrupt are skipped and reported in problems; a
// missing root is an empty list.
func List(root string) (list []Meta, problems []error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, []error{fmt.Errorf("list workspaces: %w", err)}
	}
	entries, err := os.ReadDir(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("list workspaces: %w", err)}
	}
	for _, e := range entries {
		if !e.IsDir() || !ValidID(e.Name()) {
			continue
		}
		m, err := read(filepath.Join(abs, e.Name()), e.Name())
		if err != nil {
			problems = append(problems, err)
			continue
		}
		list = append(list, m)
	}
	// Created has sub-second precision; ids only have seconds.
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Created.Equal(list[j].Created) {
			return list[i].Created.After(list[j].Created)
		}
		return list[i].ID > list[j].ID
	})
	return list, problems
}

// update applies fn to a workspace's metadata and saves it.
func update(root, id string, fn func(*Meta)) (Meta, error) {
	m, _, err := updateIf(root, id, func(m *Meta) bool { fn(m); return true })
	return m, err
}

// updateIf is update that saves only when fn reports a change.
func updateIf(root, id string, fn func(*Meta) bool) (Meta, bool, error) {
	mu.Lock()
	defer mu.Unlock()
	m, err := Open(root, id)
	if err != nil {
		return Meta{}, false, err
	}
	if !fn(&m) {
		return m, false, nil
	}
	if err := write(m); err != nil {
		return Meta{}, false, err
	}
	return m, true, nil
}

// AddSession records a Codex session id used in the workspace (once).
func AddSession(root, id, sessionID string) (Meta, error) {
	if strings.TrimSpace(sessionID) == "" {
		return Meta{}, fmt.Errorf("workspace %s: empty session id", id)
	}
	return update(root, id, func(m *Meta) {
		for _, s := range m.SessionIDs {
			if s == sessionID {
				return
			}
		}
		m.SessionIDs = append(m.SessionIDs, sessionID)
	})
}

// SetTitle gives a workspace the app's title for it (a new build's
// prompt); it still follows its theme's name (see Rename for the user's).
func SetTitle(root, id, title string) (Meta, error) {
	return update(root, id, func(m *Meta) { m.Title = cleanTitle(title) })
}

// Rename gives a build the user's name, which it keeps from then on
// whatever theme.json says. An empty name hands the build back to its
// theme: it takes the theme's name, now and after each change.
func Rename(root, id, title string) (Meta, error) {
	return update(root, id, func(m *Meta) {
		if strings.TrimSpace(title) != "" {
			m.Title, m.FollowsTheme = cleanTitle(title), false
			return
		}
		m.FollowsTheme = true
		if name := themeName(m.Dir); name != "" {
			m.Title = cleanTitle(name)
		}
	})
}

// FollowTheme titles a build that follows its theme (FollowsTheme) after
// name, the theme's name in a valid theme.json just read; a build the user
// named keeps its title. changed reports whether the title moved.
func FollowTheme(root, id, name string) (m Meta, changed bool, err error) {
	return updateIf(root, id, func(m *Meta) bool {
		if !m.FollowsTheme || strings.TrimSpace(name) == "" || m.Title == cleanTitle(name) {
			return false
		}
		m.Title = cleanTitle(name)
		return true
	})
}

// SessionTitles is titles (the user's own names for sessions, by session
// id) with every session a build recorded named after its build: a build's
// chats go by the build's name everywhere. titles itself is not changed.
func SessionTitles(root string, titles map[string]string) map[string]string {
	out := make(map[string]string, len(titles))
	for id, t := range titles {
		out[id] = t
	}
	list, _ := List(root)
	for _, m := range list {
		for _, s := range m.SessionIDs {
			out[s] = m.Title
		}
	}
	return out
}

// BySession is the build that recorded session id, if any.
func BySession(root, sessionID string) (Meta, bool) {
	list, _ := List(root)
	for _, m := range list {
		if slices.Contains(m.SessionIDs, sessionID) {
			return m, true
		}
	}
	return Meta{}, false
}

// SetModel records the model last used in the workspace.
func SetModel(root, id, model string) (Meta, error) {
	return update(root, id, func(m *Meta) { m.Model = model })
}

// cleanTitle makes one line of at most maxTitle runes; a prompt pasted as
// title may be long and multi-line.
func cleanTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return DefaultTitle
	}
	if utf8.RuneCountInString(s) > maxTitle {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:maxTitle-1])) + "…"
	}
	return s
}
