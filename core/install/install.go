// Package install holds the install targets: the programs a theme can be
// installed into, the systems each runs on, the user's folders they
// install into and the steps that switch a program to the theme. The
// targets defined as data (core/targets) join the list at start-up with
// their planner (RegisterTarget); core/apply plans and writes an install.
package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"cdxtheme/core/paths"
	"cdxtheme/core/theme"
)

// Target is a program a theme can be installed into.
type Target struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Format string `json:"format"` // the export format installed
	// runs lists the systems (GOOS) the program exists on, nil for every
	// one; where names them for messages.
	runs  []string
	where string
	// external: registered by another package (RegisterTarget).
	external bool
}

// unix is where kitty, Ghostty and tmux run; foot is a Wayland terminal,
// so not on macOS.
var (
	unix    = []string{"linux", "darwin", "freebsd", "openbsd", "netbsd", "dragonfly"}
	wayland = []string{"linux", "freebsd", "openbsd", "netbsd", "dragonfly"}
)

// Targets are the install targets, in menu order. CSS and the scheme and
// package formats have none: they go wherever the user wants them, so
// they are export-only.
var Targets = []Target{
	{ID: "vscode", Name: "VS Code", Format: "vscode"},
	{ID: "zed", Name: "Zed", Format: "zed"},
	{ID: "neovim", Name: "Neovim", Format: "neovim"},
	{ID: "helix", Name: "Helix", Format: "helix"},
	{ID: "bat", Name: "bat and delta", Format: "tmtheme"},
	{ID: "alacritty", Name: "Alacritty", Format: "alacritty"},
	{ID: "kitty", Name: "Kitty", Format: "kitty", runs: unix, where: "Linux and macOS"},
	{ID: "ghostty", Name: "Ghostty", Format: "ghostty", runs: unix, where: "Linux and macOS"},
	{ID: "wezterm", Name: "WezTerm", Format: "wezterm"},
	{ID: "foot", Name: "foot", Format: "foot", runs: wayland, where: "Linux and the BSDs"},
	{ID: "tmux", Name: "tmux", Format: "tmux", runs: unix, where: "Linux and macOS"},
	{ID: "windows-terminal", Name: "Windows Terminal", Format: "windows-terminal", runs: []string{"windows"}, where: "Windows"},
	{ID: "iterm2", Name: "iTerm2", Format: "iterm2", runs: []string{"darwin"}, where: "macOS"},
}

// RunsOn reports whether the target's program exists on goos.
func (t Target) RunsOn(goos string) bool {
	return t.runs == nil || slices.Contains(t.runs, goos)
}

// TargetsFor lists, in menu order, the targets that can be installed on
// goos: the desktop app offers only these.
func TargetsFor(goos string) []Target {
	var out []Target
	for _, t := range Targets {
		if t.RunsOn(goos) {
			out = append(out, t)
		}
	}
	return out
}

// ErrUnsupported is returned by Plan when the target does not exist on
// this operating system; the theme can still be exported.
var ErrUnsupported = errors.New("not available on this system")

// Paths are the user folders targets install into. Tests point them at a
// temporary home.
type Paths struct {
	Home         string // the user's home directory
	ConfigHome   string // $XDG_CONFIG_HOME, else Home/.config (also on macOS, where these programs use it)
	AppData      string // Windows %APPDATA%
	LocalAppData string // Windows %LOCALAPPDATA%
	GOOS         string // runtime.GOOS unless testing another system's layout
	// Store is where Apply keeps what it replaced and the record Undo
	// reads: the app's data folder, never a program's own themes folder.
	Store string
}

// DefaultPaths reads the real locations from the environment.
func DefaultPaths() (Paths, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Paths{}, fmt.Errorf("find home directory: %w", err)
	}
	p := Paths{Home: home, ConfigHome: os.Getenv("XDG_CONFIG_HOME"), AppData: os.Getenv("APPDATA"),
		LocalAppData: os.Getenv("LOCALAPPDATA"), GOOS: runtime.GOOS, Store: filepath.Join(paths.DataDir(), "applied")}
	if p.ConfigHome == "" || !filepath.IsAbs(p.ConfigHome) {
		p.ConfigHome = filepath.Join(home, ".config")
	}
	if p.AppData == "" {
		p.AppData = filepath.Join(home, "AppData", "Roaming")
	}
	if p.LocalAppData == "" {
		p.LocalAppData = filepath.Join(home, "AppData", "Local")
	}
	return p, nil
}

