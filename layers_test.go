package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
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

// serviceCalls reads app's services (the types embedding *env) from its
// non-test files: each one's methods, and which other service each method
// calls through a field (recv.field.Method(...)).
type serviceCalls struct {
	fields  map[string]map[string]string // service → field → service it holds
	methods map[string]*ast.FuncDecl     // "Service.method"
}

func readServices(t *testing.T) serviceCalls {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("app", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	sc := serviceCalls{fields: map[string]map[string]string{}, methods: map[string]*ast.FuncDecl{}}
	var parsed []*ast.File
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || len(st.Fields.List) == 0 || types.ExprString(st.Fields.List[0].Type) != "*env" {
				return true
			}
			sc.fields[ts.Name.Name] = map[string]string{}
			return true
		})
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || sc.fields[ts.Name.Name] == nil {
				return true
			}
			for _, fl := range ts.Type.(*ast.StructType).Fields.List {
				typ := strings.TrimPrefix(types.ExprString(fl.Type), "*")
				if _, ok := sc.fields[typ]; ok {
					for _, nm := range fl.Names {
						sc.fields[ts.Name.Name][nm.Name] = typ
					}
				}
			}
			return true
		})
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Body != nil {
				recv := strings.TrimPrefix(types.ExprString(fd.Recv.List[0].Type), "*")
				if _, ok := sc.fields[recv]; ok {
					sc.methods[recv+"."+fd.Name.Name] = fd
				}
			}
		}
	}
	if len(sc.fields) < 8 || sc.methods["Turns.startTurn"] == nil {
		t.Fatalf("read %d services and no Turns.startTurn: the reading missed app", len(sc.fields))
	}
	return sc
}

// calls lists what a method calls on its own receiver: "field.Method" for
// another service's method, "Method" for one of its own (or env's).
func (sc serviceCalls) calls(service string, fd *ast.FuncDecl) []string {
	recv := ""
	if names := fd.Recv.List[0].Names; len(names) > 0 {
		recv = names[0].Name
	}
	var out []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ce, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ce.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch x := sel.X.(type) {
		case *ast.Ident:
			if x.Name == recv {
				out = append(out, sel.Sel.Name)
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == recv && sc.fields[service][x.Sel.Name] != "" {
				out = append(out, sc.fields[service][x.Sel.Name]+"."+sel.Sel.Name)
			}
		}
		return true
	})
	return out
}

