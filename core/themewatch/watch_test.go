package themewatch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
)

const waitFor = 15 * time.Second // generous: CI machines can be slow

func themeNamed(t *testing.T, name string) []byte {
	return edit(t, func(m map[string]any) { m["name"] = name })
}

// watchDir starts Watch on dir and returns a channel of every State it
// reports; the watcher is stopped and awaited at test end.
func watchDir(t *testing.T, dir string) <-chan State {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	states := make(chan State, 100)
	done := make(chan error, 1)
	go func() { done <- Watch(ctx, dir, func(s State) { states <- s }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Watch returned %v", err)
			}
		case <-time.After(waitFor):
			t.Error("Watch did not return after cancel")
		}
	})
	return states
}

// await reads states until one satisfies ok, failing after waitFor.
func await(t *testing.T, states <-chan State, what string, ok func(State) bool) State {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case s := <-states:
			if ok(s) {
				return s
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func name(s State) string {
	if s.Theme == nil {
		return ""
	}
	return s.Theme.Name
}

func TestWatchMidTurn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, theme.FileName)
	states := watchDir(t, dir)

	first := await(t, states, "initial state", func(State) bool { return true })
	if first.Theme != nil || first.Error != "" {
		t.Fatalf("empty workspace reported %+v, want no theme and no error", first)
	}

	// 1. The agent's first version, written in several pieces.
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := themeNamed(t, "Version One")
	for i := 0; i < len(doc); i += 64 {
		f.Write(doc[i:min(i+64, len(doc))])
	}
	f.Close()
	// The watcher reads the file at the first event, the create (an
	// empty file then), but a file that does not parse is reported only
	// once the writes settle: never the empty file's error.
	s := await(t, states, "version one", func(s State) bool {
		if strings.Contains(s.Error, "line 1, column 1:") {
			t.Errorf("the just-created empty file was reported: %q", s.Error)
		}
		return name(s) == "Version One" && s.Error == ""
	})
	if len(s.Checks) == 0 {
		t.Error("good version came without contrast checks")
	}

	// 2. A broken intermediate: the preview keeps version one and says why.
	broken := edit(t, func(m map[string]any) {
		m["name"] = "Broken"
		m["ui"].(map[string]any)["background"] = "#12345"
	})
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	s = await(t, states, "the broken file's error", func(s State) bool { return strings.Contains(s.Error, "#12345") })
	if !strings.Contains(s.Error, `ui.background: "#12345" is not a colour`) {
		t.Errorf("error = %q, want the field and what is wrong", s.Error)
	}
	if name(s) != "Version One" || len(s.Checks) == 0 {
		t.Errorf("broken file dropped the last good theme: theme %q, %d checks", name(s), len(s.Checks))
	}

	// 3. Truncated JSON, as seen mid-write.
	if err := os.WriteFile(path, doc[:len(doc)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	s = await(t, states, "the truncated file's error", func(s State) bool { return strings.Contains(s.Error, "invalid JSON") })
	if name(s) != "Version One" {
		t.Errorf("truncated file dropped the last good theme: %q", name(s))
	}

	// 4. Version two renamed into place, as editors and agents do.
	tmp := filepath.Join(dir, ".theme.json.tmp")
	if err := os.WriteFile(tmp, themeNamed(t, "Version Two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	await(t, states, "version two", func(s State) bool { return name(s) == "Version Two" && s.Error == "" })

	// 5. Deleted: the last theme stays on screen, with a note.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s = await(t, states, "deletion", func(s State) bool { return s.Error != "" })
	if !strings.Contains(s.Error, "deleted") || name(s) != "Version Two" {
		t.Errorf("after delete got %q / %q", name(s), s.Error)
	}
}

func TestWatchIgnoresOtherFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, theme.FileName), themeNamed(t, "Only"), 0o644); err != nil {
		t.Fatal(err)
	}
	states := watchDir(t, dir)
	await(t, states, "initial theme", func(s State) bool { return name(s) == "Only" })
	// Unrelated writes, then a theme change: the next report must be the
	// change, not a repeat caused by the other files.
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(dir, "notes.md"), []byte(strings.Repeat("x", i)), 0o644)
	}
	// Renamed into place so no half-written state can be reported first.
	tmp := filepath.Join(dir, "next.tmp")
	if err := os.WriteFile(tmp, themeNamed(t, "Changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, theme.FileName)); err != nil {
		t.Fatal(err)
	}
	s := await(t, states, "next state", func(State) bool { return true })
	if name(s) != "Changed" {
		t.Errorf("next report after unrelated writes = %q, want the theme change", name(s))
	}
}

