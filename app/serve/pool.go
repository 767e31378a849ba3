package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"

	"github.com/rs/zerolog"
)

// maxEngines bounds how many different agents (command, environment,
// timeout) one server keeps warm at once; the least recently used goes.
const maxEngines = 4

// Pool runs clients' turns for `cdxtheme serve`: one warm chat.Engine per
// distinct agent, so two calls with the same agent and session share one
// process, and calls with another environment never get this one's agent.
type Pool struct {
	Log zerolog.Logger

	mu      sync.Mutex
	engines map[string]*pooled
	closing sync.WaitGroup
}

type pooled struct {
	e    *chat.Engine
	used time.Time
}

// Handle is the Pool's Handler: it runs t on the engine for a.
func (p *Pool) Handle(ctx context.Context, t chat.Turn, a Agent, emit func(chat.Event)) (chat.Result, error) {
	return p.engine(a).Run(ctx, t, emit)
}

func (p *Pool) engine(a Agent) *chat.Engine {
	key := poolKey(a)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.engines == nil {
		p.engines = map[string]*pooled{}
	}
	if pe := p.engines[key]; pe != nil {
		pe.used = time.Now()
		return pe.e
	}
	if len(p.engines) >= maxEngines {
		oldest := ""
		for k, pe := range p.engines {
			if oldest == "" || pe.used.Before(p.engines[oldest].used) {
				oldest = k
			}
		}
		old := p.engines[oldest].e
		delete(p.engines, oldest)
		p.closing.Add(1)
		go func() {
			defer p.closing.Done()
			old.Close()
		}()
	}
	e := chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{Override: agent.Command{Path: a.Path, Args: a.Args}.String()},
		Version: a.Version,
		Warm:    true,
		Timeout: a.Timeout,
		Env:     a.Env,
		Log:     p.Log,
	})
	p.engines[key] = &pooled{e: e, used: time.Now()}
	return e
}

// Holding reports whether any engine keeps a live agent.
func (p *Pool) Holding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pe := range p.engines {
		if pe.e.Holding() {
			return true
		}
	}
	return false
}

// Close stops every agent and waits until their process groups are gone.
func (p *Pool) Close() {
	p.mu.Lock()
	engines := p.engines
	p.engines = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, pe := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pe.e.Close()
		}()
	}
	wg.Wait()
	p.closing.Wait()
}

// volatile are variables a shell changes from one command to the next
// that no agent cares about; everything else in the environment tells
// agents apart.
var volatile = []string{"PWD", "OLDPWD", "SHLVL", "_", "COLUMNS", "LINES"}

func poolKey(a Agent) string {
	h := sha256.New()
	word := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	word(a.Path)
	for _, s := range a.Args {
		word(s)
	}
	word(a.Timeout.String())
	word(a.Version)
	env := effective(a.Env)
	keys := make([]string, 0, len(env))
	for k := range env {
		if !slices.Contains(volatile, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		word(k + "=" + env[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// effective is env as a process gets it: the last value of a name wins.
func effective(env []string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

// Fingerprint names an agent by what decides whom it works for: its
// command, and the Codex home, account and model server its environment
// points it at. The desktop app lends its warm agent to a CLI turn only
// when both fingerprints agree (the rest of their environments differ by
// nature: one was started from the desktop, the other from a shell).
func Fingerprint(path string, args, env []string) string {
	h := sha256.New()
	word := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	word(path)
	for _, s := range args {
		word(s)
	}
	vars := effective(env)
	if vars["CODEX_HOME"] == "" && vars["HOME"] != "" {
		vars["CODEX_HOME"] = filepath.Join(vars["HOME"], ".codex")
	}
	keys := []string{}
	for k := range vars {
		if k == "HOME" || strings.HasPrefix(k, "CODEX_") || strings.HasPrefix(k, "OPENAI_") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		word(k + "=" + vars[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Lendable says why a warm engine (its options, opts) may not run a CLI
// turn that wants agent want: it must be the agent the CLI would start
// (the same command, Codex home, account and model server) and bound its
// turns alike. nil: it may.
func Lendable(opts chat.Options, want Agent) *Declined {
	cmd, err := agent.Resolve(opts.Resolve)
	if err != nil {
		return &Declined{Reason: "the app's agent cannot be resolved: " + err.Error()}
	}
	env := append(append(os.Environ(), cmd.Env...), opts.Env...)
	if Fingerprint(cmd.Path, cmd.Args, env) != Fingerprint(want.Path, want.Args, want.Env) {
		return &Declined{Reason: "the app runs another agent (command, Codex home or account)"}
	}
	if want.Timeout != opts.Timeout {
		return &Declined{Reason: "the app bounds turns by " + opts.Timeout.String()}
	}
	return nil
}
