//go:build unix

// Package procmem reads what processes hold in memory from /proc: a
// process's peak resident set, and the peaks of a whole process tree.
package procmem

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/procfs"
)

// statusKB is the value in kB of a field of /proc/PID/status ("VmHWM",
// "VmRSS"); false when the field is missing or not a number.
func StatusKB(status, field string) (float64, bool) {
	for _, l := range strings.Split(status, "\n") {
		v, ok := strings.CutPrefix(l, field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
		return kb, err == nil
	}
	return 0, false
}

// vmHWM is the peak resident set of process pid in MB.
func VmHWM(pid int) (float64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	kb, ok := StatusKB(string(b), "VmHWM")
	return kb / 1024, ok
}

// resetHWM sets pid's VmHWM back to its current RSS (clear_refs 5), so a
// long-lived process's peak is this run's, not one of its past.
func ResetHWM(pid int) error {
	return os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0)
}

// treePeak follows a process and its descendants and keeps each one's
// VmHWM (a peak the kernel keeps, so sampling misses none of it while the
// process lives), split into our own processes (the binary bin: the
// command, serve, their agent shims) and the rest (the agent).
type TreePeak struct {
	bin  string
	pid  int
	mu   sync.Mutex
	hwm  map[int]float64 // MB
	own  map[int]bool
	stop chan struct{}
	done chan struct{}
}

// watchTree samples pid's tree every 10 ms until stop; bin is our binary's
// path (processes running it are ours). reset first sets the peaks of the
// tree's processes back to their current RSS.
func WatchTree(pid int, bin string, reset bool) *TreePeak {
	t := &TreePeak{bin: bin, pid: pid, hwm: map[int]float64{}, own: map[int]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	pids := t.pids()
	if reset {
		for _, p := range pids {
			_ = ResetHWM(p)
		}
	}
	go t.loop(pids)
	return t
}

// pids is the tree now, the root first.
func (t *TreePeak) pids() []int {
	out := []int{t.pid}
	if kids, err := procfs.Descendants(t.pid); err == nil {
		for _, k := range kids {
			out = append(out, k.PID)
		}
	}
	return out
}

func (t *TreePeak) loop(pids []int) {
	defer close(t.done)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		if i%10 == 9 { // the tree changes rarely: walk /proc each 100 ms
			pids = t.pids()
		}
		t.sample(pids)
		select {
		case <-t.stop:
			return
		case <-tick.C:
		}
	}
}

func (t *TreePeak) sample(pids []int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range pids {
		v, ok := VmHWM(p)
		if !ok {
			continue
		}
		if _, seen := t.hwm[p]; !seen {
			exe, _ := procfs.Exe(p)
			t.own[p] = exe == t.bin
		}
		t.hwm[p] = max(t.hwm[p], v)
	}
}

// end stops sampling; the root's own figure is raised to rootMB when the
// caller knows it better (its rusage after it exited). It returns the
// peaks in MB: the root alone, our processes together (root included) and
// the agent's processes together. Sums of per-process peaks: an upper
// bound of what the tree held at once.
func (t *TreePeak) End(rootMB float64) (root, own, agent float64) {
	close(t.stop)
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	t.hwm[t.pid] = max(t.hwm[t.pid], rootMB)
	t.own[t.pid] = true
	for p, v := range t.hwm {
		if t.own[p] {
			own += v
		} else {
			agent += v
		}
	}
	return t.hwm[t.pid], own, agent
}
