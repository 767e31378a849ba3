package workspace

import (
	"cdxtheme/core/damaged"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestCreate(t *testing.T) {
	root := t.TempDir()
	m, err := Create(root, "  Ocean\n dusk  ", "gpt-5-codex")
	if err != nil {
		t.Fatal(err)
	}
	if !ValidID(m.ID) || m.Dir != filepath.Join(root, m.ID) || !filepath.IsAbs(m.Dir) {
		t.Errorf("meta = %+v", m)
	}
	if m.Title != "Ocean dusk" || m.Model != "gpt-5-codex" || m.Created.IsZero() || m.SessionIDs == nil {
		t.Errorf("meta = %+v", m)
	}
	var onDisk Meta
	b, err := os.ReadFile(filepath.Join(m.Dir, MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &onDisk); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"id"`, `"title"`, `"created"`, `"sessionIds": []`, `"model"`, `"dir"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s lacks %s:\n%s", MetaFile, k, b)
		}
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "AGENTS.md")); err != nil {
		t.Error("no AGENTS.md in the new workspace")
	}
	again, err := Open(root, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != m.ID || !again.Created.Equal(m.Created) || again.Title != m.Title || again.Dir != m.Dir {
		t.Errorf("Open = %+v, created %+v", again, m)
	}
}

func TestCreateRelativeRootGivesAbsoluteDir(t *testing.T) {
	t.Chdir(t.TempDir())
	m, err := Create("ws", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(m.Dir) || m.Title != DefaultTitle {
		t.Errorf("dir %q title %q", m.Dir, m.Title)
	}
}

func TestIDsUniqueAndListNewestFirst(t *testing.T) {
	root := t.TempDir()
	seen := map[string]bool{}
	var order []string
	for i := 0; i < 30; i++ {
		m, err := Create(root, "t", "")
		if err != nil {
			t.Fatal(err)
		}
		if seen[m.ID] {
			t.Fatalf("duplicate id %s", m.ID)
		}
		seen[m.ID] = true
		order = append(order, m.ID)
	}
	list, problems := List(root)
	if len(problems) != 0 || len(list) != 30 {
		t.Fatalf("List: %d items, problems %v", len(list), problems)
	}
	for i, m := range list {
		if m.ID != order[len(order)-1-i] {
			t.Fatalf("position %d: %s, want %s (newest first)", i, m.ID, order[len(order)-1-i])
		}
	}
}

func TestListRebuildsDamagedMetaAndSkipsTheRest(t *testing.T) {
	root := t.TempDir()
	good, _ := Create(root, "good", "")
	bad, _ := Create(root, "bad", "")
	mismatch, _ := Create(root, "moved", "")
	os.WriteFile(filepath.Join(bad.Dir, "theme.json"), []byte(`{"name": "Harbour Night", "palette": {}}`), 0o644)
	os.WriteFile(filepath.Join(bad.Dir, MetaFile), []byte(`{"id": "`), 0o644) // cut short
	b, _ := os.ReadFile(filepath.Join(mismatch.Dir, MetaFile))
	os.WriteFile(filepath.Join(mismatch.Dir, MetaFile), []byte(strings.Replace(string(b), mismatch.ID, "20200101-000000-000000", 1)), 0o644)
	noMeta := filepath.Join(root, "20250101-000000-abcdef")
	os.Mkdir(noMeta, 0o755)
	os.Mkdir(filepath.Join(root, "not-a-workspace"), 0o755)
	os.WriteFile(filepath.Join(root, "stray.txt"), nil, 0o644)

	list, problems := List(root)
	ids := map[string]Meta{}
	for _, m := range list {
		ids[m.ID] = m
	}
	if len(list) != 2 || ids[good.ID].Title != "good" {
		t.Errorf("list = %+v, want the good workspace and the rebuilt one", list)
	}
	// The damaged one: rebuilt from its folder, the damaged file kept.
	if m := ids[bad.ID]; m.Title != "Harbour Night" || m.Created.Format("20060102-150405") != bad.ID[:15] {
		t.Errorf("rebuilt meta = %+v", m)
	}
	if copies, _ := filepath.Glob(filepath.Join(bad.Dir, MetaFile+damaged.Suffix+"*")); len(copies) != 1 {
		t.Errorf("damaged meta not kept aside: %v", copies)
	} else if b, _ := os.ReadFile(copies[0]); string(b) != `{"id": "` {
		t.Errorf("the copy holds %q", b)
	}
	if again, err := Open(root, bad.ID); err != nil || again.Title != "Harbour Night" {
		t.Errorf("reopened: %+v %v", again, err)
	}
	if len(problems) != 2 {
		t.Fatalf("problems = %v, want 2 (mismatched id, missing metadata)", problems)
	}
	all := ""
	for _, p := range problems {
		all += p.Error() + "\n"
	}
	for _, want := range []string{mismatch.ID, "20250101-000000-abcdef"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	// A missing root is simply empty.
	if list, problems := List(filepath.Join(root, "none")); len(list) != 0 || len(problems) != 0 {
		t.Errorf("missing root: %v %v", list, problems)
	}
}

func TestOpenRejectsBadIDs(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(filepath.Dir(root), "20261202-101500-ab12cd")
	os.MkdirAll(outside, 0o755)
	defer os.RemoveAll(outside)
	for _, id := range []string{"", "..", "../20261202-101500-ab12cd", "20261202-101500-ab12cd/..", "/etc", "20261202-101500-AB12CD", "20261202-101500-ab12cd\x00"} {
		if _, err := Open(root, id); err == nil || !strings.Contains(err.Error(), "not a workspace id") {
			t.Errorf("Open(%q) = %v, want an invalid-id error", id, err)
		}
	}
	if _, err := Open(root, "20261202-101500-ab12cd"); err == nil || !strings.Contains(err.Error(), "no such workspace") {
		t.Errorf("missing workspace: %v", err)
	}
}

func TestAddSessionAndSetTitle(t *testing.T) {
	root := t.TempDir()
	m, _ := Create(root, "x", "")
	var wg sync.WaitGroup
	for _, s := range []string{"s1", "s2", "s3", "s1", "s2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := AddSession(root, m.ID, s); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := Open(root, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.SessionIDs) != 3 {
		t.Errorf("sessions = %v, want s1..s3 once each", got.SessionIDs)
	}
	if _, err := AddSession(root, m.ID, " "); err == nil {
		t.Error("empty session id accepted")
	}
	long := strings.Repeat("é", 300)
	if m2, err := SetTitle(root, m.ID, long); err != nil || len([]rune(m2.Title)) != maxTitle || !strings.HasSuffix(m2.Title, "…") {
		t.Errorf("long title: %q %v", m2.Title, err)
	}
	if _, err := SetTitle(root, m.ID, "Neon harbour"); err != nil {
		t.Fatal(err)
	}
	if _, err := SetModel(root, m.ID, "o3"); err != nil {
		t.Fatal(err)
	}
	got, _ = Open(root, m.ID)
	if got.Title != "Neon harbour" || got.Model != "o3" || len(got.SessionIDs) != 3 {
		t.Errorf("after updates: %+v", got)
	}
	if _, err := SetTitle(root, "../x", "y"); err == nil {
		t.Error("SetTitle accepted a bad id")
	}
}

func TestRootFollowsDataDir(t *testing.T) {
	d := t.TempDir()
	t.Setenv("CDXTHEME_DATA_DIR", d)
	if Root() != filepath.Join(d, "theme_builder") {
		t.Errorf("Root() = %s", Root())
	}
}