// A turn is observed, not a hub calling the services that keep its traces
// (issue #42): the chat memory, the artifacts and the session map follow
// the turn's events as turnrun.Observers. Turns holds none of Chats and
// Builds, starts no write of the session map itself, and the observers,
// with everything of their own they call, never call back into Turns (a
// turn's events are delivered on its goroutine: a call back would re-enter
// the hub mid-turn). No new pair of services calls each other both ways.
func TestTurnsIsObservedNotCalling(t *testing.T) {
	sc := readServices(t)
	for field, typ := range sc.fields["Turns"] {
		if typ == "Chats" || typ == "Builds" {
			t.Errorf("Turns.%s holds %s: the chat memory and the artifacts observe the turn (turnrun.Observer)", field, typ)
		}
	}
	for name, fd := range sc.methods {
		if !strings.HasPrefix(name, "Turns.") {
			continue
		}
		for _, c := range sc.calls("Turns", fd) {
			switch c {
			case "Agents.runsSession", "Agents.runsWorkspace", "recordSession":
				t.Errorf("%s calls %s: the session map observes the turn (Agents.observeTurn)", name, c)
			}
		}
	}
	observed := 0
	for name := range sc.methods {
		service, method, _ := strings.Cut(name, ".")
		if method != "observeTurn" {
			continue
		}
		observed++
		// Everything the observer runs of its own service, transitively.
		seen := map[string]bool{}
		todo := []string{method, "planTurn", "sessionWarmed"}
		for len(todo) > 0 {
			m := todo[0]
			todo = todo[1:]
			fd := sc.methods[service+"."+m]
			if fd == nil || seen[m] {
				continue
			}
			seen[m] = true
			for _, c := range sc.calls(service, fd) {
				if strings.HasPrefix(c, "Turns.") {
					t.Errorf("%s.%s (run by %s.observeTurn) calls %s: an observer never calls back into Turns", service, m, service, c)
				}
				if !strings.Contains(c, ".") {
					todo = append(todo, c)
				}
			}
		}
	}
	if observed < 3 {
		t.Errorf("%d services observe the turn; the chat memory (Chats), the artifacts (Builds) and the session map (Agents) must", observed)
	}
	// The pairs that still call each other both ways (4, from 6 before
	// issue #42): none is to be added.
	allowed := map[string]bool{"Agents↔Turns": true, "Builds↔Editor": true, "Builds↔Themes": true, "Editor↔Turns": true}
	edges := map[[2]string]bool{}
	for name, fd := range sc.methods {
		service, _, _ := strings.Cut(name, ".")
		for _, c := range sc.calls(service, fd) {
			if to, _, ok := strings.Cut(c, "."); ok && to != service {
				edges[[2]string{service, to}] = true
			}
		}
	}
	for e := range edges {
		if e[0] < e[1] && edges[[2]string{e[1], e[0]}] && !allowed[e[0]+"↔"+e[1]] {
			t.Errorf("%s and %s now call each other both ways: let one observe the other, or ask in one direction", e[0], e[1])
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

// What a message sends is built without a turn: core/prompt knows no
// engine, agent process or workspace bookkeeping.
func TestPromptKnowsNoTurn(t *testing.T) {
	onlyImports(t, "core/prompt", "cdxtheme/core/acp", "cdxtheme/core/fswrite", "cdxtheme/core/inside")
}

// A tool call's command and output are read from the update alone.
func TestToolCallKnowsNoTurn(t *testing.T) {
	onlyImports(t, "core/toolcall", "cdxtheme/core/acp", "cdxtheme/core/agent")
}

// Who answers a permission request knows nothing of the turn asking.
func TestPermissionKnowsNoTurn(t *testing.T) {
	onlyImports(t, "core/permission", "cdxtheme/core/acp")
}

// The scheme slots are a table over the model's roles.
func TestBase16ReadsOnlyTheModel(t *testing.T) {
	onlyImports(t, "core/base16", "cdxtheme/core/theme")
}

// A property list is a file format, not a theme: core/plist reads it for
// the importer (core/themeimport), which says what its keys mean.
func TestPlistKnowsNoTheme(t *testing.T) {
	onlyImports(t, "core/plist")
}

// onlyImports fails when a package imports any of the module's packages
// but those allowed.
func onlyImports(t *testing.T, dir string, allowed ...string) {
	t.Helper()
	fset := token.NewFileSet()
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
			if to := strings.Trim(im.Path.Value, `"`); strings.HasPrefix(to, "cdxtheme/") && !slices.Contains(allowed, to) {
				t.Errorf("%s imports %s: %s may import only %v of the module", p, to, dir, allowed)
			}
		}
	}
}

// Bun's lockfile is data the agent installer reads: it knows no agent.
func TestBunLockKnowsNoAgent(t *testing.T) {
	onlyImports(t, "core/bunlock", "cdxtheme/core/jsonc")
}

// The theme model sits below what reads and writes it (issue #40): the
// importers, Apply, the packagers and the targets import core/theme,
// never the reverse, and the importers and packagers need no Apply. The
// colour maths (core/colour) sits below the model.
func TestThemeModelIsTheFloor(t *testing.T) {
	forbid := map[string][]string{
		"core/theme":       {"cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets", "cdxtheme/core/themewatch", "cdxtheme/core/contrast", "cdxtheme/core/companion", "cdxtheme/core/install", "cdxtheme/core/themeschema", "cdxtheme/core/base16"},
		"core/themeimport": {"cdxtheme/core/apply", "cdxtheme/core/packaging"},
		"core/packaging":   {"cdxtheme/core/apply", "cdxtheme/core/themeimport"},
		"core/targets":     {"cdxtheme/core/themeimport", "cdxtheme/core/packaging"},
		// The preview's state and its watcher read the model and need
		// none of what imports, installs, packages or renders a theme.
		"core/themewatch": {"cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets"},
		// The contrast checks and the derived companion read the model;
		// the companion is derived keeping contrast, never the reverse.
		"core/contrast":  {"cdxtheme/core/companion", "cdxtheme/core/themewatch", "cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets"},
		"core/companion": {"cdxtheme/core/themewatch", "cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets"},
		// The schema is built from the model's catalogue alone.
		"core/themeschema": {"cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets", "cdxtheme/core/install"},
		// The install targets are a list Apply and the templates read
		// and fill: they know no writer, importer or template.
		"core/install": {"cdxtheme/core/apply", "cdxtheme/core/targets", "cdxtheme/core/themeimport", "cdxtheme/core/packaging", "cdxtheme/core/live"},
		// The colour maths knows nothing of themes.
		"core/colour": {"cdxtheme/core/theme", "cdxtheme/core/themewatch", "cdxtheme/core/contrast", "cdxtheme/core/companion", "cdxtheme/core/themeimport", "cdxtheme/core/apply", "cdxtheme/core/packaging", "cdxtheme/core/targets"},
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

// The packages that hold what the bound services use (issue #40: app
// under ~3k lines, each piece findable by name) hold logic, not the
// window: none imports Wails (app, app/shell and app/selftest speak to
// it), so each is tested without one.
func TestAppHelpersKnowNoWindow(t *testing.T) {
	helpers := []string{"app/artifact", "app/assets", "app/buildcard", "app/chatagents", "app/chathistory",
		"app/chatmemory", "app/compare", "app/drops", "app/editing", "app/handoff", "app/leftovers",
		"app/liveswitch", "app/opensafe", "app/pendingbuild", "app/quitsignal", "app/running", "app/searchindex",
		"app/sessionbar", "app/sessionopts", "app/stream", "app/turnrun", "app/watchset", "app/winstate"}
	fset := token.NewFileSet()
	for _, dir := range helpers {
		files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*.go"))
		if len(files) == 0 {
			t.Errorf("%s has no Go files: update this list with the package's new name", dir)
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
				if to := strings.Trim(im.Path.Value, `"`); strings.HasPrefix(to, "github.com/wailsapp/") {
					t.Errorf("%s imports %s: what the services use knows no window", p, to)
				}
			}
		}
	}
}
