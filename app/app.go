// Package app is the desktop front end: the services bound into the webview
// (Turns, Chats, Library, Builds, Themes, Editor, Agents, Settings, Desktop: thin,
// the work happens in core/...), the events sent back, and App, which main
// hands Wails' lifecycle hooks and menu but never binds.
//
// docs/ARCHITECTURE.md is the map: the layers, which service owns which
// file, where a chat turn starts (Turns.Send → core.startTurn in turns.go)
// and ends, and where each piece of state lives.
package app

import (
	"cdxtheme/core/damaged"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"cdxtheme/app/devserver"
	"cdxtheme/app/navlock"
	"cdxtheme/core/settings"

	"github.com/rs/zerolog"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// EnvSaveTo answers every save dialog with this path (tests, scripts).
const EnvSaveTo = "CDXTHEME_TEST_SAVE_TO"

// Version is the app version shown in About and sent as clientInfo.
var Version = "0.1.0"

// core is the state the services share: the Wails context and the OS
// hand-offs, the settings, the running turns, the chat memory, the warm
// agents, the theme watchers and the session library. Every service holds
// the one core; none of its methods is exported, so none is bound.
type core struct {
	ctx  context.Context
	log  zerolog.Logger
	emit Emitter
	// openURL and openFile hand a checked link or path to the OS; seams
	// for tests.
	openURL    func(string)
	openFile   func(string) error
	revealFile func(string) error

	mu       sync.Mutex
	settings settings.Settings
	keyOnce  sync.Once
	key      string
	keyStore string

	turns    turns
	memory   chatMemory
	warmups  prewarms
	watchers watchers
	// editMu serialises the hand-edit records (editor.go).
	editMu sync.Mutex
	lib    library
	// saveTo replaces the native save dialog (tests, self-test).
	saveTo string
	// drops is the latest file dropped from another program (drop.go).
	drops drops
}

// App is the desktop app as main sees it: the lifecycle hooks, the menu's
// actions and the self-test, none of them bound, and the services main
// binds (Bound). It embeds the core for the hooks and the package's tests.
type App struct {
	*core
	Turns    *Turns
	Chats    *Chats
	Library  *Library
	Builds   *Builds
	Themes   *Themes
	Editor   *Editor
	Agents   *Agents
	Settings *Settings
	Desktop  *Desktop
	selfTest *selfTest
	// windowPath is where the window's size and place are remembered.
	windowPath string
}

// The bound services, one concern each; window.go.app.<Service>.<Method>
// in the page.
type (
	// Turns starts, answers and cancels the agent's turns and keeps the
	// chat a view opened warm.
	Turns struct{ *core }
	// Chats is one chat's session bar, history and export.
	Chats struct{ *core }
	// Library is the agent's saved sessions, their search and transcripts.
	Library struct{ *core }
	// Builds is the theme workspaces on Home, their files, artifacts and
	// checkpoints.
	Builds struct{ *core }
	// Themes reads, imports, exports and applies a workspace's theme.
	Themes struct{ *core }
	// Editor is the designer's hand edits of a theme: colours, locks,
	// make-it-pass, undo and redo.
	Editor struct{ *core }
	// Agents is the agents list and the sign-in.
	Agents struct{ *core }
	// Settings is the app's settings.
	Settings struct{ *core }
	// Desktop hands links and folder choices to the OS.
	Desktop struct{ *core }
)

// New builds the app; Startup completes it once Wails has a context.
func New(log zerolog.Logger) *App {
	s, err := settings.Load()
	if err != nil {
		log.Warn().Err(err).Msg("settings unreadable; using defaults")
	}
	c := &core{log: log, settings: s, saveTo: os.Getenv(EnvSaveTo)}
	c.emit = EmitterFunc(func(string, any) {})
	c.openURL = func(string) {}
	return &App{core: c, Turns: &Turns{c}, Chats: &Chats{c}, Library: &Library{c}, Builds: &Builds{c},
		Themes: &Themes{c}, Editor: &Editor{c}, Agents: &Agents{c}, Settings: &Settings{c}, Desktop: &Desktop{c}, selfTest: &selfTest{core: c},
		windowPath: windowStatePath()}
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
	a.openURL = func(u string) { runtime.BrowserOpenURL(ctx, u) }
	// Files dropped from another program (Wails' file drop, on Linux):
	// the page picks the import up by token (drop.go).
	runtime.EventsOn(ctx, "wails:file-drop", a.fileDropEvent)
	a.selfTest.start(ctx)
	st := LoadWindowState(a.windowPath)
	if st.X >= 0 && st.Y >= 0 {
		runtime.WindowSetPosition(ctx, st.X, st.Y)
	}
	if st.Maximised {
		runtime.WindowMaximise(ctx)
	}
	// The first search index build starts with the app, not with the
	// first search; Home shows its progress.
	go a.refreshIndex(true)
	go func() {
		if n := sweepTemps(); n > 0 {
			a.log.Info().Int("files", n).Msg("removed temporary files a crash left")
		}
	}()
	a.lendWarm(ctx)
	// A session logout (SIGHUP, then SIGTERM), `kill` or Ctrl-C in the
	// terminal that started the app must still tear the agents down: ask
	// the window to quit (Shutdown stops the agents); if the main loop does
	// not get there in time, or a second signal comes, stop them and exit.
	// Should the app die without this (SIGKILL, a crash), each agent's shim
	// ends its process group.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	go func() {
		<-sig
		runtime.Quit(ctx)
		select {
		case <-sig:
		case <-time.After(5 * time.Second):
		}
		a.closeAll()
		os.Exit(143)
	}()
}

// BeforeClose remembers the window; returning false lets it close.
func (a *App) BeforeClose(ctx context.Context) bool {
	st := WindowState{Maximised: runtime.WindowIsMaximised(ctx)}
	st.X, st.Y = runtime.WindowGetPosition(ctx)
	st.Width, st.Height = runtime.WindowGetSize(ctx)
	if st.Maximised {
		// Keep the last normal geometry rather than the maximised one.
		prev := LoadWindowState(a.windowPath)
		st.X, st.Y, st.Width, st.Height = prev.X, prev.Y, prev.Width, prev.Height
	}
	if err := SaveWindowState(a.windowPath, st); err != nil {
		a.log.Warn().Err(err).Msg("remember window")
	}
	return false
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

// ContentSecurityPolicy allows no inline script and nothing from the network:
// agent output rendered as HTML can neither run code nor phone home.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; frame-src 'none'"

// SecurityHeaders adds the CSP and related headers to every asset response.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
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
