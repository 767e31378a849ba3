package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxManifestBytes bounds one package's metadata (the biggest the adapter
// needs, @openai/codex's, is ~0.5 MB abbreviated).
const maxManifestBytes = 64 << 20

// stallTimeout ends a tarball download that has sent nothing for this long,
// so Bun retries or fails instead of waiting forever on a dead line.
const stallTimeout = 60 * time.Second

// tokenPrefix routes tarballs the registry hosts elsewhere than its own base.
const tokenPrefix = "/-/cdxtheme/t/"

// regProxy is a loopback npm registry in front of the user's: Bun installs
// through it, so every tarball byte is counted as it arrives (Bun itself
// reports no byte progress). Metadata passes through with each version's
// dist.tarball pointed back at the proxy; everything else is forwarded
// unchanged to the same path below the upstream base.
type regProxy struct {
	upstream string // ends in "/"
	client   *http.Client
	srv      *http.Server
	base     string // http://127.0.0.1:PORT/

	mu       sync.Mutex
	tokens   map[string]string // token → tarball URL off the upstream base
	byURL    map[string]string // tarball URL → token
	dists    map[string]string // "name@version" → tarball URL, from the metadata seen
	got      map[string]int64  // tarball URL → bytes of its best attempt so far
	lengths  map[string]int64  // tarball URL → Content-Length of its GET
	firstErr error             // the first thing the upstream refused or failed
}

func startProxy(upstream string, client *http.Client) (*regProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the local registry proxy: %w", err)
	}
	p := &regProxy{
		upstream: upstream,
		client:   client,
		base:     "http://" + ln.Addr().String() + "/",
		tokens:   map[string]string{},
		byURL:    map[string]string{},
		dists:    map[string]string{},
		got:      map[string]int64{},
		lengths:  map[string]int64{},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
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

// tarballURL is where the registry keeps name@version: as its metadata
// said, else the npm convention {registry}{name}/-/{basename}-{version}.tgz.
func (p *regProxy) tarballURL(name, version string) string {
	p.mu.Lock()
	u := p.dists[name+"@"+version]
	p.mu.Unlock()
	if u != "" {
		return u
	}
	base := name[strings.LastIndex(name, "/")+1:]
	return p.upstream + name + "/-/" + base + "-" + version + ".tgz"
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

// proxied is the address Bun is given for a tarball URL.
func (p *regProxy) proxied(u string) string {
	if rest, ok := strings.CutPrefix(u, p.upstream); ok {
		return p.base + rest
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	tok, ok := p.byURL[u]
	if !ok {
		tok = strconv.Itoa(len(p.tokens))
		p.tokens[tok] = u
		p.byURL[u] = tok
	}
	return strings.TrimSuffix(p.base, "/") + tokenPrefix + tok
}

func (p *regProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "read-only registry proxy", http.StatusMethodNotAllowed)
		return
	}
	target, tarball := "", false
	if tok, ok := strings.CutPrefix(r.URL.Path, tokenPrefix); ok {
		p.mu.Lock()
		target = p.tokens[tok]
		p.mu.Unlock()
		if target == "" {
			http.NotFound(w, r)
			return
		}
		tarball = true
	} else {
		target = p.upstream + strings.TrimPrefix(r.URL.EscapedPath(), "/")
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		tarball = strings.HasSuffix(r.URL.Path, ".tgz")
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, target, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	for _, h := range []string{"Accept", "User-Agent", "Authorization", "Npm-Command", "Npm-Auth-Type"} {
		if v := r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.fail(unreachable(err))
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound && tarball:
		p.fail(fmt.Errorf("the registry has no file %s", resp.Request.URL.Redacted()))
	case resp.StatusCode == http.StatusNotFound:
		name, _ := url.PathUnescape(strings.TrimPrefix(r.URL.Path, "/"))
		p.fail(fmt.Errorf("the registry has no package %s", name))
	case resp.StatusCode >= 400:
		p.fail(refused(resp))
	}
	if tarball && r.Method == http.MethodGet && resp.StatusCode == http.StatusOK {
		p.copyTarball(w, resp, target, cancel)
		return
	}
	if r.Method == http.MethodGet && resp.StatusCode == http.StatusOK && isJSON(resp.Header.Get("Content-Type")) {
		p.copyManifest(w, resp)
		return
	}
	copyHeaders(w, resp, true)
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func isJSON(ct string) bool {
	return strings.Contains(ct, "json")
}

func copyHeaders(w http.ResponseWriter, resp *http.Response, withLength bool) {
	for _, h := range []string{"Content-Type", "Cache-Control", "Npm-Notice"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	if withLength && resp.ContentLength >= 0 {
		w.Header().Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
}

// copyTarball streams a tarball to Bun, counting what was delivered.
func (p *regProxy) copyTarball(w http.ResponseWriter, resp *http.Response, target string, cancel context.CancelFunc) {
	p.mu.Lock()
	if resp.ContentLength >= 0 {
		p.lengths[target] = resp.ContentLength
	}
	p.mu.Unlock()
	copyHeaders(w, resp, true)
	w.WriteHeader(http.StatusOK)
	stall := time.AfterFunc(stallTimeout, cancel)
	defer stall.Stop()
	buf := make([]byte, 64<<10)
	var n int64
	for {
		m, err := resp.Body.Read(buf)
		if m > 0 {
			stall.Reset(stallTimeout)
			if _, werr := w.Write(buf[:m]); werr != nil {
				return
			}
			n += int64(m)
			p.mu.Lock()
			if n > p.got[target] {
				p.got[target] = n
			}
			p.mu.Unlock()
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				p.fail(fmt.Errorf("the download of %s broke off after %d bytes (%w)", resp.Request.URL.Redacted(), n, err))
			}
			return
		}
	}
}

// copyManifest passes package metadata on with every dist.tarball pointed at
// the proxy, and remembers where each version's tarball really is.
func (p *regProxy) copyManifest(w http.ResponseWriter, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxManifestBytes+1))
	if err == nil && len(body) > maxManifestBytes {
		err = fmt.Errorf("larger than %d MiB", maxManifestBytes>>20)
	}
	if err != nil {
		p.fail(fmt.Errorf("the metadata at %s could not be read (%w)", resp.Request.URL.Redacted(), err))
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if out, ok := p.rewrite(body); ok {
		body = out
	}
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

func (p *regProxy) rewrite(body []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc map[string]any
	if dec.Decode(&doc) != nil {
		return nil, false
	}
	name, _ := doc["name"].(string)
	versions, _ := doc["versions"].(map[string]any)
	if name == "" || versions == nil {
		return nil, false
	}
	for v, raw := range versions {
		ver, _ := raw.(map[string]any)
		dist, _ := ver["dist"].(map[string]any)
		u, _ := dist["tarball"].(string)
		if u == "" {
			continue
		}
		p.mu.Lock()
		p.dists[name+"@"+v] = u
		p.mu.Unlock()
		dist["tarball"] = p.proxied(u)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, false
	}
	return out, true
}