// Step is what makes the program use an installed theme, to show exactly:
// a line to add to a config file, or a command to run.
type Step struct {
	Kind string `json:"kind"` // "line" (add Text to File) or "command" (run Text)
	Text string `json:"text"`
	File string `json:"file,omitempty"` // for a line: the config file it goes in
	// What core/apply's Plan found in File for a line step: "set" (the
	// setting holds this theme already), "change" (Old becomes New),
	// "add" (the file has no such setting), "create" (no file yet), or
	// "manual" (Apply cannot make the change; Reason says why).
	State string `json:"state,omitempty"`
	Old   string `json:"old,omitempty"` // the setting as it is now, for "change"
	New   string `json:"new,omitempty"` // the setting as Apply would write it
	// Reason is why Apply leaves the file to the user ("manual"), or what
	// to know before letting it change the file.
	Reason string `json:"reason,omitempty"`
	// Edit says Apply can make this step's change when asked to (a
	// "change", "add" or "create"), with a backup Undo restores.
	Edit bool `json:"edit,omitempty"`
	// Setting is how to find the setting in File; nil when Apply does
	// not know the file's syntax (it shows the step only).
	Setting *Setting `json:"-"`
}

// Setting tells core/apply how to find a step's setting in its file and
// change only it. Syntax "json" is JSON with comments and trailing commas
// (VS Code, Zed): Path is the keys down to the setting, Value its new JSON
// value. "toml" is a top-level key (Path[0]) whose value is a string,
// Value its TOML literal. "lines" is a file of one setting a line: Match
// is a regexp for the setting's line whose group "v" is the value (Value
// replaces it); Section limits it to an ini or gitconfig [section] ("" is
// before any section header when Sectioned).
type Setting struct {
	Syntax string
	Path   []string
	Value  string
	Match  string
	// Sectioned says the file has [section] headers; Section is the one
	// the setting lives in ("" = before any header).
	Sectioned bool
	Section   string
	// Multi is what to do with the setting twice: "last" changes the last
	// one (the one that counts), "one" leaves the file to the user.
	Multi string
	// Insert is where a missing setting goes: "end" (default), "top",
	// "section" (after the section's header, or the section at the end),
	// "before" (before the last line matching Before; none: manual).
	Insert    string
	Before    string
	BeforeWhy string // what the file lacks when no line matches Before
	// Conflict matches a line that sets the same key in a way Apply does
	// not change (a list of the user's own); then the file is left to the
	// user, ConflictWhy saying why.
	Conflict    string
	ConflictWhy string
	// Within is, for a JSON setting whose value is an object (Zed's
	// theme by mode), the key in it to change instead.
	Within string
	// TOML says the file is TOML: a change must leave it parsing.
	TOML bool
	// NoCreate, when File is missing, is why Apply does not create it.
	NoCreate string
	// Add is the line(s) to insert, default the step's Text; Header the
	// section header written with it when the section is missing.
	Add    string
	Header string
	// Create is the whole new file when File does not exist ("" = Add).
	Create string
	// Blockers are files whose presence makes creating or changing File
	// wrong (Neovim refuses init.lua beside init.vim), with the reason.
	Blockers map[string]string
}

// Where names the systems the target's program runs on, for messages.
func (t Target) Where() string { return t.where }

// PlannerFor is the planner registered for a target, nil for the targets
// core/apply places itself.
func PlannerFor(id string) Planner { return planners[id] }

// External reports whether another package registered the target
// (RegisterTarget), which checks its own installs.
func (t Target) External() bool { return t.external }

// Placement is what an external target's planner decides: each file's
// absolute path and bytes (the theme's and its companion's), what the user
// still has to do, and the exact lines and commands that activate the
// theme.
type Placement struct {
	Files map[string][]byte
	Note  string
	Steps []Step
}

// Planner works out an external target's install from the format's
// rendered files (as Render returns them) and the user's folders.
type Planner func(t *theme.Theme, files map[string][]byte, p Paths) (Placement, error)

var planners = map[string]Planner{}

// RegisterTarget adds an install target planned elsewhere. runs lists the
// systems (GOOS) the program exists on, nil for every one; where names them
// for messages.
func RegisterTarget(tg Target, runs []string, where string, plan Planner) {
	if slices.ContainsFunc(Targets, func(x Target) bool { return x.ID == tg.ID }) {
		panic("install: target " + tg.ID + " registered twice")
	}
	tg.runs, tg.where, tg.external = runs, where, true
	Targets = append(Targets, tg)
	planners[tg.ID] = plan
}
