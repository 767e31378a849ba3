package realpeer

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/npmstub"
	"cdxtheme/internal/testrig/peers"

	"github.com/rs/zerolog"
)

// The real adapter runs as the sidecar runs it once installed: with the
// pinned Bun, from the app's install dir (the pinned packages of peers/,
// linked in place of a download), answering a turn against the mock. A
// `.env` and a `bunfig.toml` with a preload that the agent could have left
// in the workspace are not read by Bun there (neither by the adapter's Bun
// nor by the Bun it starts codex with).
func TestSidecarRunsTheRealAdapter(t *testing.T) {
	a := peers.Require(t, peers.TS)[0]
	bun := npmstub.Bun(t)
	r := newRig(t, a, rigOptions{})
	pdir, err := peers.Dir()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	dir := filepath.Join(cache, "codex-acp@2.6.0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pdir, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	marker, _ := json.Marshal(map[string]string{"package": agent.SidecarPackage, "version": "2.6.0", "bin": "node_modules/@agentclientprotocol/codex-acp/dist/index.js"})
	for name, body := range map[string][]byte{"installed.json": marker, "bunfig.toml": nil} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	planted := filepath.Join(t.TempDir(), "preload-ran")
	hostile := map[string]string{
		".env":        "OPENAI_BASE_URL=http://127.0.0.1:9/v1\nCODEX_HOME=/nonexistent\n",
		"bunfig.toml": `preload = ["./evil.js"]` + "\n",
		"evil.js":     `require("node:fs").writeFileSync(` + strconvQuote(planted) + `, "ran");` + "\n",
	}
	for name, body := range hostile {
		if err := os.WriteFile(filepath.Join(r.cwd, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	r.engine = chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{
			ExeDir:   filepath.Dir(bun),
			CacheDir: cache,
			LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
		},
		Version: "realpeer-test",
		Timeout: turnTimeout,
		Env:     r.home.Env(),
		Log:     zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel),
	})
	cmd, err := agent.Resolve(agent.ResolveOptions{ExeDir: filepath.Dir(bun), CacheDir: cache, LookPath: func(string) (string, error) { return "", exec.ErrNotFound }})
	if err != nil || cmd.Source != agent.SourceSidecar || cmd.Path != bun {
		t.Fatalf("Resolve = %s (%s), %v; want the sidecar", cmd, cmd.Source, err)
	}
	res, evs, err := r.turn(chat.Turn{Prompt: prompt.Text("hello")})
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	var text strings.Builder
	for _, ev := range evs.ofType(chat.EventText) {
		text.WriteString(ev.Payload.(chat.TextChunk).Text)
	}
	if !strings.Contains(text.String(), "You said: hello") || res.StopReason != "end_turn" {
		t.Fatalf("reply %q (stop %q), want the mock's echo", text.String(), res.StopReason)
	}
	if len(evs.ofType(chat.EventInstall)) != 0 {
		t.Error("an installed adapter was installed again")
	}
	if _, err := os.Stat(planted); err == nil {
		t.Error("Bun ran the workspace's bunfig.toml preload")
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
