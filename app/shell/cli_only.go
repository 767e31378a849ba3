//go:build !desktop && !dev && !bindings

package shell

import (
	"fmt"
	"os"

	"cdxtheme/app/cli"
)

// Run in a build without the desktop tags: there is no window in
// this binary (Wails would only say it "will not build without the correct
// build tags"), so say what it is instead.
func Run(args []string, _ Files) int {
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "cdxtheme: unknown flag %q\n", args[0])
	}
	fmt.Fprintln(os.Stderr, "cdxtheme: this is the CLI-only build (made without the desktop build tags), so it has no window to open.\n"+
		"Run `cdxtheme help` for its commands; `make build` makes the desktop app.")
	return cli.ExitUsage
}
