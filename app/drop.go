package app

import (
	"errors"
	"fmt"

	"cdxtheme/app/drops"
	"cdxtheme/core/fsread"
	"cdxtheme/core/themeimport"
)

// FileDrop is the payload of the "file-drop" event: files another program
// dropped onto the window, which the webview itself cannot read (WebKitGTK
// hands the page no File for them). The page decides whether the spot is
// an import (Home, New build) and answers with ImportDropped(token); it
// never sees or names the paths, so it can import only what the user
// dropped, once (app/drops keeps it; drops.Drop has the fields).
type FileDrop drops.Drop

// fileDropEvent reads Wails' "wails:file-drop" event (x, y, paths), checking
// each part: Wails' own OnFileDrop indexes the event's data unchecked, and
// the page can emit that event too.
func (th *Themes) fileDropEvent(data ...any) {
	if len(data) != 3 {
		return
	}
	x, _ := data[0].(int)
	y, _ := data[1].(int)
	paths, _ := data[2].([]string)
	th.fileDropped(x, y, paths)
}

// fileDropped keeps the paths of a drop and tells the page.
func (th *Themes) fileDropped(x, y int, paths []string) {
	if d, ok := th.drops.Keep(x, y, paths); ok {
		th.emit.Emit("file-drop", FileDrop(d))
	}
}

// ImportDropped imports the file of the drop token names (the first, when
// several were dropped: one build per drop) as a new build. A token works
// once, and only the latest drop's.
func (th *Themes) ImportDropped(token string) (ImportResult, error) {
	paths, ok := th.drops.Take(token)
	if !ok {
		return ImportResult{}, errors.New("that drop is gone; drop the file again")
	}
	// The user's own file, dragged from their file manager: a link is
	// followed, but it must end at a regular file (never a FIFO or a
	// device) of a theme file's size.
	data, err := fsread.ReadFile(paths[0], themeimport.MaxImportSize, fsread.Follow)
	if err != nil {
		return ImportResult{}, fmt.Errorf("read the dropped file: %w", err)
	}
	res, err := th.ImportTheme(ImportRequest{FileName: paths[0], Data: data})
	if err == nil && len(paths) > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d more dropped files were not imported: drop one file per build", len(paths)-1))
	}
	return res, err
}
