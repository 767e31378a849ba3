package realpeer

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/peers"
)

// files lists the regular files below dir (relative paths), sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// A pre-warm on the real adapter opens the session before anything is
// typed; released unused it leaves nothing in the workspace and no session
// in CODEX_HOME (an unused New build must leave no trace), and a pre-warm
// that is used carries the first turn without a second spawn.
func TestPrewarmOnTheRealAdapter(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		r := newRig(t, a, rigOptions{warm: true})
		homeBefore := files(t, r.home.Dir)
		wsBefore := files(t, r.cwd)
		// A released pre-warm must leave no rollout even once session/new
		// went through, so it is released only after the session opened.
		opened := func() chan struct{} {
			ch := make(chan struct{})
			if !r.engine.Prewarm(chat.Turn{Cwd: r.cwd, OnOpen: func(*acp.SessionSetup) { close(ch) }}) {
				t.Fatal("Prewarm started nothing")
			}
			select {
			case <-ch:
			case <-time.After(turnTimeout):
				t.Fatal("the pre-warm never opened a session")
			}
			return ch
		}
		opened()
		r.engine.Release(r.cwd, "")
		if left := r.home.WaitGone(15 * time.Second); len(left) != 0 {
			t.Fatalf("Release left %v running", left)
		}
		if got := files(t, r.cwd); strings.Join(got, ",") != strings.Join(wsBefore, ",") {
			t.Errorf("an unused pre-warm wrote into the workspace: %v -> %v", wsBefore, got)
		}
		var rollouts []string
		for _, f := range files(t, r.home.Dir) {
			if strings.HasPrefix(f, "sessions"+string(os.PathSeparator)) {
				rollouts = append(rollouts, f)
			}
		}
		if len(rollouts) != 0 {
			t.Errorf("an unused pre-warm left sessions in CODEX_HOME: %v (home before: %v)", rollouts, homeBefore)
		}
		if len(r.mock.Turns()) != 0 {
			t.Errorf("the pre-warm reached the model: %d requests", len(r.mock.Turns()))
		}

		// Used: one adapter process for the pre-warm and the first turn.
		// The agents, not their helpers: a git the adapter ran while the
		// session opened may be gone by the turn's end.
		opened()
		before := r.home.Roots()
		if len(before) == 0 {
			t.Fatal("no agent running after the pre-warm opened its session")
		}
		res, evs, err := r.turn(chat.Turn{Prompt: prompt.Text("one")})
		if err != nil || !strings.Contains(evs.text(), "You said: one") {
			t.Fatalf("first turn: %v %+v", err, res)
		}
		if len(evs.ofType(chat.EventSession)) == 0 {
			t.Error("the pre-warmed first turn showed no session event")
		}
		alive := map[int]bool{}
		for _, pid := range r.home.Roots() {
			alive[pid] = true
		}
		for _, pid := range before {
			if !alive[pid] {
				t.Errorf("the pre-warmed process %d did not carry the turn", pid)
			}
		}
	})
}
