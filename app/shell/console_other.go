//go:build !windows

package shell

// AttachConsole is for Windows' GUI-linked exe (console_windows.go); a Unix
// program has its terminal already.
func AttachConsole() {}
