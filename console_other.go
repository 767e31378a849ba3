//go:build !windows

package main

// attachConsole is for Windows' GUI-linked exe (console_windows.go); a Unix
// program has its terminal already.
func attachConsole() {}
