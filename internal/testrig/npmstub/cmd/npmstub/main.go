// Command npmstub serves the fake ACP agent as the adapter package on a
// loopback npm registry, for tests outside Go (e2e). It prints the
// registry's address on the first line of stdout and serves until stdin
// closes or it is signalled. POST /-/stub/rate?bps=N changes the throttle;
// GET /-/stub/requests lists what was asked.
//
// With -lock it writes the bun.lock of what it serves (the app installs from
// it when CDXTHEME_ADAPTER_LOCK names it, as it does from its tested lock).
//
//	npmstub -agent build/bin/fakeagent [-version 2.6.0] [-filler 8388608] [-rate 0] [-lock FILE]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"cdxtheme/internal/testrig/npmstub"
)

func main() {
	agent := flag.String("agent", "", "the fake agent binary the package's bin runs")
	version := flag.String("version", "2.6.0", "version to publish the adapter package as")
	filler := flag.Int("filler", 8<<20, "bytes of the dependency tarball")
	rate := flag.Int64("rate", 0, "tarball throttle in bytes per second (0 = none)")
	lockPath := flag.String("lock", "", "write the bun.lock of the served adapter here")
	flag.Parse()
	if *agent == "" {
		fmt.Fprintln(os.Stderr, "npmstub: -agent is required")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*agent)
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmstub:", err)
		os.Exit(2)
	}
	tree := []npmstub.Package{npmstub.FakeAgent(abs, *version), npmstub.Filler(*filler)}
	s, err := npmstub.Start(npmstub.Options{Packages: tree, Rate: *rate})
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmstub:", err)
		os.Exit(1)
	}
	defer s.Close()
	if *lockPath != "" {
		lock, err := s.AdapterLock()
		if err == nil {
			err = os.WriteFile(*lockPath, lock, 0o600)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "npmstub:", err)
			os.Exit(1)
		}
	}
	fmt.Println(s.URL)
	done := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(done) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-done:
	case <-sig:
	}
}
