package faults

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Proc is one process as /proc shows it.
type Proc struct {
	PID, PPID, PGID int
	State           string // "R", "S", "Z", ...
	Comm            string
}

// Zombie reports whether the process is dead and only waits to be reaped.
// In containers whose PID 1 never reaps, orphans stay zombies forever;
// they hold no memory, files or pipes, so they count as gone.
func (p Proc) Zombie() bool { return p.State == "Z" || p.State == "X" }

func (p Proc) String() string {
	return fmt.Sprintf("pid %d (%s) state %s pgid %d ppid %d", p.PID, p.Comm, p.State, p.PGID, p.PPID)
}

// ErrNoProc is returned where there is no /proc to read.
var ErrNoProc = errors.New("no /proc on this system")

// Processes lists every process in /proc.
func Processes() ([]Proc, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoProc, err)
	}
	var out []Proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, err := readStat(pid)
		if err != nil {
			continue // exited between readdir and read
		}
		out = append(out, p)
	}
	return out, nil
}

// readStat parses /proc/PID/stat: "pid (comm) state ppid pgrp ...". comm
// may hold spaces and parentheses, so it runs to the last ')'.
func readStat(pid int) (Proc, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, err
	}
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return Proc{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := bytes.Fields(b[close+1:])
	if len(f) < 3 {
		return Proc{}, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Proc{}, fmt.Errorf("/proc/%d/stat: bad ppid/pgrp", pid)
	}
	return Proc{PID: pid, PPID: ppid, PGID: pgid, State: string(f[0]), Comm: string(b[open+1 : close])}, nil
}

// Lookup returns process pid, or false when it no longer exists.
func Lookup(pid int) (Proc, bool) {
	p, err := readStat(pid)
	return p, err == nil
}

// Marked returns the processes whose environment holds the entry marker
// ("KEY=value"). Children inherit the environment, so this finds a whole
// process tree started with the marker, even members that left its group.
// Zombies have no readable environment and are never returned.
func Marked(marker string) ([]Proc, error) {
	all, err := Processes()
	if err != nil {
		return nil, err
	}
	return marked(all, marker), nil
}

// marked filters ps to those carrying marker.
func marked(ps []Proc, marker string) []Proc {
	want := []byte(marker)
	self := os.Getpid()
	var out []Proc
	for _, p := range ps {
		if p.PID == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/environ")
		if err != nil || len(env) == 0 {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				// Read the state again: a child caught between fork and
				// exec showed our comm and group a moment ago.
				if q, err := readStat(p.PID); err == nil {
					out = append(out, q)
				}
				break
			}
		}
	}
	return out
}

// Descendants returns the processes below pid (children, their children, ...).
func Descendants(pid int) ([]Proc, error) {
	all, err := Processes()
	if err != nil {
		return nil, err
	}
	kids := map[int][]Proc{}
	for _, p := range all {
		kids[p.PPID] = append(kids[p.PPID], p)
	}
	var out []Proc
	queue := []int{pid}
	for len(queue) > 0 {
		for _, c := range kids[queue[0]] {
			out = append(out, c)
			queue = append(queue, c.PID)
		}
		queue = queue[1:]
	}
	return out, nil
}

// LiveInGroup returns the members of process group pgid that are not zombies.
func LiveInGroup(pgid int) ([]Proc, error) {
	all, err := Processes()
	if err != nil {
		return nil, err
	}
	var out []Proc
	for _, p := range all {
		if p.PGID == pgid && !p.Zombie() {
			out = append(out, p)
		}
	}
	return out, nil
}

// Watch samples the processes carrying a marker in the background, so a
// case learns every agent process (and its group) it caused, including
// short-lived ones, without a hook in the code under test.
type Watch struct {
	marker string
	stop   chan struct{}
	done   chan struct{}

	mu   sync.Mutex
	seen map[int]Proc // by pid
	err  error
}

// StartWatch begins sampling every interval.
func StartWatch(marker string, interval time.Duration) *Watch {
	w := &Watch{marker: marker, stop: make(chan struct{}), done: make(chan struct{}), seen: map[int]Proc{}}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			w.Sample()
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Sample takes one sample now (also useful right after an event that
// proves an agent is running). It looks only at this process's
// descendants, which keeps sampling cheap; orphans that escaped are the
// business of a final Marked scan.
func (w *Watch) Sample() {
	ps, err := Descendants(os.Getpid())
	ps = marked(ps, w.marker)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.err = err
		return
	}
	for _, p := range ps {
		w.seen[p.PID] = p // the latest sighting: past exec, in its own group
	}
}

// Stop ends sampling and returns every process seen, by pid.
func (w *Watch) Stop() ([]Proc, error) {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
	return w.Seen()
}

// Seen returns the processes seen so far, sorted by pid.
func (w *Watch) Seen() ([]Proc, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Proc, 0, len(w.seen))
	for _, p := range w.seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, w.err
}

// Groups returns the distinct process group ids among ps.
func Groups(ps []Proc) []int {
	set := map[int]bool{}
	for _, p := range ps {
		set[p.PGID] = true
	}
	out := make([]int, 0, len(set))
	for g := range set {
		out = append(out, g)
	}
	sort.Ints(out)
	return out
}
