package peers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/inside"
	"cdxtheme/core/procfs"
)

// Home is a throw-away CODEX_HOME wired to a loopback Responses mock.
//
// Codex refuses to install its sandbox helper when CODEX_HOME lies under the
// temp dir, and then every shell tool call fails, so the home lives under
// <repo>/.cache (or the user cache dir), never under TMPDIR or /tmp.
type Home struct {
	Dir string // CODEX_HOME
	Tmp string // TMPDIR given to the agent: a sibling of Dir, also outside the temp dir
	// Outside is an empty directory outside both the workspace and the temp
	// dirs: a write there is what the workspace sandbox forbids, so a command
	// writing into it needs the user's permission.
	Outside string

	mode string
}

// ModeWorkspace is the sandboxed mode where the agent may write only inside
// the workspace and must ask before anything else: "workspace-write" in
// @agentclientprotocol/codex-acp, "auto" in @zed-industries/codex-acp.
const ModeWorkspace = "workspace"

// HomeOptions says what the home's config.toml holds.
type HomeOptions struct {
	BaseURL string // the mock's base URL ending in /v1 (respmock.Server.BaseURL)
	Model   string // default model; "" = "gpt-5.5" (known to both adapters, no metadata warning)
	// Mode is "" for each adapter's default mode, or ModeWorkspace.
	Mode string
}

// DefaultModel is known to both adapters' model catalogues.
const DefaultModel = "gpt-5.5"

// NewHome creates a fresh CODEX_HOME with an offline config.toml.
func NewHome(opts HomeOptions) (*Home, error) {
	if opts.BaseURL == "" {
		return nil, fmt.Errorf("codex home: no mock base URL")
	}
	if opts.Model == "" {
		opts.Model = DefaultModel
	}
	base, err := cacheBase()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp(base, "home-")
	if err != nil {
		return nil, fmt.Errorf("codex home: %w", err)
	}
	h := &Home{Dir: filepath.Join(root, "codex"), Tmp: filepath.Join(root, "tmp"), Outside: filepath.Join(root, "outside"), mode: opts.Mode}
	for _, d := range []string{h.Dir, h.Tmp, h.Outside} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			_ = os.RemoveAll(root)
			return nil, fmt.Errorf("codex home: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(h.Dir, "config.toml"), []byte(Config(opts)), 0o600); err != nil {
		_ = os.RemoveAll(root)
		return nil, fmt.Errorf("codex home: write config: %w", err)
	}
	return h, nil
}

// Config renders the config.toml for opts: a key-less loopback provider with
// retries off, so a mock failure shows at once instead of after back-off.
func Config(opts HomeOptions) string {
	model := opts.Model
	if model == "" {
		model = DefaultModel
	}
	// The Rust adapter derives its mode from these two settings
	// (on-request + workspace-write is its "auto" preset).
	policy := ""
	if opts.Mode == ModeWorkspace {
		policy = "approval_policy = \"on-request\"\nsandbox_mode = \"workspace-write\"\n"
	}
	return fmt.Sprintf(`model = %q
model_provider = "mock"
check_for_update_on_startup = false
`+policy+`
[model_providers.mock]
name = "Mock Responses"
base_url = %q
wire_api = "responses"
requires_openai_auth = false
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

# Codex snapshots the user's login shell in a detached session at the first
# turn; killing the adapter leaves that shell behind (for seconds when a
# .bashrc is slow), so tests could not tell a leak from it.
[features]
shell_snapshot = false
`, model, opts.BaseURL)
}

// Env is what the agent process needs on top of the inherited environment.
func (h *Home) Env() []string {
	env := []string{
		"CODEX_HOME=" + h.Dir,
		"TMPDIR=" + h.Tmp,
		"NO_BROWSER=1",
		// Keys from the developer's shell must not reach the mock or change
		// the auth path the adapters take.
		"OPENAI_API_KEY=",
		"CODEX_API_KEY=",
	}
	if h.mode == ModeWorkspace {
		// The Node adapter ignores config.toml for its mode and starts every
		// session in this one.
		env = append(env, "INITIAL_AGENT_MODE=workspace-write")
	}
	return env
}

// Close removes the home and everything the agent wrote into it.
func (h *Home) Close() error {
	if err := os.RemoveAll(filepath.Dir(h.Dir)); err != nil {
		return fmt.Errorf("remove codex home: %w", err)
	}
	return nil
}

// Processes lists live processes whose environment carries this home's
// CODEX_HOME: the adapter and anything it started. Callers make sure /proc
// can be read (procfs.Available); without it this finds nothing.
func (h *Home) Processes() []int {
	ps, err := procfs.Marked("CODEX_HOME=" + h.Dir)
	if err != nil {
		return nil
	}
	pids := make([]int, 0, len(ps))
	for _, p := range ps {
		if !p.Zombie() {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// Roots lists the processes of this home whose parent is not one of them:
// the agents the engine started, not the short-lived helpers (git, a
// shell) an agent runs. Tests that ask "is it still the same agent" compare
// these; a helper that finished is not an agent that was replaced.
func (h *Home) Roots() []int {
	ps, err := procfs.Marked("CODEX_HOME=" + h.Dir)
	if err != nil {
		return nil
	}
	marked := map[int]bool{}
	for _, p := range ps {
		if !p.Zombie() {
			marked[p.PID] = true
		}
	}
	var roots []int
	for _, p := range ps {
		if marked[p.PID] && !marked[p.PPID] {
			roots = append(roots, p.PID)
		}
	}
	return roots
}

// WaitGone polls until no process of this home is left or d has passed, and
// returns the ones still alive. Processes may take a moment to be reaped
// after their parent went, so this polls rather than looking once.
func (h *Home) WaitGone(d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		pids := h.Processes()
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cacheBase is the parent of all homes: <repo>/.cache/peers, else the user
// cache dir; never under the temp dir.
func cacheBase() (string, error) {
	var candidates []string
	if root, err := RepoRoot(); err == nil {
		candidates = append(candidates, filepath.Join(root, ".cache", "peers"))
	}
	if d, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(d, "cdxtheme", "peers"))
	}
	for _, c := range candidates {
		if underTemp(c) {
			continue
		}
		if err := os.MkdirAll(c, 0o700); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("codex home: no writable cache dir outside the temp dir (tried %s)", strings.Join(candidates, ", "))
}

// underTemp reports whether p lies in $TMPDIR or /tmp, where Codex will not
// install its sandbox helper.
func underTemp(p string) bool {
	for _, t := range []string{os.TempDir(), "/tmp"} {
		if inside.Within(t, p) {
			return true
		}
		if real, err := filepath.EvalSymlinks(t); err == nil && inside.Within(real, p) {
			return true
		}
	}
	return false
}
