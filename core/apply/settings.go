package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/fsread"
	"cdxtheme/core/install"
)

// maxSetting bounds a settings file Plan reads to find a setting in; a
// larger one is left to the user (settings files are a few KiB).
const maxSetting = 1 << 20

// settingEdit is the file a line step's change would leave, for Apply to
// write when the user asks it to (InstallPlan.Change).
type settingEdit struct {
	step int
	file PlannedFile
}

// planSettings works out, for each line step, what its file holds now and
// what changing it would write: the step's State, Old, New, Reason and
// Edit. It writes nothing.
func planSettings(plan *InstallPlan) {
	editing := map[string]bool{}
	for i := range plan.Steps {
		st := &plan.Steps[i]
		if st.Kind != "line" {
			continue
		}
		data, was, old := planSetting(st)
		if !st.Edit {
			continue
		}
		if editing[st.File] {
			// Two changes to one file would each be planned on the bytes
			// of today: the second is left to the user.
			st.Edit, st.State, st.Reason = false, "manual", "another step changes this file; add this yourself after applying"
			continue
		}
		editing[st.File] = true
		plan.edits = append(plan.edits, settingEdit{step: i, file: PlannedFile{
			Path: st.File, Exists: was != "absent", data: data, was: was, undo: lineDiff(old, data)}})
	}
}

// planSetting fills st's State and returns the file as the change would
// leave it, what is there now (fileState), and its bytes.
func planSetting(st *install.Step) ([]byte, string, []byte) {
	manual := func(format string, a ...any) ([]byte, string, []byte) {
		st.State, st.Reason = "manual", fmt.Sprintf(format, a...)
		return nil, "", nil
	}
	s := st.Setting
	if st.State == "manual" {
		// Its planner knows Apply cannot do it (a file the user picks,
		// refused with a setting when the manifest loaded): Reason says.
		return nil, "", nil
	}
	if st.File == "" || !filepath.IsAbs(st.File) {
		return manual("the file depends on your setup; add the line yourself")
	}
	if s != nil {
		for _, path := range slices.Sorted(maps.Keys(s.Blockers)) {
			if exists(path) {
				return manual("%s", s.Blockers[path])
			}
		}
	}
	if onRead != nil {
		onRead(st.File)
	}
	b, err := fsread.ReadFile(st.File, maxSetting, fsread.NoFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		switch {
		case s == nil:
			return manual("Apply does not write this file; create it with the line yourself")
		case s.NoCreate != "":
			return manual("%s", s.NoCreate)
		}
		st.State, st.New, st.Edit = "create", oneLine(addOf(s, st.Text)), true
		c := s.Create
		if c == "" {
			c = addOf(s, st.Text) + "\n"
		}
		return []byte(c), "absent", nil
	case errors.Is(err, fsread.ErrSymlink):
		return manual("%s is a symbolic link; Apply does not change the file it points to, so add the line there yourself", st.File)
	case errors.Is(err, fsread.ErrTooLarge):
		return manual("%s is larger than %s, more than a settings file holds; it was left alone", st.File, fsread.Size(maxSetting))
	case err != nil:
		return manual("%v; it was left alone", err)
	}
	if s == nil {
		if holdsLines(b, st.Text) {
			st.State = "set"
			return nil, "", nil
		}
		return manual("Apply does not change this file; add the line yourself")
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return manual("%s is not text; it was left alone", st.File)
	}
	var r edited
	switch s.Syntax {
	case "json":
		r, err = editJSON(b, s)
	case "toml":
		r, err = editTOML(b, s)
	case "lines":
		r, err = editLines(b, s, st.Text)
	default:
		err = fmt.Errorf("no editor for %q files", s.Syntax)
	}
	if err != nil {
		return manual("%s %v, so it was left alone; add the line yourself", filepath.Base(st.File), err)
	}
	st.State, st.Old, st.New = r.state, oneLine(r.old), oneLine(r.new)
	if r.state == "set" {
		return nil, "", nil
	}
	st.Edit = true
	return r.data, digest(b), b
}

// textUndo takes a setting's change back out of a file the user changed
// since elsewhere: Find, the lines the change left, becomes Put, the
// lines as they were, when Find is in the file exactly once.
type textUndo struct {
	Find string `json:"find"`
	Put  string `json:"put"`
}

// lineDiff is the undo of the change from old to new: the whole lines
// around the bytes that differ, so what is found is the setting's line,
// not a fragment of a value that could be anywhere.
func lineDiff(old, new []byte) *textUndo {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	q := 0
	for q < len(old)-p && q < len(new)-p && old[len(old)-1-q] == new[len(new)-1-q] {
		q++
	}
	start := bytes.LastIndexByte(new[:p], '\n') + 1
	end := len(new) - q
	if i := bytes.IndexByte(new[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(new)
	}
	tail := len(new) - end // the same bytes end old
	return &textUndo{Find: string(new[start:end]), Put: string(old[start : len(old)-tail])}
}

// undoText is data with u's change taken back, or false when the
// change's lines are not there exactly once.
func undoText(data []byte, u *textUndo) ([]byte, bool) {
	if u == nil || u.Find == "" {
		return nil, false
	}
	// Once: also no second occurrence overlapping the first.
	i := bytes.Index(data, []byte(u.Find))
	if i < 0 || bytes.LastIndex(data, []byte(u.Find)) != i {
		return nil, false
	}
	return splice(data, i, i+len(u.Find), u.Put), true
}

// addOf is the text that adds s to a file: s.Add, else the step's text.
func addOf(s *install.Setting, text string) string {
	if s != nil && s.Add != "" {
		return s.Add
	}
	return text
}

// edited is what an editor found: state "set", "change" or "add", the
// setting as it is (old) and will be (new), and the file after.
type edited struct {
	state, old, new string
	data            []byte
}

// holdsLines reports whether b has each line of text, ignoring the
// indentation.
func holdsLines(b []byte, text string) bool {
	have := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(text, "\n") {
		if !have[strings.TrimSpace(l)] {
			return false
		}
	}
	return true
}

// oneLine is a setting shown on one line: runs of white space become one
// space, and a long one is cut.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}

// eolOf is the file's line ending.
func eolOf(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func withEOL(s, eol string) string { return strings.ReplaceAll(s, "\n", eol) }

func splice(b []byte, from, to int, with string) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(with))
	out = append(out, b[:from]...)
	out = append(out, with...)
	return append(out, b[to:]...)
}
