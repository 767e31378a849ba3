package shell

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procMessageBoxW = windows.NewLazySystemDLL("user32.dll").NewProc("MessageBoxW")

// showStartupFailure shows msg in a message box (MB_OK | MB_ICONERROR);
// CDXTHEME_NO_DIALOG=1 keeps it on stderr alone (tests, scripts).
func showStartupFailure(msg string) {
	if os.Getenv("CDXTHEME_NO_DIALOG") == "1" {
		return
	}
	text, err1 := windows.UTF16PtrFromString(msg)
	title, err2 := windows.UTF16PtrFromString("CDXTheme Theme Builder")
	if err1 != nil || err2 != nil {
		return
	}
	const mbIconError = 0x10
	procMessageBoxW.Call(0, uintptr(unsafe.Pointer(text)), uintptr(unsafe.Pointer(title)), mbIconError)
}
