package targets

import (
	"bytes"
	"cdxtheme/core/companion"
	"cdxtheme/internal/testrig/programs"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/theme"
)

// Each target whose program Debian ships is proven by loading its output
// into that program. `make test` installs them (APT_PACKAGES) and sets
// CDXTHEME_REQUIRE_PROGRAMS, so there a missing program fails instead of
// skipping. The rest are checked against their documented format
// (schema_test.go).

// program is the path of a program the test loads its output into.
func program(t *testing.T, name, debian string) string { return programs.Find(t, name, debian) }

// run runs a program with a private HOME and XDG folders and a time bound.
func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir + "/config", "XDG_CACHE_HOME=" + dir + "/cache",
		"XDG_DATA_HOME=" + dir + "/data", "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb"}, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// hostileName holds what ends a string, a comment or a command in the
// targets' syntaxes; the companion carries it, so every loader reads a
// file written for a hostile name.
const hostileName = `Dusk "q" 'a' <&> \ $(x) ;# %s --]] */ -->end`

// family is the example theme with its derived light companion, so every
// loader sees both appearances; the companion has the hostile name.
func family(t *testing.T) *theme.Theme {
	t.Helper()
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	th.Companion.Name = hostileName
	return th
}

// rendered writes one target's files for th into a fresh folder.
func rendered(t *testing.T, id string, th *theme.Theme, sub string) (string, map[string][]byte) {
	t.Helper()
	files, err := Render(th, id)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range files {
		p := filepath.Join(dir, sub, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, files
}

func hex(t *testing.T, th *theme.Theme, role string) string {
	t.Helper()
	return th.Seen(th.Color(role)).Hex()
}

// vimProbe is the Vimscript both Vim and Neovim run after :colorscheme: what
// they made of it, as JSON.
const vimProbe = `call writefile([json_encode([v:errmsg, g:colors_name, &background,
 \ synIDattr(synIDtrans(hlID('Normal')), 'bg#', 'gui'), synIDattr(synIDtrans(hlID('String')), 'fg#', 'gui'),
 \ synIDattr(synIDtrans(hlID('Visual')), 'bg#', 'gui'), get(g:, 'terminal_ansi_colors', [''])[1]])], 'probe.json')`

func TestVimLoadsTheVimscriptColorscheme(t *testing.T) {
	for _, prog := range []struct{ name, debian string }{{"vim", "vim"}, {"nvim", "neovim"}} {
		t.Run(prog.name, func(t *testing.T) {
			t.Parallel()
			bin := program(t, prog.name, prog.debian)
			th := family(t)
			dir, _ := rendered(t, "vim", th, "rtp")
			for _, m := range th.Family() {
				os.WriteFile(filepath.Join(dir, "probe.vim"), []byte(vimProbe+"\n"), 0o644)
				args := []string{"-u", "NONE", "-i", "NONE", "-es", "--cmd", "set rtp^=" + filepath.Join(dir, "rtp"),
					"-c", "colorscheme " + theme.Slug(m.Name), "-c", "source probe.vim", "-c", "qa!"}
				if prog.name == "nvim" {
					args = append([]string{"--headless"}, args...)
				} else {
					args = append([]string{"-N"}, args...) // Vim's defaults, not vi's
				}
				os.Remove(filepath.Join(dir, "probe.json"))
				_, stderr, err := run(t, dir, nil, bin, args...)
				b, rerr := os.ReadFile(filepath.Join(dir, "probe.json"))
				if err != nil || rerr != nil {
					t.Fatalf("%s did not load the colorscheme: %v %v\n%s", prog.name, err, rerr, stderr)
				}
				var got []string
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("probe: %v: %s", err, b)
				}
				want := []string{"", theme.Slug(m.Name), m.Appearance, hex(t, m, "ui.background"), hex(t, m, "syntax.string"),
					hex(t, m, "ui.selection"), hex(t, m, "ansi.red")}
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s read %q, want %q", prog.name, got, want)
				}
			}
		})
	}
}

