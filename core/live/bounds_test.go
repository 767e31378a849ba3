//go:build linux

package live

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Replies from a socket are another process's: nesting, lengths and
// truncation end in an error, never a panic or a huge allocation.
func TestHostileMessagePackIsAnError(t *testing.T) {
	deep := bytes.Repeat([]byte{0x91}, 100) // [[[[…
	for name, in := range map[string][]byte{
		"nested too deep":    deep,
		"array of 4 billion": {0xdd, 0xff, 0xff, 0xff, 0xff},
		"string of 4 GiB":    {0xdb, 0xff, 0xff, 0xff, 0xff},
		"map of 4 billion":   {0xdf, 0xff, 0xff, 0xff, 0xff},
		"truncated string":   {0xa5, 'a', 'b'},
		"reserved byte":      {0xc1},
		"empty":              {},
	} {
		if v, err := decode(bufio.NewReader(bytes.NewReader(in)), 0); err == nil {
			t.Errorf("%s: decoded %v, want an error", name, v)
		}
	}
	// A real reply decodes.
	reply := []byte{0x94, 0x01, 0x01, 0x92, 0x00, 0xa4, 'o', 'o', 'p', 's', 0xc0}
	v, err := decode(bufio.NewReader(bytes.NewReader(reply)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if msg := v.([]any); rpcError(msg[2]) != "oops" {
		t.Fatalf("reply %v", v)
	}
}

// A Neovim socket that never answers is given up after the timeout; a
// socket that is not the user's kind (a link to one) is not looked at.
func TestASilentSocketIsGivenUpAndLinksAreNotFollowed(t *testing.T) {
	run := t.TempDir()
	sock := filepath.Join(run, "nvim.1.0")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	if err := os.Symlink(sock, filepath.Join(run, "nvim.2.0")); err != nil {
		t.Fatal(err)
	}
	env := Env{UID: os.Getuid(), RuntimeDir: run, Timeout: 200 * time.Millisecond}
	found := nvimSockets(env)
	if len(found) != 1 || found[0] != sock {
		t.Fatalf("found %v, want only the socket itself, not the link", found)
	}
	reached, err := tellNvim(context.Background(), env, []string{"harbour-night"}, found)
	if reached != 0 || err == nil || !strings.Contains(err.Error(), sock) {
		t.Fatalf("a silent Neovim: reached %d, %v; want an error naming it", reached, err)
	}
	// A name that is not a slug is never sent.
	if n, err := tellNvim(context.Background(), env, []string{"x' | !rm -rf ~ | '"}, found); n != 0 || err != nil {
		t.Fatalf("a hostile colorscheme name was sent: %d %v", n, err)
	}
}
