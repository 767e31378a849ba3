//go:build !windows

package shell

// showStartupFailure: a Linux or macOS launcher shows the app's stderr in
// its own way, and the log file has the reason too.
func showStartupFailure(string) {}
