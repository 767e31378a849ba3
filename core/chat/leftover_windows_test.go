//go:build windows

package chat

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no process groups: the agent's tree lives in its Job Object
// (core/agent/proc_windows.go). What must be gone after teardown is that
// tree, found from a process snapshot by parent ids: the agent (pid) and
// every process below it, orphans included (a child keeps its dead
// parent's id).
//
// Windows reuses a process id as soon as nothing refers to the process, so
// the agent's id could name a later agent by the time it is checked:
// holdPID keeps a handle to each agent for the test binary's life, which
// keeps its id (and so the tree's root) its own. A parent id can also be
// stale (Wine's services.exe names the long-gone process that started it,
// whose id an agent may get), so a process counts as a child only when it
// was created after its parent. Orphans of a child that died are not found
// (their parent id is unknown here); the Job Object ends them with the rest.
func leftoverCheckable() error {
	_, err := processes()
	return err
}

var held sync.Map // pid → windows.Handle

func holdPID(pid int) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err == nil {
		held.Store(pid, h)
	}
}

func liveInGroup(pid int) (int, error) {
	ps, err := processes()
	if err != nil {
		return 0, err
	}
	kids := map[uint32][]uint32{}
	alive := map[uint32]bool{}
	for _, p := range ps {
		kids[p.ParentProcessID] = append(kids[p.ParentProcessID], p.ProcessID)
		alive[p.ProcessID] = true
	}
	rootMade, ok := created(uint32(pid))
	if !ok {
		// Not held: the agent had ended before its id was reported, and
		// the id may be another process's now.
		return 0, nil
	}
	n, seen := 0, map[uint32]bool{}
	type node struct {
		pid  uint32
		made int64
	}
	queue := []node{{uint32(pid), rootMade}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if seen[cur.pid] {
			continue
		}
		seen[cur.pid] = true
		if alive[cur.pid] && cur.pid != uint32(os.Getpid()) {
			n++
		}
		for _, k := range kids[cur.pid] {
			if made, ok := created(k); ok && made >= cur.made {
				queue = append(queue, node{k, made})
			}
		}
	}
	return n, nil
}

// created is process pid's creation time (the held handle for an agent),
// false when it cannot be asked (gone, or not this user's).
func created(pid uint32) (int64, bool) {
	var h windows.Handle
	if v, ok := held.Load(int(pid)); ok {
		h = v.(windows.Handle)
	} else {
		var err error
		if h, err = windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid); err != nil {
			return 0, false
		}
		defer windows.CloseHandle(h)
	}
	var c, e, k, u windows.Filetime
	if err := windows.GetProcessTimes(h, &c, &e, &k, &u); err != nil {
		return 0, false
	}
	return c.Nanoseconds(), true
}

func processes() ([]windows.ProcessEntry32, error) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil, fmt.Errorf("process snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	var out []windows.ProcessEntry32
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		out = append(out, e)
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return nil, fmt.Errorf("process snapshot: %w", err)
	}
	return out, nil
}
