// Package publish holds a build's publish metadata: the publisher, version,
// repository, licence and description its packages (the .vsix and the Zed
// extension) carry. It is kept per build in the workspace's hidden
// .cdxtheme folder, beside the checkpoints and out of their reach, so a
// restore never takes the version back and a later publish never reuses
// one. The file sits in a folder the agent can write to: every value read
// back is validated like one the user typed.
package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
)

// File is the metadata's place inside a workspace (slash-separated).
const File = ".cdxtheme/publish.json"

// Limits: ids and versions are short; a description is the one line the
// marketplaces show under the name.
const (
	MaxPublisher   = 64
	MaxVersion     = 32
	MaxRepository  = 300
	MaxLicense     = 64
	MaxDescription = 300
	maxFile        = 16 << 10
)

// Meta is a build's publish metadata. Version is the version the next
// publish writes; each publish then bumps its patch number.
type Meta struct {
	Publisher   string `json:"publisher"`
	Version     string `json:"version"`
	Repository  string `json:"repository"`
	License     string `json:"license"`
	Description string `json:"description"`
}

// Default is what a build publishes with until the designer sets its own:
// the app's publisher id, the first patch version, MIT.
func Default() Meta {
	return Meta{Publisher: "cdxtheme", Version: "0.0.1", License: "MIT"}
}

// vsce's rule for publisher and extension ids (validation.js nameRegex).
var publisherPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9-]*$`)

// semver core, without leading zeros (semver.org, what vsce's semver.valid
// accepts); pre-release and build tags are refused: a patch bump of them
// has no one meaning.
var versionPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// An SPDX licence id or expression's characters ("MIT", "Apache-2.0",
// "GPL-3.0-or-later", "MIT OR Apache-2.0").
var licensePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+-]*( (AND|OR|WITH) [A-Za-z0-9][A-Za-z0-9.+-]*)*$`)

// Clean trims every field and checks it; the error names each field that
// is wrong and why, in the words the form shows.
func (m Meta) Clean() (Meta, error) {
	m.Publisher = strings.TrimSpace(m.Publisher)
	m.Version = strings.TrimSpace(m.Version)
	m.Repository = strings.TrimSpace(m.Repository)
	m.License = strings.TrimSpace(m.License)
	m.Description = strings.TrimSpace(m.Description)
	var errs []error
	switch {
	case m.Publisher == "":
		errs = append(errs, errors.New("publisher: needed (the id of your publisher on the marketplace, e.g. my-name)"))
	case len(m.Publisher) > MaxPublisher:
		errs = append(errs, fmt.Errorf("publisher: at most %d characters", MaxPublisher))
	case !publisherPattern.MatchString(m.Publisher):
		errs = append(errs, fmt.Errorf("publisher: %q is not a publisher id (letters, digits and dashes, starting with a letter or digit)", clip(m.Publisher)))
	}
	if len(m.Version) > MaxVersion || !versionPattern.MatchString(m.Version) {
		errs = append(errs, fmt.Errorf("version: %q is not a version like 1.2.3 (three numbers, no leading zeros)", clip(m.Version)))
	}
	if m.Repository != "" {
		if err := checkRepository(m.Repository); err != nil {
			errs = append(errs, err)
		}
	}
	switch {
	case m.License == "":
		errs = append(errs, errors.New("licence: needed (an SPDX id such as MIT or Apache-2.0)"))
	case len(m.License) > MaxLicense || !licensePattern.MatchString(m.License):
		errs = append(errs, fmt.Errorf("licence: %q is not an SPDX id such as MIT or Apache-2.0", clip(m.License)))
	}
	switch {
	case !utf8.ValidString(m.Description) || utf8.RuneCountInString(m.Description) > MaxDescription:
		errs = append(errs, fmt.Errorf("description: at most %d characters", MaxDescription))
	case strings.IndexFunc(m.Description, unicode.IsControl) >= 0:
		errs = append(errs, errors.New("description: one line of text"))
	}
	return m, errors.Join(errs...)
}

// checkRepository allows an https URL of a host, nothing else: the link is
// shown on the marketplace and opened by whoever reads it.
func checkRepository(s string) error {
	if len(s) > MaxRepository {
		return fmt.Errorf("repository: at most %d characters", MaxRepository)
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return fmt.Errorf("repository: %q is not a URL", clip(s))
	case u.Scheme != "https":
		return fmt.Errorf("repository: %q must start with https://", clip(s))
	case u.Host == "" || u.User != nil || u.Opaque != "":
		return fmt.Errorf("repository: %q needs a host, such as https://github.com/you/theme", clip(s))
	}
	return nil
}

// clip shortens a refused value for its error message.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

// Bump is v with its patch number one higher ("0.0.1" → "0.0.2").
func Bump(v string) (string, error) {
	m := versionPattern.FindStringSubmatch(v)
	if m == nil {
		return "", fmt.Errorf("version %q is not like 1.2.3", clip(v))
	}
	patch, err := strconv.ParseUint(m[3], 10, 32)
	if err != nil || patch+1 > 1<<31 {
		return "", fmt.Errorf("version %q: the patch number is too large to bump", clip(v))
	}
	return fmt.Sprintf("%s.%s.%d", m[1], m[2], patch+1), nil
}

// Load reads the workspace's metadata: Default when there is none yet,
// an error naming the file when it is unreadable or a value is wrong.
func Load(wsDir string) (Meta, error) {
	p := filepath.Join(wsDir, filepath.FromSlash(File))
	data, err := fsread.ReadFile(p, maxFile, fsread.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Meta{}, fmt.Errorf("read the publish settings: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, fmt.Errorf("read the publish settings %s: %w", p, err)
	}
	m, err = m.Clean()
	if err != nil {
		return Meta{}, fmt.Errorf("the publish settings in %s: %w", p, err)
	}
	return m, nil
}

// Save checks m and writes it into the workspace, returning what was saved.
func Save(wsDir string, m Meta) (Meta, error) {
	m, err := m.Clean()
	if err != nil {
		return Meta{}, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Meta{}, err
	}
	dir, err := fswrite.Open(wsDir, path.Dir(File))
	if err != nil {
		return Meta{}, fmt.Errorf("save the publish settings: %w", err)
	}
	defer dir.Close()
	if _, err := dir.WriteFile(path.Base(File), append(data, '\n'), 0o600); err != nil {
		return Meta{}, fmt.Errorf("save the publish settings: %w", err)
	}
	return m, nil
}
