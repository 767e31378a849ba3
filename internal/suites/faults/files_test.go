//go:build linux

package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/app"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/search"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/fixtures"

	"github.com/klauspost/compress/zstd"
)

// TestFileFaults plants what a hostile agent can leave in its workspace,
// or what can turn up in CODEX_HOME, and drives the real CLI binary and
// the desktop bindings over it: writes never follow a link, reads never
// block on a FIFO, never grow on /dev/zero and stay bounded on a sparse
// giant or a compression bomb.
func TestFileFaults(t *testing.T) {
	runMatrix(t, []matrixCase{
		{"files: export through a kitty file linked to ~/.bashrc (CLI, app)", caseExportLinkedFile},
		{"files: export into a linked export folder (CLI, app)", caseExportLinkedFolder},
		{"files: apply over a linked target; a 0600 file's backup stays 0600 (CLI)", caseApplyLinks},
		{"files: theme.json → /dev/zero (check, Theme(), watcher)", func(t *testing.T) { caseHostileTheme(t, "/dev/zero") }},
		{"files: theme.json is a FIFO (check, Theme(), watcher)", func(t *testing.T) { caseHostileTheme(t, "fifo") }},
		{"files: workspace meta → /dev/zero and a FIFO (Home list, check)", caseHostileMeta},
		{"files: rollout → /dev/zero (sessions, Home, transcript)", func(t *testing.T) { caseHostileRollout(t, "/dev/zero") }},
		{"files: FIFO rollout (sessions, Home, transcript)", func(t *testing.T) { caseHostileRollout(t, "fifo") }},
		{"files: sparse 3 GB rollout without a newline (sessions, Home)", caseSparseRollout},
		{"files: .zst bomb, KBs unpacking to 2 GiB (transcript --json, --markdown; app pages, export)", caseZstBomb},
	})
}

var (
	quick = cliRunBounds{time: 60 * time.Second, rss: 100 << 20}
	// Generous for a loaded 2-core machine; a hang must still end.
	appBound = 30 * time.Second
)

// filesWorld is a fresh install: settings and data dirs, a guarded copy of
// the sample CODEX_HOME, and a home directory for apply.
type filesWorld struct {
	root, home, codexHome string
	app                   *app.App
}

func newFilesWorld(t *testing.T) *filesWorld {
	t.Helper()
	w := &filesWorld{root: t.TempDir()}
	w.home = filepath.Join(w.root, "home")
	os.MkdirAll(w.home, 0o755)
	t.Setenv("HOME", w.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(w.home, ".config"))
	w.app = newApp(t) // sets the config and data dirs
	return w
}

// workspace makes a workspace the way New Build does, with a valid theme.
func (w *filesWorld) workspace(t *testing.T, title string) workspace.Meta {
	t.Helper()
	ws, err := workspace.Create(workspace.Root(), title, "gpt-5.5")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Dir, theme.FileName), theme.ExampleJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// bashrc is a stand-in for ~/.bashrc outside the workspace, watched for writes.
func (w *filesWorld) bashrc(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(w.root, "victim")
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, ".bashrc")
	os.WriteFile(p, []byte("export PATH=$HOME/bin:$PATH\n"), 0o600)
	untouched(t, dir)
	return p
}

func caseExportLinkedFile(t *testing.T) {
	w := newFilesWorld(t)
	ws := w.workspace(t, "Linked file")
	bashrc := w.bashrc(t)
	link := filepath.Join(ws.Dir, "export", "kitty", "harbour-night.conf")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(bashrc, link); err != nil {
		t.Fatal(err)
	}
	r := runCdx(t, quick, "export", "--format", "kitty", ws.ID)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "stderr", r.stderr, link, "symbolic link")
	_, err := w.app.Themes.ExportTheme(ws.ID, "kitty")
	if err == nil {
		t.Fatal("the app exported through the link")
	}
	mustContain(t, "the app's error", err.Error(), link, "symbolic link")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the planted link itself was replaced: %v", err)
	}
	// The other formats still export, into the workspace.
	if out, err := w.app.Themes.ExportTheme(ws.ID, "zed"); err != nil || !strings.HasPrefix(out, ws.Dir) {
		t.Errorf("zed export beside the link: %q, %v", out, err)
	}
}

