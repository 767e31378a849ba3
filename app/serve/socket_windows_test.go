//go:build windows

package serve

import (
	"bufio"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// The socket folder is %LOCALAPPDATA%\cdxtheme\run with a protected DACL
// granting this user alone; one that lets Everyone in is repaired.
func TestDirGrantsTheUserAlone(t *testing.T) {
	t.Setenv("LOCALAPPDATA", t.TempDir())
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(dir, `\cdxtheme\run`) {
		t.Fatalf("dir %s", dir)
	}
	user, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkACL(dir, user, true); err != nil {
		t.Fatalf("a new folder: %v", err)
	}
	sd, err := windows.SecurityDescriptorFromString("D:(A;OICI;GA;;;WD)")
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, _ := sd.DACL()
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.UNPROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	if err := checkACL(dir, user, true); !errors.Is(err, errForeignACL) {
		t.Fatalf("an Everyone DACL passed the check: %v", err)
	}
	if _, err := Dir(); err != nil {
		t.Fatal(err)
	}
	if err := checkACL(dir, user, true); err != nil {
		t.Fatalf("Dir left the Everyone DACL: %v", err)
	}
}

// A turn's bytes cross the socket; a closed server's leaves nothing to dial.
func TestListenAndDial(t *testing.T) {
	if !unixSockets() {
		if _, err := Path("test"); !errors.Is(err, ErrUnsupported) {
			t.Fatalf("without AF_UNIX, Path: %v", err)
		}
		t.Skip("this Windows lists no AF_UNIX protocol (before 10 1803, or Wine 8): the hand-off is ErrUnsupported")
	}
	t.Setenv("LOCALAPPDATA", t.TempDir())
	path, err := Path("test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Dial(path, time.Second); !errors.Is(err, ErrNoServer) {
		t.Fatalf("before Listen: %v", err)
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path); !errors.Is(err, ErrInUse) {
		t.Fatalf("a second Listen: %v", err)
	}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("got " + line))
	}()
	c, err := Dial(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("hello\n"))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if err != nil || got != "got hello\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	ln.Close()
	if _, err := Dial(path, time.Second); !errors.Is(err, ErrNoServer) {
		t.Fatalf("after Close: %v", err)
	}
}
