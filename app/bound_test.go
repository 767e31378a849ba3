package app

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// boundSurface is every method the page can call, by service, as Wails
// names it: window.go.app.<Service>.<Method>.
func boundSurface(t *testing.T) map[string][]string {
	t.Helper()
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	surface := map[string][]string{}
	for _, s := range New(zerolog.Nop()).Bound() {
		typ := reflect.TypeOf(s)
		if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
			t.Fatalf("bound %v is no pointer to a struct: Wails would refuse it", typ)
		}
		name := typ.Elem().Name()
		if _, dup := surface[name]; dup {
			t.Fatalf("service %s bound twice", name)
		}
		for i := range typ.NumMethod() {
			surface[name] = append(surface[name], typ.Method(i).Name)
		}
		if len(surface[name]) == 0 {
			t.Errorf("service %s binds nothing", name)
		}
	}
	return surface
}

// TestBoundSurfaceHoldsNoHooks fails when a lifecycle, menu or self-test
// hook (App's own methods) or anything taking the Wails context could be
// called from the page, and when App itself is bound.
func TestBoundSurfaceHoldsNoHooks(t *testing.T) {
	surface := boundSurface(t)
	if _, ok := surface["App"]; ok {
		t.Fatal("App is bound: its lifecycle hooks are callable from the page")
	}
	hooks := map[string]bool{}
	at := reflect.TypeOf(&App{})
	for i := range at.NumMethod() {
		hooks[at.Method(i).Name] = true
	}
	for _, h := range []string{"Startup", "BeforeClose", "Shutdown", "SecondInstance", "ShowView", "Quit", "ShowAbout", "Assets", "Bound"} {
		if !hooks[h] {
			t.Errorf("App has no %s: the hook moved, so this test no longer looks for it", h)
		}
	}
	ctxType := reflect.TypeOf((*interface{ Done() <-chan struct{} })(nil)).Elem()
	for _, s := range New(zerolog.Nop()).Bound() {
		typ := reflect.TypeOf(s)
		for i := range typ.NumMethod() {
			m := typ.Method(i)
			where := typ.Elem().Name() + "." + m.Name
			if hooks[m.Name] {
				t.Errorf("%s is bound: it is App's hook", where)
			}
			if strings.Contains(strings.ToLower(m.Name), "selftest") {
				t.Errorf("%s is bound: the self-test talks over its own events", where)
			}
			for j := 1; j < m.Type.NumIn(); j++ {
				if m.Type.In(j).Implements(ctxType) {
					t.Errorf("%s takes a context: a lifecycle hook, not a binding", where)
				}
			}
		}
	}
}

// TestEveryBindingIsCalled fails on a bound method the UI never calls
// (frontend/src/lib/api.ts is its only door to Go: a binding counts when
// an api.ts function calls it and a view, component or store outside the
// tests calls that function), and on a call there to a method no service
// binds.
func TestEveryBindingIsCalled(t *testing.T) {
	surface := boundSurface(t)
	src, err := os.ReadFile("../frontend/src/lib/api.ts")
	if err != nil {
		t.Fatal(err)
	}
	ui := uiSource(t)
	calls := map[string]bool{}
	binding := regexp.MustCompile(`\b([A-Z]\w*)\.([A-Z]\w*)\(`)
	name := regexp.MustCompile(`^(?:async )?function (\w+)`)
	for _, fn := range strings.Split(string(src), "\nexport ")[1:] {
		n := name.FindStringSubmatch(fn)
		for _, m := range binding.FindAllStringSubmatch(fn, -1) {
			if surface[m[1]] == nil {
				continue
			}
			if n == nil || !usesAPI(ui, n[1]) {
				t.Errorf("%s.%s is called only by api.ts %q, which nothing in the UI calls", m[1], m[2], strings.SplitN(fn, "(", 2)[0])
				continue
			}
			calls[m[1]+"."+m[2]] = true
		}
	}
	bound := map[string]bool{}
	var all []string
	for svc, methods := range surface {
		for _, m := range methods {
			bound[svc+"."+m] = true
			all = append(all, svc+"."+m)
			if !calls[svc+"."+m] {
				t.Errorf("%s.%s is bound but api.ts never calls it", svc, m)
			}
		}
	}
	for c := range calls {
		if svc, _, _ := strings.Cut(c, "."); surface[svc] != nil && !bound[c] {
			t.Errorf("api.ts calls %s, which no service binds", c)
		}
	}
	if len(all) < 40 {
		t.Fatalf("only %d bound methods found: the surface walk is broken", len(all))
	}
	sort.Strings(all)
	t.Logf("the UI calls api.ts from %d characters of source", len(ui))
	t.Logf("%d bound methods on %d services: %s", len(all), len(surface), strings.Join(all, " "))
}

// usesAPI reports whether the UI source calls api.ts's function fn: as
// api.fn, or imported by name from api.ts.
func usesAPI(ui, fn string) bool {
	if regexp.MustCompile(`\bapi\.` + fn + `\b`).MatchString(ui) {
		return true
	}
	for _, m := range regexp.MustCompile(`import\s*\{([^}]*)\}\s*from\s*'[^']*\bapi'`).FindAllStringSubmatch(ui, -1) {
		if regexp.MustCompile(`\b` + fn + `\b`).MatchString(m[1]) {
			return true
		}
	}
	return false
}

// uiSource is the UI's own source outside api.ts and the tests.
func uiSource(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir("../frontend/src", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "test" {
				return filepath.SkipDir
			}
			return nil
		}
		if p == filepath.Join("..", "frontend", "src", "lib", "api.ts") || strings.Contains(p, ".test.") ||
			!(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".svelte")) {
			return nil
		}
		src, err := os.ReadFile(p)
		b.Write(src)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() < 10000 {
		t.Fatalf("only %d characters of UI source found", b.Len())
	}
	return b.String()
}

// TestServicesShareOnlyEnv keeps each service the owner of its own state
// (issue #25): the one struct they all embed is the shared env, which
// holds only the Wails context, the logger and the emitter, and every
// other service a service asks is wired in New (a nil one would panic on
// first use in the page).
func TestServicesShareOnlyEnv(t *testing.T) {
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	a := New(zerolog.Nop())
	envType := reflect.TypeOf(a.env)
	var shared []string
	for i := range envType.Elem().NumField() {
		shared = append(shared, envType.Elem().Field(i).Name)
	}
	if strings.Join(shared, " ") != "ctx log emit" {
		t.Errorf("env holds %v: only the context, the logger and the emitter are everyone's; give any other state to the service it belongs to", shared)
	}
	services := map[reflect.Type]bool{}
	for _, s := range a.Bound() {
		services[reflect.TypeOf(s)] = true
	}
	for _, s := range a.Bound() {
		v := reflect.ValueOf(s).Elem()
		name := v.Type().Name()
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			switch {
			case f.Anonymous && f.Type != envType:
				t.Errorf("%s embeds %v: a service embeds only env, and asks other services through fields", name, f.Type)
			case f.Anonymous && fv.Pointer() != reflect.ValueOf(a.env).Pointer():
				t.Errorf("%s has an env of its own: Startup's context and emitter would not reach it", name)
			case services[f.Type] && fv.IsNil():
				t.Errorf("%s.%s is not wired in New", name, f.Name)
			}
		}
	}
}