func caseExportLinkedFolder(t *testing.T) {
	w := newFilesWorld(t)
	outside := filepath.Join(w.root, "outside")
	os.MkdirAll(outside, 0o755)
	untouched(t, outside)
	ws := w.workspace(t, "Linked folder")
	os.MkdirAll(filepath.Join(ws.Dir, "export"), 0o755)
	css := filepath.Join(ws.Dir, "export", "css")
	if err := os.Symlink(outside, css); err != nil {
		t.Fatal(err)
	}
	r := runCdx(t, quick, "export", "--format", "css", ws.ID)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "stderr", r.stderr, css, "symbolic link")
	if _, err := w.app.Themes.ExportTheme(ws.ID, "css"); err == nil || !strings.Contains(err.Error(), css) {
		t.Errorf("the app's export into the linked folder: %v", err)
	}
	// The whole export/ folder linked, and `--format all`.
	ws2 := w.workspace(t, "Linked export")
	export := filepath.Join(ws2.Dir, "export")
	if err := os.Symlink(outside, export); err != nil {
		t.Fatal(err)
	}
	r = runCdx(t, quick, "export", "--format", "all", ws2.Dir)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "stderr", r.stderr, export, "symbolic link")
	if _, err := w.app.Themes.ExportTheme(ws2.ID, "all"); err == nil || !strings.Contains(err.Error(), export) {
		t.Errorf("the app's export into a linked export/: %v", err)
	}
}

func caseApplyLinks(t *testing.T) {
	w := newFilesWorld(t)
	ws := w.workspace(t, "Apply")
	bashrc := w.bashrc(t)
	themes := filepath.Join(w.home, ".config", "kitty", "themes")
	os.MkdirAll(themes, 0o755)
	link := filepath.Join(themes, "harbour-night.conf")
	os.Symlink(bashrc, link)
	r := runCdx(t, quick, "apply", "--target", "kitty", "--yes", ws.ID)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "stderr", r.stderr, link, "symbolic link")

	// A 0600 theme file of the user's is replaced: its backup lies in the
	// app's data folder, not beside it in Zed's themes folder, and stays
	// private; the new file keeps 0600.
	zed := filepath.Join(w.home, ".config", "zed", "themes", "harbour-night.json")
	os.MkdirAll(filepath.Dir(zed), 0o755)
	os.WriteFile(zed, []byte(`{"private":true}`), 0o600)
	r = runCdx(t, quick, "apply", "--target", "zed", "--yes", ws.ID)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if beside, _ := filepath.Glob(zed + "*"); len(beside) != 1 {
		t.Errorf("Zed's themes folder holds %v, want the theme alone", beside)
	}
	baks, _ := filepath.Glob(filepath.Join(os.Getenv("CDXTHEME_DATA_DIR"), "applied", "zed", "*", "*-harbour-night.json"))
	if len(baks) != 1 {
		t.Fatalf("backups %v", baks)
	}
	if fi, err := os.Stat(zed); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("installed %v, %v; want the replaced file's 0600", fi, err)
	}
	fi, err := os.Stat(baks[0])
	b, _ := os.ReadFile(baks[0])
	if err != nil || fi.Mode().Perm() != 0o600 || string(b) != `{"private":true}` {
		t.Errorf("backup %s: mode %v, %q; want 0600 and the original bytes", baks[0], fi.Mode(), b)
	}
	mustContain(t, "stdout", r.out.Head(), baks[0])
}

