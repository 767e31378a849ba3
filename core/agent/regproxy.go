package agent

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/bunlock"
)

// stallTimeout ends a tarball download that has sent nothing for this long,
// so Bun retries or fails instead of waiting forever on a dead line.
const stallTimeout = 60 * time.Second

// regProxy is a loopback npm registry in front of the user's: Bun installs
// through it, so every tarball byte is counted as it arrives (Bun itself
// reports no byte progress). It is the app's alone and serves only the
// lockfile: every other local user can reach 127.0.0.1, so its base path
// holds a random secret, and with the user's registry credentials behind it
// the only paths it forwards are the tarballs of the locked packages,
// spelled exactly as Bun asks for them (no dot-segments, no escapes, no
// query). Each tarball is checked against the lockfile's integrity hash
// before its last bytes reach Bun.
type regProxy struct {
	upstream string // ends in "/"
	client   *http.Client
	srv      *http.Server
	base     string                     // http://127.0.0.1:PORT/SECRET/
	secret   string                     // "/SECRET/"
	allowed  map[string]bunlock.Package // escaped path below the base → package

	mu       sync.Mutex
	got      map[string]int64 // tarball URL → bytes of its best attempt so far
	lengths  map[string]int64 // tarball URL → Content-Length of its GET
	firstErr error            // the first thing the upstream refused or failed
}

func startProxy(upstream string, client *http.Client, pkgs []bunlock.Package) (*regProxy, error) {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return nil, fmt.Errorf("start the local registry proxy: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the local registry proxy: %w", err)
	}
	secret := "/" + hex.EncodeToString(key[:]) + "/"
	p := &regProxy{
		upstream: upstream,
		client:   client,
		base:     "http://" + ln.Addr().String() + secret,
		secret:   secret,
		allowed:  map[string]bunlock.Package{},
		got:      map[string]int64{},
		lengths:  map[string]int64{},
	}
	for _, pkg := range pkgs {
		p.allowed[tarballPath(pkg.Name, pkg.Version)] = pkg
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

// tarballPath is npm's convention for where a registry keeps name@version,
// below its base: {name}/-/{basename}-{version}.tgz, which is what Bun
// fetches for a lockfile entry without an address of its own.
func tarballPath(name, version string) string {
	return name + "/-/" + name[strings.LastIndex(name, "/")+1:] + "-" + version + ".tgz"
}

func (p *regProxy) close() { p.srv.Close() }

// received is the bytes of tarballs delivered to Bun so far.
func (p *regProxy) received() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for _, v := range p.got {
		n += v
	}
	return n
}

// contentLengths is every tarball GET's announced size so far.
func (p *regProxy) contentLengths() map[string]int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int64, len(p.lengths))
	for k, v := range p.lengths {
		out[k] = v
	}
	return out
}

// tarballURL is where the upstream keeps name@version.
func (p *regProxy) tarballURL(name, version string) string {
	return p.upstream + tarballPath(name, version)
}

func (p *regProxy) upstreamErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.firstErr
}

func (p *regProxy) fail(err error) {
	p.mu.Lock()
	if p.firstErr == nil {
		p.firstErr = err
	}
	p.mu.Unlock()
}

// route is the locked package a request asks for, or why it is refused.
func (p *regProxy) route(r *http.Request) (bunlock.Package, int) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return bunlock.Package{}, http.StatusMethodNotAllowed
	}
	// The request line as sent: Go's server neither cleans nor decodes it
	// for us here, and nothing but the exact spelling is accepted.
	raw := r.RequestURI
	if len(raw) < len(p.secret) || subtle.ConstantTimeCompare([]byte(raw[:len(p.secret)]), []byte(p.secret)) != 1 {
		return bunlock.Package{}, http.StatusNotFound
	}
	rest := raw[len(p.secret):]
	if strings.ContainsAny(rest, "%?#\\") {
		return bunlock.Package{}, http.StatusBadRequest
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bunlock.Package{}, http.StatusBadRequest
		}
	}
	pkg, ok := p.allowed[rest]
	if !ok {
		return bunlock.Package{}, http.StatusNotFound
	}
	return pkg, 0
}

