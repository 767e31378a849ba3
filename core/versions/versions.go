// Package versions keeps named versions of a build's theme: copies of its
// theme.json saved by the designer under a name, in the workspace's
// versions/ folder, one file each. Nothing is written outside the
// workspace, and what is read back is bounded like theme.json itself.
package versions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
)

// Folder is the versions' folder inside a workspace.
const Folder = "versions"

// Limits: a name is a label, not a document; a build keeps a few dozen versions.
const (
	MaxName     = 80
	MaxVersions = 200
)

// Version is one saved version, without its theme.
type Version struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created" ts_type:"string"`
}

// file is a version on disk: its name and time beside the theme.json it copies.
type file struct {
	Name    string          `json:"name"`
	Created time.Time       `json:"created"`
	Theme   json.RawMessage `json:"theme"`
}

var idPattern = regexp.MustCompile(`^[0-9]{8}-[0-9]{9}(-[0-9]{1,3})?$`)

// cleanName trims a name and refuses an empty, long or control-laden one.
func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errors.New("a version needs a name")
	case !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxName:
		return "", fmt.Errorf("a version's name is at most %d characters", MaxName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", errors.New("a version's name is one line of text")
	}
	return name, nil
}

// Save copies the workspace's theme.json as a version named name. The
// theme must be valid: a version is something to go back to.
func Save(wsDir, name string, now time.Time) (Version, error) {
	name, err := cleanName(name)
	if err != nil {
		return Version{}, err
	}
	data, err := fsread.ReadFile(filepath.Join(wsDir, theme.FileName), theme.MaxFileSize, fsread.NoFollow)
	if err != nil {
		return Version{}, fmt.Errorf("read the theme to save: %w", err)
	}
	if st := themewatch.StateOf(data); st.Error != "" {
		return Version{}, fmt.Errorf("theme.json has problems; save a version once it is valid: %s", st.Error)
	}
	have, err := List(wsDir)
	if err != nil {
		return Version{}, err
	}
	if len(have) >= MaxVersions {
		return Version{}, fmt.Errorf("this build has %d versions, the most it keeps; delete some first", len(have))
	}
	now = now.UTC()
	id := now.Format("20060102-150405") + fmt.Sprintf("%03d", now.Nanosecond()/1e6)
	taken := map[string]bool{}
	for _, v := range have {
		taken[v.ID] = true
	}
	for n := 1; taken[id]; n++ {
		id = fmt.Sprintf("%s-%d", id[:18], n)
	}
	out, err := json.MarshalIndent(file{Name: name, Created: now, Theme: json.RawMessage(data)}, "", "  ")
	if err != nil {
		return Version{}, fmt.Errorf("encode version: %w", err)
	}
	d, err := fswrite.Open(wsDir, Folder)
	if err != nil {
		return Version{}, fmt.Errorf("versions folder: %w", err)
	}
	defer d.Close()
	if _, err := d.WriteFile(id+".json", out, 0o644); err != nil {
		return Version{}, fmt.Errorf("save version: %w", err)
	}
	return Version{ID: id, Name: name, Created: now}, nil
}

func read(wsDir, id string) (file, error) {
	if !idPattern.MatchString(id) {
		return file{}, fmt.Errorf("version %q: not a version id", id)
	}
	// A version holds a theme.json (at most MaxFileSize) and a little more.
	b, err := fsread.ReadFile(filepath.Join(wsDir, Folder, id+".json"), theme.MaxFileSize+4096, fsread.NoFollow)
	if err != nil {
		return file{}, fmt.Errorf("version %s: %w", id, err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return file{}, fmt.Errorf("version %s: %w", id, err)
	}
	return f, nil
}

// List returns the saved versions, newest first; a damaged file is left out.
func List(wsDir string) ([]Version, error) {
	entries, err := os.ReadDir(filepath.Join(wsDir, Folder))
	if errors.Is(err, fs.ErrNotExist) {
		return []Version{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list versions: %w", err)
	}
	out := []Version{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || !idPattern.MatchString(id) || len(out) >= MaxVersions {
			continue
		}
		f, err := read(wsDir, id)
		if err != nil {
			continue
		}
		name, err := cleanName(f.Name)
		if err != nil {
			continue
		}
		out = append(out, Version{ID: id, Name: name, Created: f.Created})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out, nil
}

// Theme is a version's theme as the preview reads it.
func Theme(wsDir, id string) (themewatch.State, error) {
	f, err := read(wsDir, id)
	if err != nil {
		return themewatch.State{}, err
	}
	return themewatch.StateOf(f.Theme), nil
}