// plant puts kind ("/dev/zero" as a link, or "fifo") at path.
func plant(t *testing.T, kind, path string) {
	t.Helper()
	os.Remove(path)
	if kind == "fifo" {
		mkfifo(t, path)
		return
	}
	if err := os.Symlink(kind, path); err != nil {
		t.Fatal(err)
	}
}

func caseHostileTheme(t *testing.T, kind string) {
	w := newFilesWorld(t)
	ws := w.workspace(t, "Hostile theme")
	path := filepath.Join(ws.Dir, theme.FileName)
	plant(t, kind, path)
	what := "symbolic link"
	if kind == "fifo" {
		what = "named pipe"
	}
	r := runCdx(t, quick, "check", ws.ID)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "check's stderr", r.stderr, path, what)
	// The user names the file itself: followed, and still refused.
	r = runCdx(t, quick, "check", path)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	mustContain(t, "check's stderr", r.stderr, path, "not a regular file")

	var st themewatch.State
	var err error
	grew := peakGrowth(t, func() {
		inTime(t, "Theme()", appBound, func() { st, err = w.app.Themes.Theme(ws.ID) })
	})
	if err != nil || st.Theme != nil || !strings.Contains(st.Error, path) || !strings.Contains(st.Error, what) {
		t.Errorf("Theme(): %+v, %v; want no theme and an error naming %s", st, err, path)
	}
	if grew > 64<<20 {
		t.Errorf("Theme() grew the app by %d MiB", grew>>20)
	}

	// The watcher, as the preview runs it: the file appears after the
	// watch started, is replaced again and again; every read is refused.
	os.Remove(path)
	ctx, cancel := context.WithCancel(context.Background())
	states := make(chan themewatch.State, 64)
	ended := make(chan error, 1)
	grew = peakGrowth(t, func() {
		go func() {
			ended <- themewatch.Watch(ctx, ws.Dir, func(s themewatch.State) {
				select {
				case states <- s:
				default:
				}
			})
		}()
		time.Sleep(200 * time.Millisecond)
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			plant(t, kind, path)
			time.Sleep(100 * time.Millisecond)
		}
		var last themewatch.State
		inTime(t, "the watcher's report", appBound, func() {
			for last = range states {
				if strings.Contains(last.Error, what) {
					return
				}
			}
		})
		if !strings.Contains(last.Error, path) {
			t.Errorf("the watcher reported %+v; want an error naming %s", last, path)
		}
		cancel()
		inTime(t, "the watcher's end", appBound, func() { <-ended })
	})
	if grew > 64<<20 {
		t.Errorf("the watcher grew the app by %d MiB", grew>>20)
	}
}

func caseHostileMeta(t *testing.T) {
	w := newFilesWorld(t)
	good := w.workspace(t, "Good")
	zero := w.workspace(t, "Zero")
	fifo := w.workspace(t, "FIFO")
	plant(t, "/dev/zero", filepath.Join(zero.Dir, workspace.MetaFile))
	plant(t, "fifo", filepath.Join(fifo.Dir, workspace.MetaFile))
	var list []workspace.Meta
	grew := peakGrowth(t, func() {
		inTime(t, "Workspaces()", appBound, func() { list = w.app.Builds.Workspaces() })
	})
	if len(list) != 1 || list[0].ID != good.ID {
		t.Errorf("the Home list: %+v; want only %s", list, good.ID)
	}
	if grew > 64<<20 {
		t.Errorf("the Home list grew the app by %d MiB", grew>>20)
	}
	for _, ws := range []workspace.Meta{zero, fifo} {
		r := runCdx(t, quick, "check", ws.ID)
		if r.code != 1 {
			t.Errorf("exit %d, want 1", r.code)
		}
		mustContain(t, "check's stderr", r.stderr, filepath.Join(ws.Dir, workspace.MetaFile))
		if _, err := w.app.Themes.Theme(ws.ID); err == nil {
			t.Errorf("Theme(%s) opened a workspace with a hostile meta", ws.ID)
		}
	}
}

