//go:build desktop || dev || bindings

package main

import (
	"embed"
	"io/fs"

	"cdxtheme/app/shell"
)

//go:embed all:frontend/dist
var ui embed.FS

// appIcon is the macOS About icon: the 1024 px master.
//
//go:embed build/appicon.png
var appIcon []byte

// windowIcon is the Linux window icon. GTK keeps it decoded in memory (4
// bytes a pixel: 4 MiB at 1024 px, 256 KiB at 256 px) and desktops show
// window icons at 16 to 256 px, so the 256 px size of the icon theme set.
//
//go:embed build/linux/icons/hicolor/256x256/apps/cdxtheme.png
var windowIcon []byte

// files are what the window embeds; go:embed reaches only below the
// package's folder, so they are named here and handed to the shell.
func files() shell.Files {
	return shell.Files{UI: fs.FS(ui), AppIcon: appIcon, WindowIcon: windowIcon}
}
