package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// floor places a package of this module on the four floors of docs/ARCHITECTURE.md's
// drawing: main (1) → app (2) → core/chat (3) → the other core packages
// (4). 0 is off the drawing (internal/ test tools, peers).
func floor(pkg string) int {
	switch {
	case pkg == "cdxtheme":
		return 1
	case pkg == "cdxtheme/app" || strings.HasPrefix(pkg, "cdxtheme/app/"):
		return 2
	case pkg == "cdxtheme/core/chat":
		return 3
	case strings.HasPrefix(pkg, "cdxtheme/core/"):
		return 4
	}
	return 0
}

// TestNoArrowRunsUp reads the imports of every non-test Go file (whatever
// its build tags) and fails on one that points to a higher floor, on core
// importing Wails or internal/, and on app importing internal/.
func TestNoArrowRunsUp(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "frontend", "e2e", "peers", "testdata", "build", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		pkg := "cdxtheme"
		if dir := filepath.ToSlash(filepath.Dir(p)); dir != "." {
			pkg += "/" + dir
		}
		from := floor(pkg)
		if from == 0 {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, im := range f.Imports {
			to := strings.Trim(im.Path.Value, `"`)
			switch {
			case from >= 3 && strings.HasPrefix(to, "github.com/wailsapp/"):
				t.Errorf("%s imports %s: core never imports Wails", p, to)
			case from >= 2 && strings.HasPrefix(to, "cdxtheme/internal/"):
				t.Errorf("%s imports %s: the product never imports test tools", p, to)
			case strings.HasPrefix(to, "cdxtheme") && floor(to) != 0 && floor(to) < from:
				t.Errorf("%s (floor %d) imports %s (floor %d): an arrow running up", p, from, to, floor(to))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("read only %d files; the walk missed the tree", seen)
	}
}

// The root holds main.go and what go:embed must reach from it (issue #42):
// platform glue lives in app/shell, where a newcomer finds it by name.
func TestRootHoldsOnlyMain(t *testing.T) {
	allowed := map[string]bool{"main.go": true, "assets.go": true, "assets_cli.go": true}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !allowed[n] {
			t.Errorf("%s is in the module's root: put it in the package named for what it does (app/shell for the window's glue)", n)
		}
	}
}
