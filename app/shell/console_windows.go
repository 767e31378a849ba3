package shell

import (
	"os"

	"golang.org/x/sys/windows"
)

var procAttachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// AttachConsole gives the CLI the console of the cmd or PowerShell that
// started it. The release exe is linked as a GUI program (no console window
// on a double click), so Windows gives it none: without this `cdxtheme help`
// typed there prints nothing. Streams the caller redirected (a pipe, a file)
// are kept. The installer also ships cdxtheme.com, a console build that cmd
// and PowerShell pick first (PATHEXT), which waits and prints in order; this
// is for cdxtheme.exe named in full.
func AttachConsole() {
	const attachParent = ^uintptr(0) // ATTACH_PARENT_PROCESS
	if ok, _, _ := procAttachConsole.Call(attachParent); ok == 0 {
		return // no parent console (a double click), or one already
	}
	reopen := func(f **os.File, std uint32, name string, mode int) {
		if h, err := windows.GetStdHandle(std); err == nil && h != 0 && h != windows.InvalidHandle {
			if t, err := windows.GetFileType(h); err == nil && t != windows.FILE_TYPE_UNKNOWN {
				return // redirected by the caller
			}
		}
		if c, err := os.OpenFile(name, mode, 0); err == nil {
			*f = c
		}
	}
	reopen(&os.Stdout, windows.STD_OUTPUT_HANDLE, "CONOUT$", os.O_WRONLY)
	reopen(&os.Stderr, windows.STD_ERROR_HANDLE, "CONOUT$", os.O_WRONLY)
	reopen(&os.Stdin, windows.STD_INPUT_HANDLE, "CONIN$", os.O_RDONLY)
}