func (p *regProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pkg, status := p.route(r)
	if status != 0 {
		http.Error(w, http.StatusText(status), status)
		return
	}
	target := p.tarballURL(pkg.Name, pkg.Version)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, target, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if v := r.Header.Get("User-Agent"); v != "" {
		req.Header.Set("User-Agent", v)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.fail(unreachable(err))
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		p.fail(fmt.Errorf("the registry has no file %s (the locked %s@%s)", resp.Request.URL.Redacted(), pkg.Name, pkg.Version))
	case resp.StatusCode >= 400:
		p.fail(refused(resp))
	}
	if r.Method == http.MethodGet && resp.StatusCode == http.StatusOK {
		p.copyTarball(w, resp, target, pkg, cancel)
		return
	}
	copyHeaders(w, resp)
	w.WriteHeader(resp.StatusCode)
	if r.Method == http.MethodGet {
		io.Copy(w, io.LimitReader(resp.Body, 64<<10))
	}
}

func copyHeaders(w http.ResponseWriter, resp *http.Response) {
	for _, h := range []string{"Content-Type", "Cache-Control", "Npm-Notice"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	if resp.ContentLength >= 0 {
		w.Header().Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
}

// integrity parses an SRI hash ("sha512-BASE64") into a fresh hash and the
// digest it must end at.
func integrity(sri string) (hash.Hash, []byte, error) {
	algo, b64, ok := strings.Cut(sri, "-")
	want, err := base64.StdEncoding.DecodeString(b64)
	if !ok || err != nil {
		return nil, nil, fmt.Errorf("unreadable integrity %q", sri)
	}
	switch algo {
	case "sha512":
		return sha512.New(), want, nil
	case "sha384":
		return sha512.New384(), want, nil
	case "sha256":
		return sha256.New(), want, nil
	case "sha1":
		return sha1.New(), want, nil
	}
	return nil, nil, fmt.Errorf("unknown integrity algorithm %q", algo)
}

// copyTarball streams a tarball to Bun, counting what was delivered. The
// last piece is held back until the whole file matched the lockfile's
// hash: a tarball that differs never arrives complete, whatever Bun checks.
func (p *regProxy) copyTarball(w http.ResponseWriter, resp *http.Response, target string, pkg bunlock.Package, cancel context.CancelFunc) {
	sum, want, err := integrity(pkg.Integrity)
	if err != nil {
		p.fail(fmt.Errorf("the lockfile's hash of %s@%s: %w", pkg.Name, pkg.Version, err))
		panic(http.ErrAbortHandler)
	}
	p.mu.Lock()
	if resp.ContentLength >= 0 {
		p.lengths[target] = resp.ContentLength
	}
	p.mu.Unlock()
	copyHeaders(w, resp)
	w.WriteHeader(http.StatusOK)
	stall := time.AfterFunc(stallTimeout, cancel)
	defer stall.Stop()
	buf, held := make([]byte, 64<<10), make([]byte, 0, 64<<10)
	var n int64
	deliver := func(b []byte) bool {
		if _, werr := w.Write(b); werr != nil {
			return false
		}
		n += int64(len(b))
		p.mu.Lock()
		if n > p.got[target] {
			p.got[target] = n
		}
		p.mu.Unlock()
		return true
	}
	for {
		m, err := resp.Body.Read(buf)
		if m > 0 {
			stall.Reset(stallTimeout)
			sum.Write(buf[:m])
			if len(held) > 0 && !deliver(held) {
				return
			}
			held = append(held[:0], buf[:m]...)
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, io.EOF) {
			p.fail(fmt.Errorf("the download of %s broke off after %d bytes (%w)", resp.Request.URL.Redacted(), n, err))
			return
		}
		if subtle.ConstantTimeCompare(sum.Sum(nil), want) != 1 {
			p.fail(fmt.Errorf("the registry sent %s@%s with another integrity hash than the tested lockfile names (%s): refused", pkg.Name, pkg.Version, pkg.Integrity))
			panic(http.ErrAbortHandler)
		}
		deliver(held)
		return
	}
}
