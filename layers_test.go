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
// importing Wails, and on main, app or core importing internal/.
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
			case from >= 1 && strings.HasPrefix(to, "cdxtheme/internal/"):
				t.Errorf("%s imports %s: the product never imports internal/ (test rigs, tools, the benchmark)", p, to)
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

// internalIntent is what each folder directly under internal/ holds, so a
// newcomer tells what ships from what only tests use (issue #42).
var internalIntent = map[string]string{
	"ship":    "programs shipped to users beside the app (the agent shim)",
	"tools":   "programs developers run to generate or check the tree (tsgen, adapterlock, mutate)",
	"testrig": "what tests import or start: fake agents, API mocks, fixtures, helpers",
	"suites":  "test suites of their own: faults, real peers, third-party agents, window drivers",
	"bench":   "the benchmark (make bench)",
}

// TestInternalByIntent keeps internal/ sorted by intent: nothing lands
// beside the five folders, and what ships never imports what only tests,
// tools or the benchmark use (a test rig in a shipped binary would carry
// fakes to users).
func TestInternalByIntent(t *testing.T) {
	entries, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := internalIntent[e.Name()]; !ok {
			t.Errorf("internal/%s: put it under the folder that says its intent: %v", e.Name(), internalIntent)
		}
	}
	fset := token.NewFileSet()
	seen := 0
	err = filepath.WalkDir(filepath.Join("internal", "ship"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, im := range f.Imports {
			to := strings.Trim(im.Path.Value, `"`)
			if strings.HasPrefix(to, "cdxtheme/internal/") && !strings.HasPrefix(to, "cdxtheme/internal/ship/") {
				t.Errorf("%s imports %s: what ships never imports test rigs, tools or the benchmark", p, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("read no Go file under internal/ship; the walk missed it")
	}
}

// The theme model sits below what reads and writes it (issue #40): the
// importers, Apply, the packagers and the targets import core/theme,
// never the reverse, and the importers and packagers need no Apply.
func TestThemeModelIsTheFloor(t *testing.T) {
	forbid := map[string][]string{
		"core/theme":       {"cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets"},
		"core/themeimport": {"cdxtheme/core/apply", "cdxtheme/core/packaging"},
		"core/packaging":   {"cdxtheme/core/apply", "cdxtheme/core/themeimport"},
		"core/targets":     {"cdxtheme/core/themeimport", "cdxtheme/core/packaging"},
	}
	fset := token.NewFileSet()
	for dir, bad := range forbid {
		files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
		if len(files) == 0 {
			t.Fatalf("%s has no Go files", dir)
		}
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				to := strings.Trim(im.Path.Value, `"`)
				for _, b := range bad {
					if to == b || strings.HasPrefix(to, b+"/") {
						t.Errorf("%s imports %s: an arrow running up from %s", p, to, dir)
					}
				}
			}
		}
	}
}