// hostileHome copies the sample CODEX_HOME, lets add plant files, then
// guards it: nothing may be written there afterwards.
func hostileHome(t *testing.T, add func(day string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "codex-home")
	copyHome(t, dir)
	add(filepath.Join(dir, "sessions", "2026", "12", "02"))
	t.Setenv("CODEX_HOME", dir)
	watchHome(t, dir)
	return dir
}

// sessionsJSON is `cdxtheme sessions --json`'s answer.
type sessionsJSON struct {
	Sessions []codexhome.Session `json:"sessions"`
}

func listedIDs(t *testing.T, r procRun) []string {
	t.Helper()
	var v sessionsJSON
	if err := json.Unmarshal([]byte(r.out.Head()), &v); err != nil {
		t.Fatalf("sessions --json: %v\n%s", err, r.out.Head())
	}
	var ids []string
	for _, s := range v.Sessions {
		ids = append(ids, s.ID)
	}
	return ids
}

// sameIDs reports whether a and b hold the same ids, in any order.
func sameIDs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// unreadableIDs is the listing's unreadable sessions and their reasons.
func unreadableIDs(ss []codexhome.Session) map[string]string {
	out := map[string]string{}
	for _, s := range ss {
		if s.Unreadable != "" {
			out[s.ID] = s.Unreadable
		}
	}
	return out
}

func caseHostileRollout(t *testing.T, kind string) {
	id := "01a2361f-0000-7000-8000-00000000f1f0"
	var path string
	hostileHome(t, func(day string) {
		path = filepath.Join(day, "rollout-2026-12-02T10-00-00-"+id+".jsonl")
		plant(t, kind, path)
	})
	what := "character device"
	if kind == "fifo" {
		what = "named pipe"
	}
	w := newFilesWorld(t)
	r := runCdx(t, quick, "sessions", "--json")
	var listed sessionsJSON
	if err := json.Unmarshal([]byte(r.out.Head()), &listed); err != nil {
		t.Fatalf("sessions --json: %v", err)
	}
	// The two real sessions, and the hostile file listed as unreadable
	// with the reason (never resumable), without reading it.
	bad := unreadableIDs(listed.Sessions)
	if r.code != 0 || !sameIDs(listedIDs(t, r), []string{id, idNew, idOld}) || len(bad) != 1 || !strings.Contains(bad[id], what) {
		t.Errorf("exit %d, listed %v, unreadable %v; want the two real sessions and %s unreadable (%s)", r.code, listedIDs(t, r), bad, id, what)
	}
	mustContain(t, "sessions' stderr", r.stderr, path, what)
	r = runCdx(t, quick, "sessions", "--json", "--search", "hello-from-shell")
	if r.code != 0 {
		t.Errorf("search: exit %d", r.code)
	}
	r = runCdx(t, quick, "transcript", id)
	if r.code != 1 {
		t.Errorf("transcript: exit %d, want 1", r.code)
	}
	mustContain(t, "transcript's stderr", r.stderr, path, what)

	var sl search.Results
	var err error
	grew := peakGrowth(t, func() {
		inTime(t, "Sessions()", appBound, func() { sl, err = w.app.Library.Sessions(app.SessionQuery{Limit: 50}) })
		inTime(t, "TranscriptPage()", appBound, func() { _, err = w.app.Library.TranscriptPage(id, 0, 50) })
	})
	if err == nil || !strings.Contains(err.Error(), what) {
		t.Errorf("the app's transcript page: %v", err)
	}
	var homeList []codexhome.Session
	for _, s := range sl.Sessions {
		homeList = append(homeList, s.Session)
	}
	if bad := unreadableIDs(homeList); len(sl.Sessions) != 3 || len(bad) != 1 || !strings.Contains(bad[id], what) {
		t.Errorf("the app's Home list: %d sessions, unreadable %v (%v); want the two real ones and %s unreadable", len(sl.Sessions), bad, sl.Hint, id)
	}
	if grew > 64<<20 {
		t.Errorf("the app grew by %d MiB", grew>>20)
	}
}

