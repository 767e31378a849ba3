// Package app is the desktop front end: the services bound into the
// webview (thin: the work happens in app/... and core/...), the events
// sent back, and App, which main hands Wails' lifecycle hooks and menu but
// never binds. docs/ARCHITECTURE.md is the map: which service owns which
// file and state, and where a chat turn starts and ends.
package app

import (
	"cdxtheme/app/artifact"
	"cdxtheme/app/assets"
	"cdxtheme/app/chatagents"
	"cdxtheme/app/chatmemory"
	"cdxtheme/core/damaged"
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"

	"cdxtheme/app/devserver"
	"cdxtheme/app/drops"
	"cdxtheme/app/editing"
	"cdxtheme/app/leftovers"
	"cdxtheme/app/navlock"
	"cdxtheme/app/quitsignal"
	"cdxtheme/app/searchindex"
	"cdxtheme/app/selftest"
	"cdxtheme/app/turnrun"
	"cdxtheme/app/watchset"
	"cdxtheme/app/winstate"
	_ "cdxtheme/core/packaging" // fills the .vsix and Zed extension formats
	"cdxtheme/core/settings"

	"github.com/rs/zerolog"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// EnvSaveTo answers every save dialog with this path (tests, scripts).
const EnvSaveTo = "CDXTHEME_TEST_SAVE_TO"

// Version is the app version shown in About and sent as clientInfo.
var Version = "0.1.0"

// env is what every service needs and none owns: the Wails context (set
// by Startup), the logger and the emitter; no domain state. None of its
// methods is exported, so nothing of it is bound.
type env struct {
	ctx  context.Context
	log  zerolog.Logger
	emit Emitter
}

// Emitter sends a named event to the UI. The Wails runtime implements it in
// the desktop build; tests pass a recorder. (runtime.EventsEmit with a
// non-Wails context calls log.Fatalf, hence the seam.)
type Emitter interface {
	Emit(name string, payload any)
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(name string, payload any)

// Emit calls f.
func (f EmitterFunc) Emit(name string, payload any) { f(name, payload) }

// App is the desktop app as main sees it: the lifecycle hooks, the menu's
// actions and the self-test, none of them bound, and the services main
// binds (Bound). It shares the services' env (Startup fills it in).
type App struct {
	*env
	Turns    *Turns
	Chats    *Chats
	Library  *Library
	Builds   *Builds
	Themes   *Themes
	Editor   *Editor
	Agents   *Agents
	Settings *Settings
	Desktop  *Desktop
	selfTest *selftest.Test
	// windowPath is where the window's size and place are remembered.
	windowPath string
}

// The bound services, one concern each; window.go.app.<Service>.<Method>
// in the page. Each owns the state of its concern; the unexported fields
// after it name the other services it asks (wired in New). Only exported
// methods are bound, so neither the state nor the wiring reaches the page.
type (
	// Turns starts, answers and cancels the agent's turns and keeps the
	// chat a view opened warm. It owns the turns' runner (app/turnrun):
	// the chat engine, the running turns and those kept for a retry, the
	// pre-warmed New build folder, the warm agent lent to the CLI.
	Turns struct {
		*env
		run *turnrun.Runner

		settings *Settings
		agents   *Agents
		editor   *Editor
		themes   *Themes
	}
	// Chats is one chat's session bar, history and export. It owns the
	// chat memory (each chat's settings, chat-settings.json).
	Chats struct {
		*env
		memory chatmemory.Memory

		settings *Settings
		agents   *Agents
		turns    *Turns
		library  *Library
		desktop  *Desktop
	}
	// Library is the agent's saved sessions, their search and transcripts.
	// It owns the session lister, the search index and the user's session
	// titles.
	Library struct {
		*env
		lib library

		settings *Settings
		agents   *Agents
		turns    *Turns
		builds   *Builds
		desktop  *Desktop
	}
	// Builds is the theme workspaces on Home, their files, artifacts and
	// checkpoints. It owns the artifacts the turns named.
	Builds struct {
		*env
		arts artifact.Store

		turns   *Turns
		editor  *Editor
		themes  *Themes
		desktop *Desktop
	}
	// Themes reads, imports, exports and applies a workspace's theme. It
	// owns the theme.json watchers, the latest file dropped on the window
	// (an import) and the live updates of the programs applied to.
	Themes struct {
		*env
		watchers watchset.Set
		drops    drops.Latest
		live     liveState

		builds   *Builds
		settings *Settings
		editor   *Editor
	}
	// Editor is the designer's hand edits of a theme: colours, locks,
	// make-it-pass, undo and redo. It owns the hand-edit engine (edits,
	// app/editing: the records' lock, the restores during a turn).
	Editor struct {
		*env
		edits *editing.Edits

		turns  *Turns
		builds *Builds
	}
	// Agents is the agents list and the sign-in. It owns which agent runs
	// each chat (chat-agents.json); the list and the sign-in live on disk,
	// the key with Settings.
	Agents struct {
		*env
		// chats is which agent runs each chat (chat-agents.json).
		chats chatagents.Map

		settings *Settings
		turns    *Turns
	}
	// Settings is the app's settings. It owns them and the API key, both
	// under mu.
	Settings struct {
		*env
		mu       sync.Mutex
		settings settings.Settings
		keyOnce  sync.Once
		key      string
		keyStore string
	}
	// Desktop hands links, files and folder choices to the OS. It owns the
	// hand-off seams (tests and the self-test replace them).
	Desktop struct {
		*env
		// openURL and openFile hand a checked link or path to the OS;
		// revealFile shows one in its folder.
		openURL    func(string)
		openFile   func(string) error
		revealFile func(string) error
		// saveTo replaces the native save dialog (tests, self-test).
		saveTo string
	}
)

// New builds the app; Startup completes it once Wails has a context.
func New(log zerolog.Logger) *App {
	s, err := settings.Load()
	if err != nil {
		log.Warn().Err(err).Msg("settings unreadable; using defaults")
	}
	e := &env{log: log, emit: EmitterFunc(func(string, any) {})}
	set := &Settings{env: e, settings: s}
	desk := &Desktop{env: e, openURL: func(string) {}, saveTo: os.Getenv(EnvSaveTo)}
	// The services ask one another both ways (Turns ↔ Agents, Builds ↔
	// Editor), so all are made first and wired after.
	tu, ch, lib, bu, th, ed, ag := &Turns{env: e}, &Chats{env: e}, &Library{env: e}, &Builds{env: e}, &Themes{env: e}, &Editor{env: e}, &Agents{env: e}
	tu.settings, tu.agents, tu.editor, tu.themes = set, ag, ed, th
	ch.settings, ch.agents, ch.turns, ch.library, ch.desktop = set, ag, tu, lib, desk
	lib.settings, lib.agents, lib.turns, lib.builds, lib.desktop = set, ag, tu, bu, desk
	bu.turns, bu.editor, bu.themes, bu.desktop = tu, ed, th, desk
	th.builds, th.settings, th.editor = bu, set, ed
	ed.turns, ed.builds = tu, bu
	ed.edits = ed.newEdits()
	// The session map, the chat memory and the artifacts follow each
	// turn's events; the turn does not call them.
	tu.run = tu.newRunner([]turnrun.Observer{{Follow: ag.observeTurn},
		{Plan: ch.planTurn, Follow: ch.observeTurn, Warmed: ch.sessionWarmed}, {Follow: bu.observeTurn}})
	lib.lib.index.Log = &e.log
	th.live.switches.Log = &e.log
	ag.chats.Log = &e.log
	lib.lib.index.Told = func(st searchindex.Status) { lib.emit.Emit("search-index", IndexStatus(st)) }
	ag.settings, ag.turns = set, tu
	return &App{env: e, Turns: tu, Chats: ch, Library: lib, Builds: bu, Themes: th, Editor: ed, Agents: ag,
		Settings: set, Desktop: desk, selfTest: &selftest.Test{Log: &e.log}, windowPath: winstate.Path()}
}

// Bound is what main binds into the page: the services, and nothing else.
func (a *App) Bound() []any {
	return []any{a.Turns, a.Chats, a.Library, a.Builds, a.Themes, a.Editor, a.Agents, a.Settings, a.Desktop}
}

// Startup receives the Wails context: events and dialogs work from here on.
func (a *App) Startup(ctx context.Context) {
	// Before anything untrusted can be shown: the webview may load nothing
	// but the app's own pages from here on (app/navlock), and the dev
	// build's server answers only its own origin (app/devserver).
	navlock.Lock(ctx, a.log)
	devserver.Serve(ctx)
	a.ctx = ctx
	a.emit = EmitterFunc(func(name string, payload any) { runtime.EventsEmit(ctx, name, payload) })
	// A file set aside from now on is told to the window at once; the
	// ones before it loaded it asks for (DamagedFiles).
	damaged.OnNotice(func(n damaged.Notice) { a.emit.Emit("damaged", n) })
	a.Desktop.openURL = func(u string) { runtime.BrowserOpenURL(ctx, u) }
	// Files dropped from another program (Wails' file drop, on Linux):
	// the page picks the import up by token (drop.go).
	runtime.EventsOn(ctx, "wails:file-drop", a.Themes.fileDropEvent)
	if selftest.Active() {
		// The self-test never launches the user's browser or file manager:
		// what would be handed to the OS (after every check) goes into its
		// report instead.
		a.Desktop.recordIn(a.selfTest)
		a.selfTest.Start(ctx)
	}
	st := winstate.Load(a.windowPath)
	if st.X >= 0 && st.Y >= 0 {
		runtime.WindowSetPosition(ctx, st.X, st.Y)
	}
	if st.Maximised {
		runtime.WindowMaximise(ctx)
	}
	// The first search index build starts with the app, not with the
	// first search; Home shows its progress.
	go a.Library.refreshIndex(true)
	go func() {
		if n := leftovers.Sweep(); n > 0 {
			a.log.Info().Int("files", n).Msg("removed temporary files a crash left")
		}
	}()
	a.Turns.lendWarm(ctx)
	// A logout, `kill` or Ctrl-C still tears the agents down.
	quitsignal.Watch(func() { runtime.Quit(ctx) }, a.closeAll)
}

// BeforeClose remembers the window; returning false lets it close.
func (a *App) BeforeClose(ctx context.Context) bool {
	st := winstate.State{Maximised: runtime.WindowIsMaximised(ctx)}
	st.X, st.Y = runtime.WindowGetPosition(ctx)
	st.Width, st.Height = runtime.WindowGetSize(ctx)
	a.rememberWindow(st)
	return false
}

// rememberWindow saves the window as it closes (see winstate.Closing); a
// failure is logged, and the window closes all the same.
func (a *App) rememberWindow(now winstate.State) {
	if err := winstate.Save(a.windowPath, winstate.Closing(now, winstate.Load(a.windowPath))); err != nil {
		a.log.Warn().Err(err).Msg("remember window")
	}
}

// SecondInstance brings the running window forward when the app is
// launched again (single instance).
func (a *App) SecondInstance() {
	if a.ctx == nil {
		return
	}
	runtime.WindowUnminimise(a.ctx)
	runtime.WindowShow(a.ctx)
}

// Assets is the asset server middleware: security headers on everything,
// and the appearance script answered from the current settings.
func (a *App) Assets(next http.Handler) http.Handler {
	return assets.Middleware(next, func() string { return a.Settings.current().Scheme() })
}

func wrapf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// Shutdown tears down agents and watchers when the window closes.
func (a *App) Shutdown(context.Context) {
	a.closeAll()
}

// closeAll stops what the services started, in the order it always had:
// the turns, lent turns and agents (Turns.stop), then the theme watchers
// and the search index.
func (a *App) closeAll() {
	a.Turns.stop()
	a.Themes.stopWatchers()
	a.Themes.closeLive()
	a.Library.stopIndex()
}

// ShowView asks the UI to switch to a view (from the native menu).
func (a *App) ShowView(view string) { a.emit.Emit("menu", map[string]string{"view": view}) }

// Quit closes the app.
func (a *App) Quit() {
	if a.ctx != nil {
		runtime.Quit(a.ctx)
	}
}

// ShowAbout shows the About box on platforms without a native one.
func (a *App) ShowAbout() {
	if a.ctx == nil {
		return
	}
	runtime.MessageDialog(a.ctx, runtime.MessageDialogOptions{
		Type:    runtime.InfoDialog,
		Title:   "CDXTheme Theme Builder",
		Message: "Version " + Version + "\nDesign colour themes with an AI coding agent.",
	})
}
