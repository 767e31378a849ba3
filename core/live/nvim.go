package live

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// colourName is what a Neovim colorscheme the app installs may be called
// (theme.Slug); anything else is not sent to Neovim.
var colourName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// nvimSockets lists the servers of the user's running Neovims: the
// sockets Neovim makes for itself (0.8 on: $XDG_RUNTIME_DIR/nvim.PID.0,
// else $TMPDIR/nvim.USER/*/nvim.PID.0; 0.7: $TMPDIR/nvimXXXXXX/0) and the
// paths given to --listen, read from the processes' command lines. Only
// sockets the user owns count, at most maxInstances.
func nvimSockets(env Env) []string {
	var found []string
	add := func(paths ...string) {
		for _, p := range paths {
			if len(found) < maxInstances && !slices.Contains(found, p) && ownSocket(env, p) {
				found = append(found, p)
			}
		}
	}
	glob := func(pattern string) {
		m, _ := filepath.Glob(pattern) // a bad pattern is impossible here; none found is nil
		if len(m) > 4*maxInstances {
			m = m[:4*maxInstances]
		}
		add(m...)
	}
	if env.RuntimeDir != "" {
		glob(filepath.Join(env.RuntimeDir, "nvim.*.0"))
	}
	if env.TempDir != "" {
		glob(filepath.Join(env.TempDir, "nvim.*", "*", "nvim.*.0"))
		glob(filepath.Join(env.TempDir, "nvim*", "0"))
	}
	for _, p := range userProcs(env, []string{"nvim"}, true) {
		for i, a := range p.args {
			var addr string
			switch {
			case a == "--listen" && i+1 < len(p.args):
				addr = p.args[i+1]
			case strings.HasPrefix(a, "--listen="):
				addr = strings.TrimPrefix(a, "--listen=")
			}
			if filepath.IsAbs(addr) {
				add(addr)
			}
		}
	}
	return found
}

// tellNvim has every running Neovim whose colorscheme is one of names
// load it again (`:colorscheme` re-reads the rewritten file and fires
// the ColorScheme autocommands plugins repaint on); a Neovim showing
// another colorscheme is left as it is.
//
// It runs with LuaJIT's compiler off, turned back on after (as it was):
// every load of the file makes new functions, and the JIT tries to trace
// the hot `hl` one over and over, aborting at each nvim_set_hl (a Lua C
// function it cannot compile). That was ~90 % of Neovim's time: 28 ms
// CPU for the example theme, 3 ms without (Neovim 0.7, LuaJIT 2.1), the
// most of the live path on a busy machine.
func tellNvim(ctx context.Context, env Env, names, sockets []string) (int, error) {
	cmd := NvimReload(names)
	if cmd == "" {
		return 0, nil
	}
	return each(ctx, sockets, func(ctx context.Context, sock string) (bool, error) {
		err := nvimCommand(ctx, env, sock, cmd)
		return err == nil, err
	})
}

// NvimReload is the Ex command tellNvim sends: `:colorscheme` again, with
// the JIT off, where the colorscheme is one of names; "" when no name is
// one the app installs. (make bench times it beside a plain
// `:colorscheme`.)
func NvimReload(names []string) string {
	var quoted []string
	for _, n := range names {
		if colourName.MatchString(n) {
			quoted = append(quoted, "'"+n+"'")
		}
	}
	if len(quoted) == 0 {
		return ""
	}
	// The names are quoted safely: colourName allows letters, digits and
	// "-" only. A build on PUC Lua has no jit: the same, compiled or not.
	return "lua local n = vim.g.colors_name; if vim.tbl_contains({" + strings.Join(quoted, ",") + "}, n) then" +
		" local j = rawget(_G, 'jit'); local on = j and j.status(); if on then j.off() end;" +
		" local ok, err = pcall(vim.cmd, 'colorscheme ' .. n); if on then j.on() end;" +
		" if not ok then error(err, 0) end end"
}

// nvimCommand runs cmd in the Neovim serving sock (nvim_command over its
// MessagePack-RPC socket), within env.Timeout.
func nvimCommand(ctx context.Context, env Env, sock, cmd string) error {
	ctx, cancel := context.WithTimeout(ctx, env.Timeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return fmt.Errorf("neovim %s: %w", sock, err)
	}
	defer c.Close()
	deadline, _ := ctx.Deadline()
	c.SetDeadline(deadline)
	const id = 1
	if _, err := c.Write(request(id, "nvim_command", cmd)); err != nil {
		return fmt.Errorf("neovim %s: %w", sock, err)
	}
	r := bufio.NewReader(io.LimitReader(c, maxBytes))
	for {
		v, err := decode(r, 0)
		if err != nil {
			return fmt.Errorf("neovim %s: %w", sock, err)
		}
		msg, _ := v.([]any)
		if len(msg) == 4 && msg[0] == int64(1) && msg[1] == int64(id) {
			if msg[2] != nil {
				return fmt.Errorf("neovim %s: %s", sock, rpcError(msg[2]))
			}
			return nil
		}
		// A notification or another reply: not ours, read on.
		if time.Now().After(deadline) {
			return fmt.Errorf("neovim %s: no reply", sock)
		}
	}
}

// rpcError is Neovim's [type, message] error as text.
func rpcError(v any) string {
	if e, ok := v.([]any); ok && len(e) == 2 {
		if s, ok := e[1].(string); ok {
			if len(s) > 300 {
				s = s[:300] + "…"
			}
			return s
		}
	}
	return "an error"
}
