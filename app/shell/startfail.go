package shell

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// webView2URL is Microsoft's Evergreen WebView2 Runtime bootstrapper.
const webView2URL = "https://go.microsoft.com/fwlink/p/?LinkId=2124703"

// startupMessage is what a user who double-clicked the app is told when the
// window cannot open: the reason, and what to do about it where there is
// something to do. The same text goes to stderr and, on Windows, into a
// message box (startfail_windows.go), as a GUI program's stderr is seen by
// no one there.
func startupMessage(goos string, err error) string {
	msg := "CDXTheme could not start: " + err.Error()
	if goos == "windows" && strings.Contains(strings.ToLower(err.Error()), "webview") {
		msg += "\n\nCDXTheme draws its window with Microsoft Edge WebView2. Install the WebView2 Runtime from " +
			webView2URL + " and start CDXTheme again. The command line (cdxtheme help) works without it."
	}
	return msg
}

// reportStartup says why the window did not open, on stderr and where the
// platform has one, in a dialog.
func reportStartup(err error) {
	msg := startupMessage(runtime.GOOS, err)
	fmt.Fprintln(os.Stderr, msg)
	showStartupFailure(msg)
}
