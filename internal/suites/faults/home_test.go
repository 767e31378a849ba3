package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"cdxtheme/app"
	"cdxtheme/core/codexhome"
	"cdxtheme/internal/testrig/fixtures"

	"github.com/rs/zerolog"
)

// The real sample sessions in internal/testrig/fixtures.
const (
	idNew = fixtures.SessionNew // codex 0.166, paginated history
	idOld = fixtures.SessionOld // codex 0.137, classic
)

var (
	relNew = filepath.FromSlash(fixtures.RolloutNew)
	relOld = filepath.FromSlash(fixtures.RolloutOld)
)

// TestHomeFaults reads damaged, missing and huge Codex homes through
// core/codexhome (and the desktop bindings over it): every problem must
// end as a hint or a skip count, never as a failure, and nothing may be
// written into the folder.
func TestHomeFaults(t *testing.T) {
	cases := []matrixCase{
		{"CODEX_HOME missing", caseHomeMissing},
		{"CODEX_HOME unreadable", caseHomeUnreadable},
	}
	for _, c := range modelCacheDamage {
		c := c
		cases = append(cases, matrixCase{"corrupt models cache: " + c.name, func(t *testing.T) { caseCorruptModels(t, c.data) }})
	}
	for _, s := range []struct{ name, rel string }{{"codex 0.166", relNew}, {"codex 0.137", relOld}} {
		s := s
		cases = append(cases, matrixCase{"truncated rollout: " + s.name, func(t *testing.T) { caseTruncatedRollout(t, s.rel) }})
	}
	cases = append(cases, matrixCase{"1 GB rollout", caseHugeRollout})
	runMatrix(t, cases)
}

// newApp builds the desktop bindings with their own settings folders, so
// they read CODEX_HOME from the environment like a fresh install.
func newApp(t *testing.T) *app.App {
	t.Helper()
	root := t.TempDir()
	t.Setenv("CDXTHEME_CONFIG_DIR", filepath.Join(root, "config"))
	t.Setenv("CDXTHEME_DATA_DIR", filepath.Join(root, "data"))
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(root, "cache"))
	t.Setenv("CDXTHEME_NO_KEYRING", "1")
	a := app.New(zerolog.Nop())
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a
}

// homeView is what the UI gets from a Codex home.
type homeView struct {
	models   codexhome.ModelList
	sessions codexhome.SessionList
	listErr  error
}

// viewHome reads models and sessions through core/codexhome and through
// the bindings, and checks both agree.
func viewHome(t *testing.T, dir string) homeView {
	t.Helper()
	t.Setenv("CODEX_HOME", dir)
	h := codexhome.Locate("")
	if h.Dir != filepath.Clean(dir) || h.Source != codexhome.SourceEnv {
		t.Fatalf("CODEX_HOME not honoured: %+v", h)
	}
	var v homeView
	v.models = h.Models()
	v.sessions, v.listErr = h.Sessions(context.Background(), codexhome.ListOptions{})
	a := newApp(t)
	am := a.Library.Models()
	as, aerr := a.Library.Sessions(app.SessionQuery{})
	if am.Hint != v.models.Hint || am.Source != v.models.Source || len(am.Models) != len(v.models.Models) {
		t.Errorf("the bindings' model list differs from the core's: %+v vs %+v", am, v.models)
	}
	if as.Hint != v.sessions.Hint || len(as.Sessions) != len(v.sessions.Sessions) || (aerr == nil) != (v.listErr == nil) {
		t.Errorf("the bindings' session list differs from the core's: %+v %v vs %+v %v", as, aerr, v.sessions, v.listErr)
	}
	return v
}

// wantFallbackModels checks the picker still offers the built-in models,
// with a hint that mentions each of mentions.
func wantFallbackModels(t *testing.T, ml codexhome.ModelList, mentions ...string) {
	t.Helper()
	if ml.Source != codexhome.ModelsFromFallback {
		t.Errorf("model source %q, want fallback", ml.Source)
	}
	if len(ml.Models) < len(codexhome.FallbackModels()) || ml.Current == "" {
		t.Errorf("the picker has nothing to offer: %+v", ml)
	}
	for _, m := range mentions {
		if !strings.Contains(ml.Hint, m) {
			t.Errorf("the models hint %q does not mention %q", ml.Hint, m)
		}
	}
}

