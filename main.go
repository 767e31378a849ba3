// Command cdxtheme is the CDXTheme Theme Builder: a desktop app when started
// without arguments, the headless CLI (see `cdxtheme help`) otherwise.
package main

import (
	"context"
	"os"
	"os/signal"

	"cdxtheme/app/cli"
)

func main() {
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		// The first Ctrl-C cancels the context (a chat sends session/cancel);
		// a second one kills the process the usual way.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		go func() {
			<-ctx.Done()
			stop()
		}()
		os.Exit(cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(runDesktop())
}
