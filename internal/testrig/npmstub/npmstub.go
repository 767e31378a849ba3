// Package npmstub is a small npm registry for tests: it serves package
// metadata and packed tarballs from memory on a loopback port, throttled so
// that download progress can be watched, and records every request. It
// packs the project's fake ACP agent as the adapter package the Bun sidecar
// installs (FakeAgent), with a dependency of a known size (Filler).
package npmstub

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/bunlock"
)

// File is one file of a package, below package/ in its tarball.
type File struct {
	Path string
	Body []byte
	Mode int64 // 0 = 0644
}

// Package is one published version.
type Package struct {
	Name    string
	Version string
	Deps    map[string]string
	Bin     map[string]string
	Files   []File // package.json is generated from the fields above
}

// Options configure a Server.
type Options struct {
	Packages []Package
	// Rate throttles tarball bodies to about this many bytes per second
	// (0 = as fast as the loopback goes).
	Rate int64
	// NoHead makes tarball HEAD requests fail, as some registries do: sizes
	// are then known only from each download's Content-Length.
	NoHead bool
}

// Server is a running stub registry.
type Server struct {
	URL string // base address, ends in "/"

	ln     net.Listener
	srv    *http.Server
	rate   atomic.Int64
	noHead bool
	// refuse, when set, answers every request with this status.
	refuse atomic.Int32

	mu        sync.Mutex
	requests  []string          // "GET /path", in order
	manifests map[string][]byte // package name → packument
	tarballs  map[string][]byte // URL path → .tgz
	sizes     map[string]int64  // name@version → tarball size
	sums      map[string]string // name@version → integrity (SRI) of the published tarball
	tree      []Package         // the adapter and the filler as published at Start
}

// Start serves pkgs on 127.0.0.1 at a free port.
func Start(opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL:       "http://" + ln.Addr().String() + "/",
		ln:        ln,
		manifests: map[string][]byte{},
		tarballs:  map[string][]byte{},
		sizes:     map[string]int64{},
		sums:      map[string]string{},
	}
	s.rate.Store(opts.Rate)
	s.noHead = opts.NoHead
	byName := map[string][]Package{}
	for _, p := range opts.Packages {
		byName[p.Name] = append(byName[p.Name], p)
		if p.Name == AgentPackage && len(s.tree) == 0 || p.Name == FillerPackage && p.Version == "1.0.0" {
			s.tree = append(s.tree, p)
		}
	}
	for name, versions := range byName {
		doc := map[string]any{"name": name, "dist-tags": map[string]string{"latest": versions[len(versions)-1].Version}}
		vs := map[string]any{}
		for _, p := range versions {
			tgz, unpacked, err := pack(p)
			if err != nil {
				ln.Close()
				return nil, fmt.Errorf("pack %s@%s: %w", p.Name, p.Version, err)
			}
			path := tarballPath(p.Name, p.Version)
			s.tarballs[path] = tgz
			s.sizes[p.Name+"@"+p.Version] = int64(len(tgz))
			sum512 := sha512.Sum512(tgz)
			sum1 := sha1.Sum(tgz)
			s.sums[p.Name+"@"+p.Version] = "sha512-" + base64.StdEncoding.EncodeToString(sum512[:])
			vs[p.Version] = map[string]any{
				"name": p.Name, "version": p.Version,
				"dependencies": orEmpty(p.Deps), "bin": orEmpty(p.Bin),
				"dist": map[string]any{
					"tarball":      strings.TrimSuffix(s.URL, "/") + path,
					"integrity":    "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
					"shasum":       hex.EncodeToString(sum1[:]),
					"unpackedSize": unpacked,
				},
			}
		}
		doc["versions"] = vs
		b, _ := json.Marshal(doc)
		s.manifests[name] = b
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// tarballPath is npm's convention: /{name}/-/{basename}-{version}.tgz.
func tarballPath(name, version string) string {
	base := name[strings.LastIndex(name, "/")+1:]
	return "/" + name + "/-/" + base + "-" + version + ".tgz"
}

// Close stops the server and drops open downloads.
func (s *Server) Close() {
	s.srv.Close()
}

// SetRate changes the throttle (bytes per second, 0 = none), also for
// downloads under way.
func (s *Server) SetRate(bps int64) { s.rate.Store(bps) }

// Refuse makes every request answer status (0 = serve normally again).
func (s *Server) Refuse(status int) { s.refuse.Store(int32(status)) }

// Replace serves p's tarball where the version published at Start was,
// leaving the metadata as it was: a registry (or a network in between)
// handing out other bytes under a version already published.
func (s *Server) Replace(p Package) error {
	tgz, _, err := pack(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tarballs[tarballPath(p.Name, p.Version)] = tgz
	return nil
}

// Unpublish stops serving name@version's tarball (its metadata stays).
func (s *Server) Unpublish(name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tarballs, tarballPath(name, version))
}

// PackageLock is npm's package-lock.json (v3) of a folder depending on
// tree[0], with tree the packages installed flat (hoisted) beside it: the
// "tested tree" of what this registry published.
func (s *Server) PackageLock(tree ...Package) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	pkgs := map[string]any{"": map[string]any{"name": "stub-tested", "dependencies": map[string]string{tree[0].Name: tree[0].Version}}}
	for _, p := range tree {
		e := map[string]any{"version": p.Version, "integrity": s.sums[p.Name+"@"+p.Version], "license": "MIT"}
		if len(p.Deps) > 0 {
			e["dependencies"] = p.Deps
		}
		if len(p.Bin) > 0 {
			e["bin"] = p.Bin
		}
		pkgs["node_modules/"+p.Name] = e
	}
	b, _ := json.MarshalIndent(map[string]any{"name": "stub-tested", "lockfileVersion": 3, "requires": true, "packages": pkgs}, "", "  ")
	return b
}

