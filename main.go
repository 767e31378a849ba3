// Command cdxtheme is the CDXTheme Theme Builder: a desktop app when started
// without arguments, the headless CLI (see `cdxtheme help`) otherwise.
package main

import (
	"os"
	"strings"

	"cdxtheme/app/cli"
	"cdxtheme/app/shell"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && !launchFlags(args) {
		shell.AttachConsole()
		os.Exit(cli.Main(args))
	}
	os.Exit(shell.Run(args, files()))
}

// launchFlags reports whether args are what a desktop launch brings: flags
// that the OS (-psn_… on macOS) or Wails' dev mode (-devserver …) add. A
// word is always a command, so a mistyped one gets "unknown command" from
// the CLI instead of opening the window.
func launchFlags(args []string) bool {
	return strings.HasPrefix(args[0], "-") && !cli.IsHelp(args[0])
}
