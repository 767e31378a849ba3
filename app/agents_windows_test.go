package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// testAgent is the agent command of a test app: on Windows a hard link
// to the fake agent in the test's own folder, so this test's agents are
// the processes of that image (another process's environment cannot be
// read here as /proc gives it on Linux).
func testAgent(t *testing.T, bin, root string) string {
	t.Helper()
	own := filepath.Join(root, "fakeagent.exe")
	if err := os.Link(bin, own); err != nil {
		t.Fatalf("link the fake agent: %v", err)
	}
	t.Setenv(envTestAgent, own)
	return strconv.Quote(own)
}

// fakeAgents lists the pids of this test's live fake agents: the
// processes whose image is the test's link (testAgent).
func fakeAgents(t *testing.T) []int {
	t.Helper()
	exe := os.Getenv(envTestAgent)
	if exe == "" {
		t.Fatal("no test app's agent (newTestApp) to look for")
	}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		t.Fatalf("process snapshot: %v", err)
	}
	defer windows.CloseHandle(snap)
	const stillActive = 259 // GetExitCodeProcess of a running process
	var out []int
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, e.ProcessID)
		if err != nil {
			continue // gone, or not ours to open
		}
		buf := make([]uint16, windows.MAX_LONG_PATH)
		size := uint32(len(buf))
		named := windows.QueryFullProcessImageName(h, 0, &buf[0], &size) == nil
		var code uint32
		alive := windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
		windows.CloseHandle(h)
		if named && alive && strings.EqualFold(windows.UTF16ToString(buf[:size]), exe) {
			out = append(out, int(e.ProcessID))
		}
	}
	return out
}
