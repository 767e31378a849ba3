package shell

import "io/fs"

// Files are what the window needs from the module's root, where go:embed
// can reach them (assets.go): the built UI, the macOS About icon (the
// 1024 px master) and the Linux window icon (256 px: GTK keeps it decoded,
// 4 MiB at 1024 px). A build without the desktop tags has none.
type Files struct {
	UI         fs.FS
	AppIcon    []byte
	WindowIcon []byte
}
