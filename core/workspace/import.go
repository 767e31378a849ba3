package workspace

import (
	"fmt"
	"os"
	"path/filepath"
)

// ThemeFile is the theme document's name at the workspace root (the same
// name core/theme reads).
const ThemeFile = "theme.json"

// CreateWithTheme makes a new workspace whose theme.json is doc (an
// imported theme). The folder is new, so nothing in it can be a symlink;
// O_EXCL makes sure the file is created, not followed.
func CreateWithTheme(root, title string, doc []byte) (Meta, error) {
	m, err := Create(root, title, "")
	if err != nil {
		return Meta{}, err
	}
	f, err := os.OpenFile(filepath.Join(m.Dir, ThemeFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.Write(doc)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(m.Dir)
		return Meta{}, fmt.Errorf("create workspace %s: write %s: %w", m.ID, ThemeFile, err)
	}
	return m, nil
}
