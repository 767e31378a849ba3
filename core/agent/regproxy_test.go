package agent

import (
	"bufio"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// upstream is a registry that records what reaches it.
type upstream struct {
	mu   sync.Mutex
	reqs []string
	auth []string
}

func (u *upstream) requests() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.reqs...)
}

// proxyRig is the install's registry proxy in front of a registry that
// wants credentials (as a user's private registry does), serving the locked
// cdx-filler@1.0.0.
func proxyRig(t *testing.T) (*regProxy, *upstream) {
	t.Helper()
	tgz := []byte("the locked tarball")
	sum := sha512.Sum512(tgz)
	up := &upstream{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		up.mu.Lock()
		up.reqs = append(up.reqs, r.Method+" "+r.RequestURI)
		up.auth = append(up.auth, r.Header.Get("Authorization"))
		up.mu.Unlock()
		w.Write(tgz)
	}))
	t.Cleanup(srv.Close)
	pkgs := []lockedPackage{{Name: "cdx-filler", Version: "1.0.0", Integrity: "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}}
	client := registryClient()
	t.Cleanup(client.CloseIdleConnections)
	p, err := startProxy(strings.Replace(srv.URL, "http://", "http://user:s3cret@", 1)+"/", client, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	return p, up
}

// rawGet sends path exactly as written (no client-side cleaning) and
// returns the status, 0 when the connection is refused or dropped.
func rawGet(addr, path string) int {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func proxyAddr(p *regProxy) string { return strings.SplitN(p.base, "/", 4)[2] }

// Even with the secret, only the locked tarballs pass, spelled exactly:
// dot-segments, escaped slashes or dots, queries and other registry paths
// are refused and never reach the registry (where the user's credentials
// would go with them).
func TestProxyForwardsOnlyLockedTarballs(t *testing.T) {
	p, stub := proxyRig(t)
	addr, secret := proxyAddr(p), p.secret
	if got := rawGet(addr, secret+"cdx-filler/-/cdx-filler-1.0.0.tgz"); got != http.StatusOK {
		t.Fatalf("the locked tarball: HTTP %d, want 200", got)
	}
	before := len(stub.requests())
	for _, path := range []string{
		"/cdx-filler/-/cdx-filler-1.0.0.tgz", // no secret
		secret[:len(secret)-2] + "/cdx-filler/-/cdx-filler-1.0.0.tgz",
		secret + "cdx-filler",                                   // metadata
		secret + "-/whoami",                                     // account API
		secret + "../cdx-filler/-/cdx-filler-1.0.0.tgz",         // dot-segment
		secret + "cdx-filler/-/../-/cdx-filler-1.0.0.tgz",       // dot-segment inside
		secret + "cdx-filler/./-/cdx-filler-1.0.0.tgz",          // single dot
		secret + "%2e%2e/cdx-filler/-/cdx-filler-1.0.0.tgz",     // encoded dots
		secret + "cdx-filler%2f-%2fcdx-filler-1.0.0.tgz",        // encoded slashes
		secret + "cdx-filler/-/cdx-filler-1.0.0.tgz?write=true", // query
		secret + "cdx-filler//-/cdx-filler-1.0.0.tgz",           // empty segment
		secret + "cdx-filler\\-\\cdx-filler-1.0.0.tgz",          // backslashes
		secret + "cdx-filler/-/cdx-filler-1.0.1.tgz",            // not locked
	} {
		if got := rawGet(addr, path); got == http.StatusOK {
			t.Errorf("GET %s: HTTP 200, want refused", path)
		}
	}
	if after := stub.requests(); len(after) != before {
		t.Errorf("refused requests reached the registry: %v", after[before:])
	}
}

// The proxy as another user of the machine sees it: the port is public
// (/proc/net/tcp), the secret is not (Bun gets it in its environment,
// which only the user can read, not on its command line). Such a user gets
// nothing through, whatever path it tries. Running as root (make test in
// CI) the probe runs as "nobody", or a user the test creates.
func TestProxyRefusesAnotherUser(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the second-user probe runs on Linux")
	}
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
