// Package app is the desktop front end: the methods bound into the webview
// (kept thin, the work happens in core/...) and the events sent back.
package app

import (
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

// App holds the desktop app's state. Its exported methods are the bindings.
type App struct {
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
	lib      library
	// saveTo replaces the native save dialog (tests, self-test).
	saveTo   string
	selftest map[string]any

	windowPath string
}

// New builds the app; Startup completes it once Wails has a context.
func New(log zerolog.Logger) *App {
	s, err := settings.Load()
	if err != nil {
		log.Warn().Err(err).Msg("settings unreadable; using defaults")
	}
	a := &App{log: log, settings: s, windowPath: windowStatePath(), saveTo: os.Getenv(EnvSaveTo)}
	a.emit = EmitterFunc(func(string, any) {})
	a.openURL = func(string) {}
	return a
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
	a.openURL = func(u string) { runtime.BrowserOpenURL(ctx, u) }
	a.selfTestSeams()
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

// GetSettings returns the current settings.
func (a *App) GetSettings() settings.Settings {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.settings
}

// SaveSettings validates, stores and applies new settings.
func (a *App) SaveSettings(s settings.Settings) error {
	if err := settings.Save(s); err != nil {
		return err
	}
	a.mu.Lock()
	a.settings = s
	a.mu.Unlock()
	return nil
}

// OpenLink opens a web or mail link from agent output in the user's browser,
// after CheckLink.
func (a *App) OpenLink(raw string) error {
	u, err := CheckLink(raw)
	if err != nil {
		return err
	}
	a.openURL(u)
	return nil
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