func TestWatchMissingDir(t *testing.T) {
	err := Watch(context.Background(), filepath.Join(t.TempDir(), "nope"), func(State) {})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Watch on a missing dir = %v, want an error naming it", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	s := Load(dir)
	if s.Theme != nil || s.Error != "" {
		t.Errorf("Load of an empty workspace = %+v", s)
	}
	if b, _ := json.Marshal(s); string(b) != `{"theme":null,"error":"","checks":[],"roles":[]}` {
		t.Errorf("empty state marshals as %s", b)
	}
	os.WriteFile(filepath.Join(dir, theme.FileName), theme.ExampleJSON(), 0o644)
	if s := Load(dir); name(s) != "Harbour Night" || len(s.Checks) != len(contrast.Checks(theme.Example())) || len(s.Roles) != len(theme.RolePaths()) {
		t.Errorf("Load = %q with %d checks", name(s), len(s.Checks))
	}
	os.WriteFile(filepath.Join(dir, theme.FileName), []byte(`{"name": 1}`), 0o644)
	s = Load(dir)
	if s.Theme != nil || !strings.Contains(s.Error, "name: want a string") || !strings.Contains(s.Error, "ansi: required") {
		t.Errorf("Load of a broken file = %+v", s)
	}
}

// countingLock is a mutex that counts how often it was taken.
type countingLock struct {
	sync.Mutex
	n atomic.Int32
}

func (l *countingLock) Lock() { l.Mutex.Lock(); l.n.Add(1) }

// WatchLocked reads theme.json under the caller's lock (its writes take
// it: on Windows a rename cannot replace a file the watcher has open) and
// has let it go again when fn runs.
func TestWatchLockedReadsUnderTheLock(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, theme.FileName), themeNamed(t, "One"), 0o644)
	var mu countingLock
	ctx, cancel := context.WithCancel(context.Background())
	states := make(chan State, 100)
	done := make(chan error, 1)
	go func() {
		done <- WatchLocked(ctx, dir, &mu, func(s State) {
			if !mu.TryLock() {
				t.Error("fn runs with the caller's lock still held")
			} else {
				mu.Unlock()
			}
			states <- s
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	await(t, states, "the first theme", func(s State) bool { return name(s) == "One" })
	mu.Lock() // taken by the test: the watcher's next read must wait for it
	before := mu.n.Load()
	os.WriteFile(filepath.Join(dir, theme.FileName), themeNamed(t, "Two"), 0o644)
	mu.Unlock()
	await(t, states, "the rewritten theme", func(s State) bool { return name(s) == "Two" })
	if mu.n.Load() <= before {
		t.Fatalf("the change was read without taking the lock (%d locks before, %d after)", before, mu.n.Load())
	}
}

// A whole theme.json renamed into place (as agents and the app write it) is
// read at its first event, not after the settle: a live update into the
// running programs (issue #39) does not wait the settle. The settle is an
// hour here, so only the first event's read can report it; a half-written
// file at a first event is never shown.
func TestWatchReadsARenamedFileAtOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, theme.FileName)
	os.WriteFile(path, themeNamed(t, "One"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	states := make(chan State, 100)
	done := make(chan error, 1)
	go func() { done <- watchLocked(ctx, dir, nil, time.Hour, func(s State) { states <- s }) }()
	t.Cleanup(func() { cancel(); <-done })
	await(t, states, "the first theme", func(s State) bool { return name(s) == "One" })
	tmp := filepath.Join(dir, ".theme.json.tmp")
	os.WriteFile(tmp, themeNamed(t, "Two"), 0o644)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	s := await(t, states, "the renamed theme, before the settle", func(s State) bool { return name(s) == "Two" })
	if s.Error != "" {
		t.Fatalf("the renamed theme came with an error: %q", s.Error)
	}
}

// edit returns the example document with fn applied to its generic form.
func edit(t testing.TB, fn func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(theme.ExampleJSON(), &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
