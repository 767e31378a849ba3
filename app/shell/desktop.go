//go:build desktop || dev || bindings

// Package shell is the desktop app's shell around app: the Wails window, its
// menus, the WebKit set-up, telling a user why the window did not open, and
// the Windows console for the CLI. main holds only what go:embed must reach
// from the module's root (the built UI and the icons) and hands it here.
package shell

import (
	"os"
	"path/filepath"

	"cdxtheme/app"
	"cdxtheme/app/devserver"
	"cdxtheme/app/winstate"
	"cdxtheme/core/paths"

	"github.com/rs/zerolog"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	goruntime "runtime"
)

// Run starts the Wails window (Wails itself reads its dev-mode flags) and
// returns the process's exit code.
func Run(_ []string, files Files) int {
	if err := paths.Usable(); err != nil {
		reportStartup(err)
		return 1
	}
	log := desktopLogger()
	a := app.New(log)
	st := winstate.Load(winstate.Path())
	devserver.Guard(log) // the dev build's server, behind an Origin check (no-op otherwise)
	if err := tuneWebKit(); err != nil {
		reportStartup(err)
		return 1
	}
	err := wails.Run(&options.App{
		Title:     "CDXTheme Theme Builder",
		Width:     st.Width,
		Height:    st.Height,
		MinWidth:  winstate.MinWidth,
		MinHeight: winstate.MinHeight,
		AssetServer: &assetserver.Options{
			Assets:     files.UI,
			Middleware: a.Assets,
		},
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 28, A: 255},
		// The lifecycle hooks, the menu and the self-test live on App, which
		// is never bound: the page reaches only the services in Bind.
		OnStartup:     a.Startup,
		OnBeforeClose: a.BeforeClose,
		OnShutdown:    a.Shutdown,
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               "dev.cdxtheme.themebuilder",
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { a.SecondInstance() },
		},
		Menu: appMenu(a),
		// WebKitGTK gives the page no File for a file dropped from another
		// program, only its URI (which it would navigate to, and the lock
		// refuses): Wails reads the drop in GTK and Go imports the file
		// (app/drop.go). Elsewhere the page reads the dropped File itself.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: goruntime.GOOS == "linux"},
		Bind:        a.Bound(),
		Linux: &linux.Options{
			Icon:        files.WindowIcon,
			ProgramName: "cdxtheme",
			// Hardware acceleration blanks the window on some drivers
			// (wails#2977) and costs memory; a theme preview does not need it.
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
		Mac: &mac.Options{
			About: &mac.AboutInfo{
				Title:   "CDXTheme Theme Builder " + app.Version,
				Message: "Design colour themes with an AI coding agent.",
				Icon:    files.AppIcon,
			},
		},
	})
	if err != nil {
		reportStartup(err)
		return 1
	}
	return 0
}

// appMenu gives macOS its app, edit and window menus (copy/paste need the
// edit menu there) and every platform a File and Help menu.
func appMenu(a *app.App) *menu.Menu {
	m := menu.NewMenu()
	if goruntime.GOOS == "darwin" {
		m.Append(menu.AppMenu())
	}
	file := m.AddSubmenu("File")
	file.AddText("New build", keys.CmdOrCtrl("n"), func(*menu.CallbackData) { a.ShowView("new") })
	file.AddText("Home", keys.Combo("h", keys.CmdOrCtrlKey, keys.ShiftKey), func(*menu.CallbackData) { a.ShowView("home") })
	file.AddText("Import theme…", keys.CmdOrCtrl("o"), func(*menu.CallbackData) { a.ShowView("import") })
	file.AddSeparator()
	file.AddText("Settings…", keys.CmdOrCtrl(","), func(*menu.CallbackData) { a.ShowView("settings") })
	file.AddSeparator()
	file.AddText("Quit", keys.CmdOrCtrl("q"), func(*menu.CallbackData) { a.Quit() })
	if goruntime.GOOS == "darwin" {
		m.Append(menu.EditMenu())
		m.Append(menu.WindowMenu())
	}
	help := m.AddSubmenu("Help")
	help.AddText("Keyboard shortcuts", keys.CmdOrCtrl("/"), func(*menu.CallbackData) { a.ShowView("shortcuts") })
	help.AddSeparator()
	help.AddText("About CDXTheme", nil, func(*menu.CallbackData) { a.ShowAbout() })
	return m
}

// desktopLogger writes to a log file in the config dir (a double-clicked app
// has no terminal), falling back to stderr.
func desktopLogger() zerolog.Logger {
	level := zerolog.InfoLevel
	if l, err := zerolog.ParseLevel(os.Getenv("CDXTHEME_LOG")); err == nil && os.Getenv("CDXTHEME_LOG") != "" {
		level = l
	}
	dir := paths.ConfigDir()
	out := os.Stderr
	if os.MkdirAll(dir, 0o700) == nil {
		path := filepath.Join(dir, "cdxtheme.log")
		// Start afresh past 10 MB rather than growing without bound.
		if info, err := os.Stat(path); err == nil && info.Size() > 10<<20 {
			os.Rename(path, path+".1")
		}
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			out = f
		}
	}
	return zerolog.New(out).Level(level).With().Timestamp().Logger()
}