// Vim paints the per-language groups as the Neovim export does (the same
// table, ../neovim/groups.toml): a language group by its role, a family
// of groups by a name pattern (typescriptcommon.vim's *Method groups),
// and the syntax items the colorscheme adds when the syntax loads (a
// Python class name), with the sample files of the consistency suite.
const vimLangProbe = `let s:errs = []
for s:f in ['palette.go', 'contrast.py', 'preview.ts']
  execute 'edit ' . fnameescape(s:src . '/' . s:f)
  call add(s:errs, v:errmsg)
endfor
execute 'edit ' . fnameescape(s:src . '/contrast.py')
let s:class = search('^class \zs')
call writefile([json_encode([join(s:errs, ''), synIDattr(synIDtrans(hlID('goFloats')), 'fg#', 'gui'),
 \ synIDattr(synIDtrans(hlID('typescriptStringMethod')), 'fg#', 'gui'),
 \ synIDattr(synIDtrans(synID(s:class, col('.'), 1)), 'fg#', 'gui')])], 'lang.json')`

func TestVimPaintsTheLanguageGroups(t *testing.T) {
	bin := program(t, "vim", "vim")
	th := theme.Example()
	dir, _ := rendered(t, "vim", th, "rtp")
	src, err := filepath.Abs("../../internal/suites/consistency/testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "lang.vim"), []byte("let s:src = '"+src+"'\n"+vimLangProbe+"\n"), 0o644)
	_, stderr, err := run(t, dir, nil, bin, "-N", "-u", "NONE", "-i", "NONE", "-es", "--cmd", "set rtp^="+filepath.Join(dir, "rtp"),
		"-c", "set termguicolors", "-c", "filetype on", "-c", "syntax on", "-c", "colorscheme "+theme.Slug(th.Name),
		"-c", "source lang.vim", "-c", "qa!")
	b, rerr := os.ReadFile(filepath.Join(dir, "lang.json"))
	if err != nil || rerr != nil {
		t.Fatalf("vim: %v %v\n%s", err, rerr, stderr)
	}
	var got []string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("probe: %v: %s", err, b)
	}
	want := []string{"", hex(t, th, "syntax.builtinType"), hex(t, th, "syntax.function"), hex(t, th, "syntax.type")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("vim painted (errors, goFloats, typescriptStringMethod, a class name) %q, want %q", got, want)
	}
}

func TestEmacsLoadsTheDeftheme(t *testing.T) {
	t.Parallel()
	bin := program(t, "emacs", "emacs-nox")
	th := family(t)
	dir, _ := rendered(t, "emacs", th, "themes")
	// A slug that Lisp would read as a number is still a theme's name.
	num := theme.Example()
	num.Name = "1984"
	rendered2, _ := Render(num, "emacs")
	os.WriteFile(filepath.Join(dir, "themes", "1984-theme.el"), rendered2["1984-theme.el"], 0o644)
	for _, m := range append(th.Family(), num) {
		slug := theme.Slug(m.Name)
		// (intern SLUG) is the theme's symbol as M-x load-theme reads it.
		lisp := `(progn (add-to-list 'custom-theme-load-path (expand-file-name "themes")) (load-theme (intern "` + slug +
			`") t) (princ (format "%s|%s|%s|%s" (face-attribute 'default :background) (face-attribute 'font-lock-keyword-face :foreground) (face-attribute 'region :background) (custom-theme-enabled-p (intern "` + slug + `")))))`
		out, stderr, err := run(t, dir, nil, bin, "-Q", "--batch", "--eval", lisp)
		if err != nil {
			t.Fatalf("emacs: %v\n%s", err, stderr)
		}
		want := hex(t, m, "ui.background") + "|" + hex(t, m, "syntax.keyword") + "|" + hex(t, m, "ui.selection") + "|(" + slug + ")"
		if out != want {
			t.Errorf("emacs read %q, want %q (stderr %s)", out, want, stderr)
		}
	}
}

func TestFishChoosesTheTheme(t *testing.T) {
	t.Parallel()
	bin := program(t, "fish", "fish")
	th := family(t)
	dir, _ := rendered(t, "fish", th, "config/fish/themes")
	for _, m := range th.Family() {
		out, stderr, err := run(t, dir, nil, bin, "--no-config", "-c",
			"fish_config theme choose "+theme.Slug(m.Name)+"; and echo $fish_color_command; echo $fish_color_quote")
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, stderr)
		}
		want := hex(t, m, "syntax.function")[1:] + "\n" + hex(t, m, "syntax.string")[1:] + "\n"
		if out != want {
			t.Errorf("fish set %q, want %q (stderr %s)", out, want, stderr)
		}
	}
}