// wantNoTranscript checks a transcript request for a session that cannot
// be found fails cleanly, naming the session.
func wantNoTranscript(t *testing.T, dir, id string) {
	t.Helper()
	_, err := codexhome.Locate(dir).TranscriptPage(context.Background(), id, 0, 100)
	if !errors.Is(err, codexhome.ErrNotFound) || !strings.Contains(err.Error(), id) {
		t.Errorf("transcript of %s in %s: %v, want a not-found error naming it", id, dir, err)
	}
	_, err = newApp(t).Library.TranscriptPage(id, 0, 100)
	if !errors.Is(err, codexhome.ErrNotFound) {
		t.Errorf("the bindings' transcript of %s: %v, want not found", id, err)
	}
}

func caseHomeMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never-ran-codex")
	watchHome(t, dir) // must stay missing
	v := viewHome(t, dir)
	wantFallbackModels(t, v.models, dir, "CODEX_HOME")
	if v.listErr != nil || len(v.sessions.Sessions) != 0 || !strings.Contains(v.sessions.Hint, dir) {
		t.Errorf("sessions of a missing home: %+v, %v; want none and a hint naming %s", v.sessions, v.listErr, dir)
	}
	wantNoTranscript(t, dir, idNew)
}

func caseHomeUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		// Root reads through chmod 000, so a mode cannot make the folder
		// unreadable here; a regular file where the folder should be can.
		t.Log("running as root: chmod 000 does not stop root's reads, so CODEX_HOME is a regular file instead of a folder")
		dir := filepath.Join(t.TempDir(), "codex-home-is-a-file")
		if err := os.WriteFile(dir, []byte("not a folder\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		watchHome(t, dir)
		v := viewHome(t, dir)
		wantFallbackModels(t, v.models, dir)
		if v.listErr != nil || len(v.sessions.Sessions) != 0 || !strings.Contains(v.sessions.Hint, dir) {
			t.Errorf("sessions of a home that is a file: %+v, %v; want none and a hint naming %s", v.sessions, v.listErr, dir)
		}
		wantNoTranscript(t, dir, idNew)
		return
	}
	dir := filepath.Join(t.TempDir(), "codex-home")
	copyHome(t, dir)
	watchHome(t, dir)
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) }) // before the snapshot check and TempDir removal
	v := viewHome(t, dir)
	wantFallbackModels(t, v.models, "models_cache.json")
	if v.listErr != nil || len(v.sessions.Sessions) != 0 {
		t.Errorf("sessions of an unreadable home: %+v, %v; want none, no failure", v.sessions, v.listErr)
	}
	if v.sessions.Hint == "" {
		t.Errorf("an unreadable home lists no sessions without telling the user why (warnings only in the log: %q)", v.sessions.Warnings)
	}
}

// modelCacheDamage are ways models_cache.json is found broken.
var modelCacheDamage = []struct {
	name string
	data func(real []byte) []byte
}{
	{"cut in half", func(b []byte) []byte { return b[:len(b)/2] }},
	{"not JSON", func([]byte) []byte { return []byte("\x00\x01\x02 garbage \xff\xfe") }},
	{"empty file", func([]byte) []byte { return nil }},
	{"models of the wrong type", func([]byte) []byte { return []byte(`{"models":"gpt-5.5"}`) }},
	{"no listed model", func([]byte) []byte {
		return []byte(`{"fetched_at":"2026-12-02T09:00:00Z","models":[{"slug":"internal","visibility":"hide","priority":1}]}`)
	}},
}

func caseCorruptModels(t *testing.T, damage func([]byte) []byte) {
	dir := filepath.Join(t.TempDir(), "codex-home")
	copyHome(t, dir)
	// The intact cache is used: so a fallback below is the damage's doing.
	if ml := codexhome.Locate(dir).Models(); ml.Source != codexhome.ModelsFromCache {
		t.Fatalf("the intact sample cache is not used: %+v", ml)
	}
	p := filepath.Join(dir, "models_cache.json")
	real, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, damage(real), 0o644); err != nil {
		t.Fatal(err)
	}
	watchHome(t, dir)
	v := viewHome(t, dir)
	wantFallbackModels(t, v.models, "models_cache.json")
	if v.models.Current != "gpt-5.5" {
		t.Errorf("config.toml's model is no longer current: %q", v.models.Current)
	}
	if len(v.models.Warnings) == 0 || !strings.Contains(strings.Join(v.models.Warnings, " "), p) {
		t.Errorf("no warning names the damaged file for the log: %q", v.models.Warnings)
	}
	// The damage stays in its file: sessions are listed as before.
	if v.listErr != nil || len(v.sessions.Sessions) != 2 {
		t.Errorf("sessions next to a corrupt models cache: %+v, %v", v.sessions, v.listErr)
	}
}