// AdapterLock is the bun.lock of the adapter this registry published first,
// with cdx-filler 1.0.0: the "tested" lockfile the app installs it from when
// CDXTHEME_ADAPTER_LOCK names it (the app's own names the real adapter).
func (s *Server) AdapterLock() ([]byte, error) {
	if len(s.tree) == 0 || s.tree[0].Name != AgentPackage {
		return nil, fmt.Errorf("the stub publishes no %s first", AgentPackage)
	}
	return bunlock.FromNPM(s.PackageLock(s.tree...), AgentPackage, s.tree[0].Version)
}

// AdapterLockFile writes AdapterLock into a temporary folder of tb and
// returns its path, for CDXTHEME_ADAPTER_LOCK.
func (s *Server) AdapterLockFile(tb testing.TB) string {
	tb.Helper()
	b, err := s.AdapterLock()
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), "adapter.bun.lock")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Requests lists "METHOD /path" of every request so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// TarballSize is the packed size of name@version (0 if not served).
func (s *Server) TarballSize(name, version string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sizes[name+"@"+version]
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	switch r.URL.Path {
	case "/-/stub/rate": // for tests outside this process (e2e)
		n, err := strconv.ParseInt(r.URL.Query().Get("bps"), 10, 64)
		if err != nil || r.Method != http.MethodPost {
			http.Error(w, "POST /-/stub/rate?bps=N", http.StatusBadRequest)
			return
		}
		s.SetRate(n)
		return
	case "/-/stub/requests":
		json.NewEncoder(w).Encode(s.Requests())
		return
	}
	if st := s.refuse.Load(); st != 0 {
		http.Error(w, "refused by the stub registry", int(st))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "read-only", http.StatusMethodNotAllowed)
		return
	}
	s.mu.Lock()
	tgz, isTarball := s.tarballs[r.URL.Path]
	name, _ := url.PathUnescape(strings.TrimPrefix(r.URL.Path, "/"))
	doc, isDoc := s.manifests[name]
	s.mu.Unlock()
	switch {
	case isTarball && r.Method == http.MethodHead && s.noHead:
		http.Error(w, "no HEAD here", http.StatusMethodNotAllowed)
	case isTarball:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.Itoa(len(tgz)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			s.throttled(w, r, tgz)
		}
	case isDoc:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(doc)
		}
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"Not found"}`))
	}
}

// throttled writes b in slices of rate/20 every 50 ms.
func (s *Server) throttled(w http.ResponseWriter, r *http.Request, b []byte) {
	fl, _ := w.(http.Flusher)
	for len(b) > 0 {
		rate := s.rate.Load()
		n := len(b)
		if rate > 0 {
			n = min(n, max(int(rate/20), 1))
		}
		if _, err := w.Write(b[:n]); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
		b = b[n:]
		if rate > 0 && len(b) > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// pack builds the npm tarball of p and returns it with the unpacked size.
func pack(p Package) ([]byte, int64, error) {
	pj, err := json.MarshalIndent(map[string]any{
		"name": p.Name, "version": p.Version, "license": "MIT",
		"dependencies": orEmpty(p.Deps), "bin": orEmpty(p.Bin),
	}, "", "  ")
	if err != nil {
		return nil, 0, err
	}
	files := append([]File{{Path: "package.json", Body: pj}}, p.Files...)
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	var unpacked int64
	for _, f := range files {
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		hdr := &tar.Header{Name: "package/" + f.Path, Mode: mode, Size: int64(len(f.Body)), ModTime: time.Unix(499162500, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, 0, err
		}
		if _, err := tw.Write(f.Body); err != nil {
			return nil, 0, err
		}
		unpacked += int64(len(f.Body))
	}
	if err := tw.Close(); err != nil {
		return nil, 0, err
	}
	if err := gz.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), unpacked, nil
}

// AgentPackage is the adapter's npm name, as the sidecar installs it.
const AgentPackage = "@agentclientprotocol/codex-acp"

// FillerPackage is the dependency of a known size.
const FillerPackage = "cdx-filler"

// FakeAgent packs the fake ACP agent binary at agentPath as version of the
// adapter package: its bin is a tiny script that runs the binary with the
// script's arguments and stdio, and it depends on FillerPackage.
func FakeAgent(agentPath, version string) Package {
	quoted, _ := json.Marshal(agentPath)
	script := fmt.Sprintf(`#!/usr/bin/env node
// The project's fake ACP agent, packed as an npm package by internal/testrig/npmstub.
const { spawnSync } = require("node:child_process");
const r = spawnSync(%s, process.argv.slice(2), { stdio: "inherit" });
if (r.error) { console.error(String(r.error)); process.exit(127); }
process.exit(r.status === null ? 1 : r.status);
`, quoted)
	return Package{
		Name:    AgentPackage,
		Version: version,
		Deps:    map[string]string{FillerPackage: "^1.0.0"},
		Bin:     map[string]string{"codex-acp": "dist/index.js"},
		Files:   []File{{Path: "dist/index.js", Body: []byte(script), Mode: 0o755}},
	}
}

// Filler is FillerPackage 1.0.0 holding size incompressible bytes, so its
// tarball is about that big.
func Filler(size int) Package { return FillerVersion("1.0.0", size) }

// FillerVersion is Filler published as version.
func FillerVersion(version string, size int) Package {
	data := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i+8 <= len(data); i += 8 {
		v := r.Uint64()
		for j := range 8 {
			data[i+j] = byte(v >> (8 * j))
		}
	}
	return Package{
		Name:    FillerPackage,
		Version: version,
		Files:   []File{{Path: "data.bin", Body: data}},
	}
}
