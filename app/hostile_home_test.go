package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/app/buildcard"
	"cdxtheme/core/workspace"
)

// Home reads every build's theme.json to draw its card. A build whose
// theme.json is hostile (issue #36: the derive chain that hung, a binary
// plist bomb, deep or huge JSON) shows as a card of its own and never
// keeps the others from being listed.
func TestHostileThemeNeverKeepsHomeFromListing(t *testing.T) {
	a, _ := dropApp(t)
	root := workspace.Root()
	build := func(title string, doc []byte) workspace.Meta {
		t.Helper()
		m, err := workspace.Create(root, title, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := workspace.AddSession(root, m.ID, "s-"+m.ID); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(m.Dir, "theme.json"), doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := build("Harbour", mustRead(t, "../core/theme/testdata/example.theme.json"))

	hostile := map[string][]byte{
		// Just under theme.json's 1 MB cap, so they are parsed.
		"deep":      []byte(strings.Repeat("[", 1<<20-1)),
		"wide":      []byte(`{"name":"Wide","x":[` + strings.Repeat("0,", 1<<19-16) + `0]}`),
		"long key":  []byte(`{"name":"Long","` + strings.Repeat("k", 1<<20-32) + `":1}`),
		"many keys": manyKeys(1<<20 - 64),
		// Over it: refused unread.
		"huge": []byte(`{"name":"Huge","x":"` + strings.Repeat("x", 4<<20) + `"}`),
	}
	dir := "../core/theme/testdata/hostile"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		hostile[e.Name()] = mustRead(t, filepath.Join(dir, e.Name()))
	}
	ids := map[string]string{good.ID: "Harbour"}
	for name, doc := range hostile {
		ids[build(name, doc).ID] = name
	}

	var cards []BuildCard
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); cards = a.Builds.Builds() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // a guard against a hang; it takes well under a second
		t.Fatal("Home did not list the builds within 60 s")
	}
	t.Logf("%d builds listed in %s", len(cards), time.Since(start))
	listed := map[string]BuildCard{}
	for _, c := range cards {
		listed[c.ID] = c
	}
	for id, name := range ids {
		if _, ok := listed[id]; !ok {
			t.Errorf("the build %q is not on Home", name)
		}
	}
	if c := listed[good.ID]; c.Name != "Harbour Night" || (c.Status != buildcard.Ready && c.Status != buildcard.Failing) {
		t.Errorf("the good build's card: %+v", c)
	}
	for id, name := range ids {
		if c := listed[id]; id != good.ID && c.Status == buildcard.NoTheme {
			t.Errorf("%s: shown as having no theme, not as a broken one", name)
		}
	}
}

// manyKeys is a JSON object of distinct keys, about size bytes.
func manyKeys(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"name":"Many"`)
	for i := 0; b.Len() < size-16; i++ {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":0`)
	}
	b.WriteString("}")
	return []byte(b.String())
}
