//go:build linux

package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The proxy as another user of the machine sees it: the port is public
// (/proc/net/tcp), the secret is not (Bun gets it in its environment,
// which only the user can read, not on its command line). Such a user gets
// nothing through, whatever path it tries. Running as root (make test in
// CI) the probe runs as "nobody", or a user the test creates.
func TestProxyRefusesAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a probe as a second local user (make test in CI runs as root)")
	}
	if env := installEnv(nil, "http://127.0.0.1:1/sec/"); !strings.Contains(strings.Join(env, "\n"), "BUN_CONFIG_REGISTRY=http://127.0.0.1:1/sec/") {
		t.Fatalf("Bun is not given the proxy in its environment: %v", env)
	}
	uid, gid := otherUser(t)
	p, stub := proxyRig(t)
	// The probe is this test binary, copied where the other user may run it.
	dir, err := os.MkdirTemp("", "cdx-probe-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(probe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	before := len(stub.requests())
	cmd := exec.CommandContext(context.Background(), probe, "-test.run=^TestProxyProbe$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"CDXTHEME_PROXY_PROBE=" + proxyAddr(p), "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the probe as uid %d failed: %v\n%s", uid, err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("probe uid %d", uid)) {
		t.Fatalf("the probe did not run as uid %d:\n%s", uid, out)
	}
	if strings.Contains(string(out), "GOT 200") {
		t.Errorf("another user got through the proxy:\n%s", out)
	}
	if after := stub.requests(); len(after) != before {
		t.Errorf("the other user's requests reached the registry with the user's credentials: %v", after[before:])
	}
}

// TestProxyProbe is the other user's side of TestProxyRefusesAnotherUser.
func TestProxyProbe(t *testing.T) {
	addr := os.Getenv("CDXTHEME_PROXY_PROBE")
	if addr == "" {
		t.Skip("run by TestProxyRefusesAnotherUser as another user")
	}
	fmt.Printf("probe uid %d\n", os.Getuid())
	for _, path := range []string{
		"/cdx-filler/-/cdx-filler-1.0.0.tgz", "/cdx-filler", "/-/whoami", "/",
		"/../cdx-filler/-/cdx-filler-1.0.0.tgz", "/%2e%2e/cdx-filler", "/-/cdxtheme/t/0",
	} {
		fmt.Printf("GET %s: GOT %d\n", path, rawGet(addr, path))
	}
}

// otherUser is a local account other than root: nobody, else one made here.
func otherUser(t *testing.T) (uint32, uint32) {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		if out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "cdxtheme-probe").CombinedOutput(); err != nil {
			t.Fatalf("no second user and useradd failed: %v %s", err, out)
		}
		if u, err = user.Lookup("cdxtheme-probe"); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uint32(uid), uint32(gid)
}
