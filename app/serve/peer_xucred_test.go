//go:build darwin || freebsd

package serve

import (
	"os"
	"strings"
	"testing"
)

// The credentials LOCAL_PEERCRED hands back are accepted only in the
// layout this code reads and only for this user.
func TestPeerUID(t *testing.T) {
	me := uint32(os.Getuid())
	if err := peerUID(xucredVersion, me); err != nil {
		t.Fatalf("this user: %v", err)
	}
	if err := peerUID(xucredVersion, me+1); err == nil || !strings.Contains(err.Error(), "runs as uid") {
		t.Fatalf("another user: %v", err)
	}
	if err := peerUID(xucredVersion+1, me); err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("another layout: %v", err)
	}
}