// tornCopy writes the rollout src damaged the way a crash or a full disk
// leaves it: a garbage line after its first assistant message and its
// last assistant message cut mid-line with no newline. It also writes
// clean: the same lines without the garbage, ending before the torn line,
// i.e. what the damaged file should read as.
func tornCopy(t *testing.T, src, damaged, clean string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var assistants []int
	for i, l := range lines {
		if strings.Contains(l, `"type":"response_item"`) && strings.Contains(l, `"role":"assistant"`) {
			assistants = append(assistants, i)
		}
	}
	if len(assistants) < 2 {
		t.Fatalf("%s has %d assistant messages; the case needs two", src, len(assistants))
	}
	garbageAfter, torn := assistants[0], assistants[len(assistants)-1]
	var d, c strings.Builder
	for i := 0; i < torn; i++ {
		d.WriteString(lines[i])
		c.WriteString(lines[i])
		if i == garbageAfter {
			d.WriteString("{\"timestamp\":\"2026-12-02T09:30:00Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"mess\x00\n")
		}
	}
	d.WriteString(lines[torn][:len(lines[torn])/2])
	for p, s := range map[string]string{damaged: d.String(), clean: c.String()} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func caseTruncatedRollout(t *testing.T, rel string) {
	dir := filepath.Join(t.TempDir(), "codex-home")
	copyHome(t, dir)
	target := filepath.Join(dir, rel)
	clean := filepath.Join(t.TempDir(), filepath.Base(rel))
	tornCopy(t, target, target, clean)
	id := idOld
	if rel == relNew {
		id = idNew
	}
	watchHome(t, dir)
	ctx := context.Background()

	want, err := codexhome.ReadRolloutPage(ctx, clean, 0, 500)
	if err != nil || len(want.Messages) == 0 {
		t.Fatalf("the clean prefix reads as %+v, %v", want, err)
	}
	got, err := codexhome.Locate(dir).TranscriptPage(ctx, id, 0, 500)
	if err != nil {
		t.Fatalf("a torn rollout failed to load: %v", err)
	}
	if !got.Done || got.Skipped != want.Skipped+2 {
		t.Errorf("done %v, skipped %d; want done and %d skipped (the garbage and the torn line)", got.Done, got.Skipped, want.Skipped+2)
	}
	if !reflect.DeepEqual(got.Messages, want.Messages) {
		t.Errorf("messages before the damage were lost or changed:\n got %d: %s\nwant %d: %s", len(got.Messages), summary(got.Messages), len(want.Messages), summary(want.Messages))
	}
	whole, err := codexhome.Locate(dir).Transcript(ctx, id)
	if err != nil || whole.Skipped != got.Skipped || !reflect.DeepEqual(whole.Messages, got.Messages) {
		t.Errorf("the whole transcript disagrees with the page: skipped %d, %d messages, %v", whole.Skipped, len(whole.Messages), err)
	}
	v := viewHome(t, dir)
	var listed bool
	for _, s := range v.sessions.Sessions {
		if s.ID == id && s.Title != "" {
			listed = true
		}
	}
	if v.listErr != nil || len(v.sessions.Sessions) != 2 || !listed {
		t.Errorf("the torn session is not listed with a title: %+v, %v", v.sessions, v.listErr)
	}
	ap, err := newApp(t).Library.TranscriptPage(id, 0, 500)
	if err != nil || ap.Skipped != got.Skipped || len(ap.Messages) != len(got.Messages) {
		t.Errorf("the bindings' page: %d messages, %d skipped, %v", len(ap.Messages), ap.Skipped, err)
	}
}

func summary(ms []codexhome.Message) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%s:%.30q", m.Role, m.Text))
	}
	return strings.Join(parts, " | ")
}

// hugeSize is the 1 GB rollout; hugeFree the space it needs to run.
const (
	hugeSize = 1 << 30
	hugeFree = 5 << 30
)

