// Package quitsignal ends the desktop app on a signal without leaving
// agents behind: a session logout (SIGHUP, then SIGTERM), `kill` or Ctrl-C
// in the terminal that started it. Should the app die without this
// (SIGKILL, a crash), each agent's shim ends its process group.
package quitsignal

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// grace is how long the window's own quit may take before Watch stops the
// agents itself.
const grace = 5 * time.Second

// Watch asks the window to quit on the first signal (quit: the app's
// shutdown stops the agents); if the main loop does not get there within
// grace, or a second signal comes, it runs closeAll and exits.
func Watch(quit, closeAll func()) {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	go func() {
		<-sig
		quit()
		select {
		case <-sig:
		case <-time.After(grace):
		}
		closeAll()
		os.Exit(143)
	}()
}
