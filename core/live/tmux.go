package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// tmuxSockets lists the user's tmux servers: the sockets in
// $TMUX_TMPDIR/tmux-UID (tmux's -L names live there too), only sockets the
// user owns, at most maxInstances.
func tmuxSockets(env Env) []string {
	if env.TmuxDir == "" {
		return nil
	}
	d, err := os.Open(filepath.Join(env.TmuxDir, "tmux-"+strconv.Itoa(env.UID)))
	if err != nil {
		return nil
	}
	defer d.Close()
	entries, _ := d.ReadDir(4 * maxInstances)
	var out []string
	for _, e := range entries {
		p := filepath.Join(d.Name(), e.Name())
		if len(out) < maxInstances && ownSocket(env, p) {
			out = append(out, p)
		}
	}
	return out
}

// tellTmux has every running tmux server source file, the theme's own
// (not its companion's): its styles change at once in every session. A
// socket left by a server that is gone is no error.
func tellTmux(ctx context.Context, env Env, file string, sockets []string) (int, error) {
	bin, err := exec.LookPath("tmux")
	if err != nil {
		return 0, nil // no tmux here: none running that could be told
	}
	return each(ctx, sockets, func(ctx context.Context, sock string) (bool, error) {
		ctx, cancel := context.WithTimeout(ctx, env.Timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "-S", sock, "source-file", file)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Env = append(os.Environ(), "TMUX=") // the app run inside tmux: still the socket named
		err := cmd.Run()
		msg := strings.TrimSpace(out.String())
		var exit *exec.ExitError
		switch {
		case err == nil:
			return true, nil
		case errors.As(err, &exit) && (strings.Contains(msg, "no server running") || strings.Contains(msg, "error connecting")):
			return false, nil
		case ctx.Err() != nil:
			return false, fmt.Errorf("tmux %s: no answer within %s", sock, env.Timeout)
		}
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return false, fmt.Errorf("tmux %s: %v: %s", sock, err, msg)
	})
}
