//go:build unix

package history

import (
	"context"
	"path/filepath"
	"testing"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/search"
)

// The generated search corpus must be what the index reads in full: every
// session indexed, its own word found in it alone.
func TestSearchCorpusIsIndexable(t *testing.T) {
	home := codexhome.Home{Dir: t.TempDir()}
	t.Setenv("CDXTHEME_CACHE_DIR", t.TempDir())
	size, err := writeSearchCorpus(home.Dir, 3, 40<<10)
	if err != nil {
		t.Fatal(err)
	}
	if size < 3*40<<10 {
		t.Errorf("corpus of %d bytes, want at least %d", size, 3*40<<10)
	}
	ix, err := search.Open(context.Background(), filepath.Join(t.TempDir(), "ix.db"), home)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Update(context.Background(), nil)
	if err != nil || st.Indexed != 3 || st.Failed != 0 {
		t.Fatalf("update: %+v %v", st, err)
	}
	for q, want := range map[string]int{"session00002": 1, "hello": 3} {
		hits, err := ix.Search(context.Background(), search.ParseQuery(q))
		if err != nil || len(hits) != want {
			t.Errorf("%s: %d hits (%v), want %d", q, len(hits), err, want)
		}
	}
}