func caseSparseRollout(t *testing.T) {
	id := "01a2361f-0000-7000-8000-0000000005a5"
	var path string
	hostileHome(t, func(day string) {
		path = filepath.Join(day, "rollout-2026-12-02T10-00-00-"+id+".jsonl")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		// Removed after the CODEX_HOME check (cleanups run last first).
		t.Cleanup(func() { os.Remove(path) })
		if err := os.Truncate(path, 3<<30); err != nil {
			skipCase(t, "cannot make a sparse 3 GB file here: %v", err)
		}
		var st syscall.Stat_t
		if syscall.Stat(path, &st) != nil || st.Blocks*512 > 1<<20 {
			skipCase(t, "this file system does not keep %s sparse", path)
		}
	})
	w := newFilesWorld(t)
	// Listing reads at most 512 KiB of it, whatever Home asks for.
	for _, args := range [][]string{{"sessions", "--json"}, {"sessions", "--json", "--limit", "1"}, {"sessions", "--json", "--search", "theme"}} {
		r := runCdx(t, cliRunBounds{time: 60 * time.Second, rss: 64 << 20}, args...)
		if r.code != 0 {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
		if r.took > 20*time.Second {
			t.Errorf("listing took %v", r.took)
		}
	}
	r := runCdx(t, quick, "sessions", "--json")
	if ids := listedIDs(t, r); len(ids) != 3 || !strings.Contains(strings.Join(ids, " "), id) {
		t.Errorf("listed %v; want the sparse one (untitled) and the two real ones", ids)
	}
	var sl search.Results
	var err error
	grew := peakGrowth(t, func() {
		inTime(t, "Sessions()", appBound, func() { sl, err = w.app.Library.Sessions(app.SessionQuery{Limit: 50}) })
	})
	if err != nil || len(sl.Sessions) != 3 {
		t.Errorf("the app's Home list: %d, %v", len(sl.Sessions), err)
	}
	if grew > 64<<20 {
		t.Errorf("the app's listing grew it by %d MiB", grew>>20)
	}
}

// zstBomb writes a .jsonl.zst that unpacks to about size bytes: the real
// 0.137 session's lines, then one compressed frame of turns repeated
// (zstd streams may hold many frames). Cheap to make: one frame is
// compressed, the rest are copies.
func zstBomb(t *testing.T, path string, size int64) {
	t.Helper()
	head := fixtures.Read(fixtures.RolloutOld)
	var chunk bytes.Buffer
	for i := 0; chunk.Len() < 4<<20; i++ {
		role, kind, text := "user", "input_text", strings.Repeat("Make the comments warmer and the keywords brighter. ", 16)
		if i%2 == 1 {
			role, kind, text = "assistant", "output_text", strings.Repeat("I set syntax.comment to #c9a26b; contrast stays above 7:1. ", 16)
		}
		b, _ := json.Marshal(map[string]any{"timestamp": "2026-12-02T09:26:00.000Z", "type": "response_item",
			"payload": map[string]any{"type": "message", "role": role, "content": []map[string]any{{"type": kind, "text": text}}}})
		chunk.Write(append(b, '\n'))
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(chunk.Bytes(), nil)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(enc.EncodeAll(head, nil))
	for n := int64(len(head)); n < size; n += int64(chunk.Len()) {
		f.Write(frame)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("the bomb: %d KiB on disk, unpacks to %d MiB", fi.Size()>>10, size>>20)
}

var tooLargeRe = regexp.MustCompile(`Too large: showing the first (\d+) messages`)

func caseZstBomb(t *testing.T) {
	var path string
	hostileHome(t, func(day string) {
		os.Remove(filepath.Join(day, filepath.Base(relOld)))
		path = filepath.Join(day, filepath.Base(relOld)+".zst")
		zstBomb(t, path, 2<<30)
	})
	w := newFilesWorld(t)
	bound := cliRunBounds{time: 5 * time.Minute, rss: 256 << 20}

	r := runCdx(t, bound, "transcript", idOld, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m := tooLargeRe.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("stderr does not say the session is too large: %s", r.stderr)
	}
	shown, _ := strconv.Atoi(m[1])
	if !strings.HasPrefix(r.out.Head(), "{\n  \"id\": \""+idOld+"\",\n  \"title\": \"Theme please\"") ||
		!strings.HasSuffix(r.out.Tail(), "\n  ],\n  \"truncated\": true\n}\n") {
		t.Errorf("the JSON's start %.120q / end %q", r.out.Head(), r.out.Tail()[max(0, len(r.out.Tail())-80):])
	}
	if got := strings.Count(r.out.Head()+r.out.Tail(), `"role"`); got == 0 || r.out.n < int64(codexhome.MaxUnpacked)/2 {
		t.Errorf("only %d bytes of JSON for %d messages", r.out.n, shown)
	}

	r = runCdx(t, bound, "transcript", idOld, "--markdown")
	if r.code != 0 || !strings.HasPrefix(r.out.Head(), "# Theme please\n") {
		t.Fatalf("exit %d, markdown starts %.80q", r.code, r.out.Head())
	}
	if want := codexhome.TooLargeNote(shown); !strings.HasSuffix(r.out.Tail(), want+"\n") || !strings.Contains(r.stderr, want) {
		t.Errorf("the markdown (and stderr) do not end with %q: …%s", want, r.out.Tail()[max(0, len(r.out.Tail())-200):])
	}

	// The app: the first page at once, the last page where the CLI stopped,
	// and the Markdown export, all in bounded memory.
	out := filepath.Join(t.TempDir(), "bomb.md")
	app.AnswerSaveDialog(w.app, out)
	t.Cleanup(func() { os.Remove(out) })
	var first, last codexhome.TranscriptPage
	var saved string
	var err1, err2, err3 error
	grew := peakGrowth(t, func() {
		inTime(t, "first page", appBound, func() { first, err1 = w.app.Library.TranscriptPage(idOld, 0, 100) })
		inTime(t, "last page", bound.time, func() { last, err2 = w.app.Library.TranscriptPage(idOld, shown-10, 100) })
		inTime(t, "export", bound.time, func() { saved, err3 = w.app.Library.ExportTranscript(idOld) })
	})
	if err1 != nil || len(first.Messages) != 100 || first.Done || first.Truncated {
		t.Errorf("first page: %d messages, done %v, truncated %v, %v", len(first.Messages), first.Done, first.Truncated, err1)
	}
	if err2 != nil || len(last.Messages) != 10 || !last.Done || !last.Truncated {
		t.Errorf("last page: %d messages, done %v, truncated %v, %v", len(last.Messages), last.Done, last.Truncated, err2)
	}
	if err3 != nil || saved != out {
		t.Fatalf("export: %q, %v", saved, err3)
	}
	tail, size := fileTail(t, out, 4096)
	if !strings.HasSuffix(tail, codexhome.TooLargeNote(shown)+"\n") || !strings.HasPrefix(first.Title, "Theme please") {
		t.Errorf("the exported file (%d MiB) does not end with the too-large note: …%s", size>>20, tail)
	}
	if grew > 256<<20 {
		t.Errorf("the app grew by %d MiB reading the bomb", grew>>20)
	}
}

// fileTail is the last n bytes of a file and its size.
func fileTail(t *testing.T, path string, n int64) (string, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	b := make([]byte, min(n, fi.Size()))
	if _, err := f.ReadAt(b, fi.Size()-int64(len(b))); err != nil {
		t.Fatal(err)
	}
	return string(b), fi.Size()
}
