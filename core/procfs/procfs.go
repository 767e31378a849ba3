// Package procfs reads Linux's /proc: each process's state, parent, group
// and environment. Teardown uses it to tell zombies from the living, and
// the tests use it to prove that no agent process is left behind. Where
// there is no /proc it answers ErrUnavailable, so a check that cannot look
// can say so (and skip) instead of finding nothing and passing.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// ErrUnavailable is returned where there is no Linux /proc to read.
var ErrUnavailable = errors.New("no Linux /proc on this system")

// root is where /proc is mounted; a variable so tests can point it elsewhere.
var root = "/proc"

// Proc is one process as /proc/PID/stat shows it.
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

// Available reports whether /proc can be read here (nil), or why not
// (wrapping ErrUnavailable).
func Available() error {
	if runtime.GOOS != "linux" {
		return fmt.Errorf("%w (%s)", ErrUnavailable, runtime.GOOS)
	}
	if _, err := os.Stat(root + "/self/stat"); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

// All lists every process.
func All() ([]Proc, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	out := make([]Proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, err := Stat(pid)
		if err != nil {
			continue // exited between readdir and read
		}
		out = append(out, p)
	}
	return out, nil
}

// Stat reads /proc/PID/stat: "pid (comm) state ppid pgrp ...". comm may
// hold spaces and parentheses, so it runs to the last ')'.
func Stat(pid int) (Proc, error) {
	b, err := os.ReadFile(root + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, err
	}
	return parseStat(pid, b)
}

func parseStat(pid int, b []byte) (Proc, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Proc{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := bytes.Fields(b[end+1:])
	if len(f) < 3 {
		return Proc{}, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Proc{}, fmt.Errorf("/proc/%d/stat: bad ppid/pgrp", pid)
	}
	return Proc{PID: pid, PPID: ppid, PGID: pgid, State: string(f[0]), Comm: string(b[open+1 : end])}, nil
}

// Lookup returns process pid, or false when it no longer exists.
func Lookup(pid int) (Proc, bool) {
	p, err := Stat(pid)
	return p, err == nil
}

// LiveInGroup returns the members of process group pgid that are not zombies.
func LiveInGroup(pgid int) ([]Proc, error) {
	all, err := All()
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

// HasEnv reports whether process pid's environment holds the entry kv
// ("KEY=value"). Zombies and other users' processes have no readable
// environment and never match.
func HasEnv(pid int, kv string) bool {
	env, err := os.ReadFile(root + "/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(env) == 0 {
		return false
	}
	want := []byte(kv)
	for _, e := range bytes.Split(env, []byte{0}) {
		if bytes.Equal(e, want) {
			return true
		}
	}
	return false
}

// Exe is the program process pid runs (/proc/PID/exe), without the
// " (deleted)" Linux adds once the file is gone.
func Exe(pid int) (string, error) {
	if err := Available(); err != nil {
		return "", err
	}
	p, err := os.Readlink(root + "/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return "", fmt.Errorf("exe of pid %d: %w", pid, err)
	}
	return strings.TrimSuffix(p, " (deleted)"), nil
}

// Cmdline is process pid's command line (/proc/PID/cmdline), one entry an
// argument; empty for a zombie.
func Cmdline(pid int) ([]string, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(root + "/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil, fmt.Errorf("command line of pid %d: %w", pid, err)
	}
	b = bytes.TrimSuffix(b, []byte{0})
	if len(b) == 0 {
		return nil, nil
	}
	return strings.Split(string(b), "\x00"), nil
}

// Marked returns the live processes other than this one whose environment
// holds kv. Children inherit the environment, so this finds a whole process
// tree started with the marker, even members that left its group.
func Marked(kv string) ([]Proc, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	return FilterMarked(all, kv), nil
}

// FilterMarked keeps those of ps (other than this process) that carry kv,
// each with its state read again: a child caught between fork and exec
// showed its parent's comm and group a moment before.
func FilterMarked(ps []Proc, kv string) []Proc {
	self := os.Getpid()
	var out []Proc
	for _, p := range ps {
		if p.PID == self || !HasEnv(p.PID, kv) {
			continue
		}
		if q, err := Stat(p.PID); err == nil {
			out = append(out, q)
		}
	}
	return out
}

// Descendants returns the processes below pid (children, their children, ...).
func Descendants(pid int) ([]Proc, error) {
	all, err := All()
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

// Groups returns the distinct process group ids among ps, sorted.
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
