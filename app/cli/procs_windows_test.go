package cli

import (
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A process snapshot and each process's image name: what Task Manager
// shows, on Windows and under Wine alike.
func processesCheckable() error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err == nil {
		windows.CloseHandle(snap)
	}
	return err
}

// processesOf counts live processes whose image is exe (-1: cannot look).
func processesOf(exe string) int {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return -1
	}
	defer windows.CloseHandle(snap)
	const stillActive = 259 // STILL_ACTIVE: GetExitCodeProcess of a running process
	n := 0
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
			n++
		}
	}
	return n
}