func TestFzfAcceptsTheColours(t *testing.T) {
	t.Parallel()
	program(t, "fzf", "fzf")
	th := family(t)
	dir, files := rendered(t, "fzf", th, "")
	for name := range files {
		// fzf exits 2 on an option it cannot parse, 1 when nothing matched.
		out, stderr, err := run(t, dir, nil, "sh", "-c", `. ./`+name+` && printf '%s\n' "$FZF_DEFAULT_OPTS" && fzf --filter x </dev/null`)
		var ee *exec.ExitError
		if err == nil || !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("fzf rejected %s: %v\n%s", name, err, stderr)
		}
		if !strings.Contains(out, "bg+:") {
			t.Errorf("FZF_DEFAULT_OPTS lacks the colours: %q", out)
		}
	}
}

func TestGitReadsTheDeltaFeature(t *testing.T) {
	t.Parallel()
	bin := program(t, "git", "git")
	th := family(t)
	dir, files := rendered(t, "delta", th, "")
	for _, m := range th.Family() {
		slug := theme.Slug(m.Name)
		name := slug + ".gitconfig"
		if files[name] == nil {
			t.Fatalf("no %s", name)
		}
		out, stderr, err := run(t, dir, nil, bin, "config", "-f", name, "--get", "delta."+slug+".plus-style")
		if err != nil || out != "syntax "+hex(t, m, "diff.addedLine")+"\n" {
			t.Errorf("git read %q (%v %s), want the added line colour", out, err, stderr)
		}
	}
}

func TestLsColoursDirectoriesWithTheTheme(t *testing.T) {
	t.Parallel()
	program(t, "ls", "coreutils")
	th := family(t)
	dir, _ := rendered(t, "ls-colors", th, "")
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	c := th.Seen(th.Color("syntax.function"))
	out, stderr, err := run(t, dir, nil, "sh", "-c", `. ./harbour-night.sh && ls --color=always -d folder`)
	want := "\x1b[1;38;2;" + strconv.Itoa(int(c.R)) + ";" + strconv.Itoa(int(c.G)) + ";" + strconv.Itoa(int(c.B)) + "mfolder"
	if err != nil || stderr != "" || !strings.Contains(out, want) {
		t.Errorf("ls printed %q, stderr %q (%v); want %q", out, stderr, err, want)
	}
}

func TestDconfCompilesTheGnomeTerminalProfile(t *testing.T) {
	t.Parallel()
	bin := program(t, "dconf", "dconf-cli")
	th := family(t)
	dir, files := rendered(t, "gnome-terminal", th, "")
	for _, m := range th.Family() {
		slug := theme.Slug(m.Name)
		// `dconf load` takes the file under a profile's path; `dconf
		// compile` reads the same key file syntax with the path spelled
		// out, and needs no session bus.
		kf := strings.Replace(string(files[slug+".dconf"]), "[/]", "[org/gnome/terminal/legacy/profiles:/:p]", 1)
		os.MkdirAll(filepath.Join(dir, "keyfiles"), 0o755)
		os.WriteFile(filepath.Join(dir, "keyfiles", "p"), []byte(kf), 0o644)
		if _, stderr, err := run(t, dir, nil, bin, "compile", "db", "keyfiles"); err != nil {
			t.Fatalf("dconf compile: %v\n%s", err, stderr)
		}
		os.WriteFile(filepath.Join(dir, "profile"), []byte("file-db:"+filepath.Join(dir, "db")+"\n"), 0o644)
		env := []string{"DCONF_PROFILE=" + filepath.Join(dir, "profile")}
		out, stderr, err := run(t, dir, env, bin, "read", "/org/gnome/terminal/legacy/profiles:/:p/background-color")
		if err != nil || out != "'"+hex(t, m, "ui.background")+"'\n" {
			t.Errorf("dconf read %q (%v %s)", out, err, stderr)
		}
		out, _, _ = run(t, dir, env, bin, "read", "/org/gnome/terminal/legacy/profiles:/:p/visible-name")
		if got := gvariantString(t, out); got != m.Name {
			t.Errorf("visible-name %q, want %q", got, m.Name)
		}
	}
}

