package main

import (
	"fmt"
	"os"
)

// runDesktop starts the Wails window. Replaced by the desktop shell.
func runDesktop() int {
	fmt.Fprintln(os.Stderr, "cdxtheme: desktop shell not built yet; run `cdxtheme help`")
	return 1
}
