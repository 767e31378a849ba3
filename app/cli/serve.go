package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"cdxtheme/app/serve"
	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
)

func init() {
	register(command{
		name:    "serve",
		summary: "keep agents warm for `chat --session` follow-ups (started on demand; exits when idle)",
		run:     runServe,
	})
}

// DefaultServeTTL is how long `cdxtheme serve` keeps an idle agent: long
// enough for a script's next follow-up or a person reading the answer and
// typing the next one, short enough that a forgotten Codex (~150 MB) does
// not stay for the day.
const DefaultServeTTL = 5 * time.Minute

// noAgentGrace is how long serve stays without any agent: the first
// request comes within milliseconds of an on-demand start, and once its
// agent died there is nothing to keep warm. (A client that connects as
// serve stops is declined and runs its turn itself.)
const noAgentGrace = 2 * time.Second

// Environment switches of the hand-off.
const (
	EnvServe    = "CDXTHEME_SERVE"     // "0" or "off": chat --session never hands off
	EnvServeTTL = "CDXTHEME_SERVE_TTL" // the idle TTL of a serve started on demand
)

// serveBinary is the program started as `serve` on demand; a variable so
// in-process tests can point it at a built binary (or nothing).
var serveBinary = os.Executable

const serveSynopsis = "cdxtheme serve [--ttl DUR] [--stop]"

func runServe(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s\n", serveSynopsis)
		fs.PrintDefaults()
	}
	ttl := fs.Duration("ttl", DefaultServeTTL, "exit after this long without a turn")
	stop := fs.Bool("stop", false, "ask the running serve to exit (it stops its agents)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() > 0 || *ttl <= 0 {
		fmt.Fprintln(env.Stderr, "cdxtheme serve: takes no arguments and a positive --ttl")
		fs.Usage()
		return ExitUsage
	}
	path, err := serve.Path("serve")
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme serve: %v\n", err)
		return ExitError
	}
	if *stop {
		return stopServe(env, path)
	}
	unlock, err := lockServe(filepath.Join(filepath.Dir(path), "serve.lock"))
	if errors.Is(err, errLocked) {
		fmt.Fprintln(env.Stderr, "cdxtheme serve: already running")
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme serve: %v\n", err)
		return ExitError
	}
	defer unlock()
	ln, err := serve.Listen(path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme serve: %v\n", err)
		return ExitError
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer signal.Stop(sig)
	pool := &serve.Pool{Log: env.Log}
	srv := &serve.Server{Handle: pool.Handle, OnStop: cancel, Log: env.Log}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	why := ""
	for why == "" {
		select {
		case s := <-sig:
			why = "signal " + s.String()
		case <-ctx.Done():
			why = "asked to stop"
		case err := <-served:
			why = fmt.Sprintf("listener failed: %v", err)
			served <- err
		case <-tick.C:
			since, idle := srv.Idle()
			switch {
			case !idle:
			case since >= *ttl:
				why = fmt.Sprintf("idle for %s", *ttl)
			case since >= noAgentGrace && !pool.Holding():
				why = "no agent to keep warm"
			}
		}
	}
	env.Log.Info().Str("why", why).Msg("serve: exiting")
	cancel() // running turns are cancelled like a user's cancel
	<-served
	pool.Close()
	return ExitOK
}

func stopServe(env *Env, path string) int {
	c, err := serve.Dial(path, 2*time.Second)
	if errors.Is(err, serve.ErrNoServer) {
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme serve: %v\n", err)
		return ExitError
	}
	defer c.Close()
	fmt.Fprintln(c, `{"type":"stop"}`)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 256)
	c.Read(buf) // the acknowledgement; the server then stops its agents
	return ExitOK
}

// handOff runs a follow-up turn (--session) on a warm agent another
// process keeps: the desktop app's, when it holds this session with the
// same agent, else `cdxtheme serve`'s, started on demand. handled is false
// when neither can take it (or CDXTHEME_SERVE=0): the caller runs the turn
// itself, and nothing was printed but a warning about a refused socket.
func handOff(ctx context.Context, env *Env, f chatFlags, t chat.Turn, emit func(chat.Event)) (chat.Result, error, bool) {
	if f.session == "" {
		return chat.Result{}, nil, false
	}
	switch os.Getenv(EnvServe) {
	case "0", "off", "false", "no":
		return chat.Result{}, nil, false
	}
	opts := engineOptions(env, f.agentCmd, f.timeout)
	cmd, err := agent.Resolve(opts.Resolve)
	if err != nil {
		return chat.Result{}, nil, false // the local run says what is missing
	}
	a := serve.Agent{Path: cmd.Path, Args: cmd.Args, Env: append(os.Environ(), cmd.Env...),
		Timeout: f.timeout, Version: opts.Version}
	refused := func(err error) {
		var d *serve.Declined
		if err != nil && !errors.Is(err, serve.ErrNoServer) && !errors.Is(err, serve.ErrUnsupported) && !errors.As(err, &d) {
			fmt.Fprintf(env.Stderr, "warning: not using a warm agent: %v\n", err)
		}
	}
	for _, name := range []string{"app", "serve"} {
		path, err := serve.Path(name)
		if err != nil {
			refused(err)
			return chat.Result{}, nil, false
		}
		res, err, handled := serve.Run(ctx, path, t, a, emit)
		if handled {
			return res, err, true
		}
		if name == "serve" && errors.Is(err, serve.ErrNoServer) {
			if err = startServe(path); err == nil {
				if res, err, handled = serve.Run(ctx, path, t, a, emit); handled {
					return res, err, true
				}
			}
		}
		refused(err)
	}
	return chat.Result{}, nil, false
}

// serveStartWait bounds waiting for an on-demand serve's socket.
const serveStartWait = 5 * time.Second

// startServe starts `cdxtheme serve` in its own session, detached from the
// terminal (a Ctrl-C in it must not reach the agents it keeps), with no
// more environment than it needs itself: each request brings the agent's.
func startServe(path string) error {
	exe, err := serveBinary()
	if err != nil {
		return fmt.Errorf("start cdxtheme serve: %w", err)
	}
	args := []string{"serve"}
	if ttl := os.Getenv(EnvServeTTL); ttl != "" {
		args = append(args, "--ttl", ttl)
	}
	cmd := exec.Command(exe, args...)
	// The Windows names place the socket folder (LOCALAPPDATA), the app's
	// folders and the temp dir there, and let programs start at all
	// (SYSTEMROOT); absent elsewhere.
	for _, k := range []string{"HOME", "PATH", "TMPDIR", "XDG_RUNTIME_DIR", "LANG", "CDXTHEME_LOG", "CDXTHEME_CONFIG_DIR",
		"LOCALAPPDATA", "APPDATA", "USERPROFILE", "SYSTEMROOT", "TEMP", "TMP"} {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	logf, err := os.OpenFile(filepath.Join(filepath.Dir(path), "serve.log"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|oNoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("start cdxtheme serve: %w", err)
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detached()
	cmd.Dir = "/"
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start cdxtheme serve: %w", err)
	}
	go cmd.Wait() // reaped if it exits while we still run
	deadline := time.Now().Add(serveStartWait)
	for {
		c, err := serve.Dial(path, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if !errors.Is(err, serve.ErrNoServer) || time.Now().After(deadline) {
			return fmt.Errorf("start cdxtheme serve: %w", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
