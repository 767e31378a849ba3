package agent

import (
	"bufio"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"cdxtheme/core/bunlock"
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
	pkgs := []bunlock.Package{{Name: "cdx-filler", Version: "1.0.0", Integrity: "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}}
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