func TestXrdbLoadsTheXresources(t *testing.T) {
	t.Parallel()
	program(t, "xrdb", "x11-xserver-utils")
	xvfb := program(t, "xvfb-run", "xvfb")
	th := family(t)
	dir, _ := rendered(t, "xresources", th, "")
	// xrdb -n prints what it would load, after its cpp pass and its
	// own parse (an Xvfb resets, losing the resources, when the last
	// client leaves, so -load then -query would read nothing).
	out, stderr, err := run(t, dir, nil, xvfb, "-a", "sh", "-c", "xrdb -n harbour-night.Xresources")
	if err != nil {
		t.Fatalf("xrdb: %v\n%s", err, stderr)
	}
	for _, want := range []string{"*.background:\t" + hex(t, th, "ui.background"), "*.color1:\t" + hex(t, th, "ansi.red"),
		"*.color15:\t" + hex(t, th, "ansi.brightWhite")} {
		if !strings.Contains(out, want) {
			t.Errorf("xrdb -n lacks %q:\n%s", want, out)
		}
	}
}

// gvariantString reads a GVariant string as dconf prints it: in single
// quotes, or in double quotes when it holds a single quote.
func gvariantString(t *testing.T, printed string) string {
	t.Helper()
	s := strings.TrimSuffix(printed, "\n")
	if strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") && len(s) >= 2 {
		s = `"` + strings.ReplaceAll(s[1:len(s)-1], `"`, `\"`) + `"`
	}
	u, err := strconv.Unquote(s)
	if err != nil {
		t.Fatalf("dconf printed %q: %v", printed, err)
	}
	return u
}

// Chromium checks a theme extension's manifest as it packs it: a colour
// that is not [r, g, b] integers, or a wrong manifest_version, and no .crx
// is written.
func TestChromiumPacksTheThemeExtension(t *testing.T) {
	bin := program(t, "chromium", "chromium")
	th := family(t)
	dir, _ := rendered(t, "chrome", th, "")
	for _, m := range th.Family() {
		ext := theme.Slug(m.Name) + "-chrome"
		t.Run(m.Appearance, func(t *testing.T) {
			t.Parallel()
			_, stderr, err := run(t, dir, nil, bin, "--headless", "--no-sandbox", "--user-data-dir="+filepath.Join(t.TempDir(), "profile"),
				"--pack-extension="+filepath.Join(dir, ext))
			if _, serr := os.Stat(filepath.Join(dir, ext+".crx")); err != nil || serr != nil {
				t.Fatalf("chromium did not pack %s: %v %v\n%s", ext, err, serr, stderr)
			}
		})
	}
}

// GTK's own CSS parser loads the libadwaita named colours: a helper built
// against GTK (testdata/gtkcss.c) loads the file through GtkCssProvider
// and prints the colours GTK read.
func TestGTKParsesTheNamedColours(t *testing.T) {
	t.Parallel()
	cc := program(t, "gcc", "build-essential")
	pc := program(t, "pkg-config", "pkg-config")
	flags, _, err := run(t, t.TempDir(), nil, pc, "--cflags", "--libs", "gtk+-3.0")
	if err != nil {
		if os.Getenv("CDXTHEME_REQUIRE_PROGRAMS") != "" {
			t.Fatalf("no gtk+-3.0 for pkg-config (Debian package libgtk-3-dev): %v", err)
		}
		t.Skip("no gtk+-3.0 for pkg-config (Debian package libgtk-3-dev)")
	}
	th := family(t)
	dir, _ := rendered(t, "gtk", th, "")
	src, _ := filepath.Abs("testdata/gtkcss.c")
	helper := filepath.Join(dir, "gtkcss")
	if _, stderr, err := run(t, dir, nil, cc, append([]string{src, "-o", helper}, strings.Fields(flags)...)...); err != nil {
		t.Fatalf("building the GTK helper: %v\n%s", err, stderr)
	}
	for _, m := range th.Family() {
		out, stderr, err := run(t, dir, nil, helper, theme.Slug(m.Name)+".css")
		if err != nil || stderr != "" {
			t.Fatalf("GTK refused the stylesheet: %v\n%s", err, stderr)
		}
		bg := m.Seen(m.UI.Background)
		want := "@define-color window_bg_color rgb(" + strconv.Itoa(int(bg.R)) + "," + strconv.Itoa(int(bg.G)) + "," + strconv.Itoa(int(bg.B)) + ");"
		if !strings.Contains(out, want) || strings.Count(out, "@define-color") < 30 {
			t.Errorf("GTK read:\n%s\nwant %s among 30 or more named colours", out, want)
		}
	}
}
