// Package damaged sets aside a file of the user's that no longer parses
// (NAME.corrupt-<time> beside it) instead of letting defaults be written
// over it, and keeps the list of what was set aside so the UI can say what
// happened and where the copy is.
package damaged

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Notice is one damaged file, moved aside.
type Notice struct {
	Path   string    `json:"path"`   // where the file was (and a fresh one will be)
	Copy   string    `json:"copy"`   // where the damaged file is now
	Reason string    `json:"reason"` // why it was not readable
	When   time.Time `json:"when" ts_type:"string"`
}

// maxNotices bounds the list kept for the UI.
const maxNotices = 32

var (
	mu      sync.Mutex
	notices []Notice
	notify  func(Notice)
)

// OnNotice has f called with every file set aside from now on (the app
// tells the window). nil stops it.
func OnNotice(f func(Notice)) {
	mu.Lock()
	notify = f
	mu.Unlock()
}

// Notices are the files set aside in this process, oldest first.
func Notices() []Notice {
	mu.Lock()
	defer mu.Unlock()
	return append([]Notice(nil), notices...)
}

// Suffix marks a copy set aside; the time makes each one new.
const Suffix = ".corrupt-"

// SetAside renames path to path.corrupt-<UTC time> and records why; the
// caller then starts from defaults without overwriting anything. An error
// means the file is still at path: the caller must not write over it.
func SetAside(path string, why error) (Notice, error) {
	now := time.Now().UTC()
	copyPath := path + Suffix + now.Format("20060102T150405Z")
	for i := 2; ; i++ { // two in one second: never replace an earlier copy
		if _, err := os.Lstat(copyPath); errors.Is(err, fs.ErrNotExist) {
			break
		}
		copyPath = fmt.Sprintf("%s%s%s-%d", path, Suffix, now.Format("20060102T150405Z"), i)
	}
	if err := os.Rename(path, copyPath); err != nil {
		return Notice{}, fmt.Errorf("set aside the damaged %s: %w", path, err)
	}
	n := Notice{Path: path, Copy: copyPath, When: now}
	if why != nil {
		n.Reason = why.Error()
	}
	mu.Lock()
	notices = append(notices, n)
	if len(notices) > maxNotices {
		notices = notices[len(notices)-maxNotices:]
	}
	f := notify
	mu.Unlock()
	if f != nil {
		f(n)
	}
	return n, nil
}

// Error is the error a reader returns for a file it set aside: the
// defaults are in use and the damaged file is at Copy.
type Error struct{ Notice }

func (e *Error) Error() string {
	return fmt.Sprintf("%s could not be read (%s); it was moved to %s and defaults are used", e.Path, e.Reason, e.Copy)
}

// Handle sets path aside after parseErr and returns the error to report:
// an *Error when it was moved, else why it could not be (then nothing may
// be written at path).
func Handle(path string, parseErr error) error {
	n, err := SetAside(path, parseErr)
	if err != nil {
		return errors.Join(parseErr, err)
	}
	return &Error{n}
}