// hugeBlock is one turn of the 1 GB rollout: a user message and an
// assistant answer of 32 KiB each, in Codex's response_item shape.
func hugeBlock(t *testing.T) (block []byte, user, assistant string) {
	t.Helper()
	user = strings.Repeat("Make the comments warmer and the keywords a little brighter. ", 540)[:32<<10]
	assistant = strings.Repeat("I adjusted syntax.comment to #c9a26b and kept contrast above 7:1. ", 500)[:32<<10]
	line := func(role, kind, text string) []byte {
		b, err := json.Marshal(map[string]any{
			"timestamp": "2026-12-02T09:26:00.000Z", "type": "response_item",
			"payload": map[string]any{"type": "message", "role": role, "content": []map[string]any{{"type": kind, "text": text}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	block = append(line("user", "input_text", user), line("assistant", "output_text", assistant)...)
	return block, user, assistant
}

func caseHugeRollout(t *testing.T) {
	root := t.TempDir()
	free, err := FreeBytes(root)
	if err != nil {
		skipCase(t, "cannot tell the free space under %s: %v", root, err)
	}
	if free < hugeFree {
		skipCase(t, "only %d MiB free under %s; the 1 GB rollout case needs %d MiB", free>>20, root, uint64(hugeFree)>>20)
	}
	dir := filepath.Join(root, "codex-home")
	path := filepath.Join(dir, relOld)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// The real 0.137 session, then 1 GB of further turns.
	head := fixtures.Read(fixtures.RolloutOld)
	block, user, assistant := hugeBlock(t)
	start := time.Now()
	blocks, err := FillFile(path, head, block, hugeSize)
	// Free the gigabyte as soon as the case ends; registered before
	// watchHome, so it runs after the snapshot check.
	t.Cleanup(func() { os.Remove(path) })
	if err != nil {
		t.Fatalf("write the 1 GB rollout: %v", err)
	}
	t.Logf("wrote %d MiB (%d turns) in %v", (int64(len(head))+blocks*int64(len(block)))>>20, blocks, time.Since(start).Round(time.Millisecond))
	watchHome(t, dir)
	ctx := context.Background()

	sample := filepath.Join(t.TempDir(), "sample")
	copyHome(t, sample)
	small, err := codexhome.ReadRollout(ctx, filepath.Join(sample, relOld))
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	v := viewHome(t, dir)
	t.Logf("listed in %v", time.Since(start).Round(time.Millisecond))
	if v.listErr != nil || len(v.sessions.Sessions) != 1 {
		t.Fatalf("listing a home with a 1 GB rollout: %+v, %v", v.sessions, v.listErr)
	}
	if s := v.sessions.Sessions[0]; s.ID != idOld || s.Title != small.Title || s.Cwd != small.Cwd {
		t.Errorf("listed as %+v; want id %s, title %q, cwd %q", s, idOld, small.Title, small.Cwd)
	}

	start = time.Now()
	page, err := codexhome.Locate(dir).TranscriptPage(ctx, idOld, 0, 100)
	t.Logf("first page in %v", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("first page of a 1 GB rollout: %v", err)
	}
	if len(page.Messages) != 100 || page.Done || page.NextOffset != 100 || page.Skipped != 0 {
		t.Fatalf("first page: %d messages, done %v, next %d, skipped %d", len(page.Messages), page.Done, page.NextOffset, page.Skipped)
	}
	n := len(small.Messages)
	if !reflect.DeepEqual(page.Messages[:n], small.Messages) {
		t.Errorf("the session's own messages differ at the head of the big file:\n got %s\nwant %s", summary(page.Messages[:n]), summary(small.Messages))
	}
	for i, m := range page.Messages[n:] {
		want := codexhome.Message{Role: codexhome.RoleUser, Text: user}
		if i%2 == 1 {
			want = codexhome.Message{Role: codexhome.RoleAssistant, Text: assistant}
		}
		if m.Role != want.Role || m.Text != want.Text {
			t.Fatalf("message %d: %s %.40q…, want %s %.40q…", n+i, m.Role, m.Text, want.Role, want.Text)
		}
	}
	next, err := newApp(t).Library.TranscriptPage(idOld, page.NextOffset, 100)
	if err != nil || len(next.Messages) != 100 || next.Offset != 100 || next.Messages[0].Text == "" {
		t.Errorf("second page through the bindings: %d messages at %d, %v", len(next.Messages), next.Offset, err)
	}

	// The last page: a reader scrolled to the end goes through the whole
	// gigabyte once and must still finish.
	total := n + 2*int(blocks)
	start = time.Now()
	end, err := codexhome.Locate(dir).TranscriptPage(ctx, idOld, total-10, 100)
	t.Logf("last page (offset %d) in %v", total-10, time.Since(start).Round(time.Millisecond))
	if err != nil || len(end.Messages) != 10 || !end.Done || end.Messages[9].Text != assistant {
		t.Errorf("last page: %d messages, done %v, %v", len(end.Messages), end.Done, err)
	}
}
