//go:build unix

package live

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"cdxtheme/core/fsread"
)

// maxProcs bounds the /proc entries read in one scan.
const maxProcs = 1 << 15

// proc is one of the user's processes as /proc shows it.
type proc struct {
	pid, ppid int
	comm      string
	args      []string // read only when asked
	// catches is the set of signals the process handles (caught or
	// blocked, as with a signalfd): one absent would kill it.
	catches uint64
}

// userProcs lists the user's processes whose name (comm) is one of names,
// at most maxInstances, from env.Proc (Linux's /proc; elsewhere none).
func userProcs(env Env, names []string, args bool) []proc {
	if env.Proc == "" {
		return nil
	}
	d, err := os.Open(env.Proc)
	if err != nil {
		return nil
	}
	entries, _ := d.ReadDir(maxProcs)
	d.Close()
	var out []proc
	for _, e := range entries {
		if len(out) >= maxInstances {
			break
		}
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(env.Proc, e.Name())
		// The name first, from stat alone (anyone may read it): the
		// owner and status are read only for the few that match. A scan
		// reads a hundred processes or more, each read is a system call
		// or three, and this runs on every live change.
		p, ok := readStat(dir, pid)
		if !ok || !slices.Contains(names, p.comm) || !ownedBy(dir, env.UID) || !readSignals(dir, &p) {
			continue
		}
		if args {
			b, err := fsread.ReadFile(filepath.Join(dir, "cmdline"), 64<<10, fsread.NoFollow)
			if err == nil {
				p.args = strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
			}
		}
		out = append(out, p)
	}
	return out
}

// readStat reads /proc/PID/stat: the name and the parent. One read of
// its start, without os.File (whose Open costs an fstat, and ReadAll a
// read more for the end): the kernel writes the line at once, and the
// name, in parentheses, and the parent come first; what follows the name
// is numbers, so its last ")" is in what is read.
func readStat(dir string, pid int) (proc, bool) {
	p := proc{pid: pid}
	fd, err := syscall.Open(filepath.Join(dir, "stat"), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return p, false
	}
	var buf [512]byte
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return p, false
	}
	b := buf[:n]
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return p, false
	}
	p.comm = string(b[open+1 : end])
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 2 {
		return p, false
	}
	p.ppid, _ = strconv.Atoi(f[1])
	return p, true
}

// readSignals reads /proc/PID/status: the signals it catches or blocks.
func readSignals(dir string, p *proc) bool {
	st, err := readSmall(filepath.Join(dir, "status"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(st), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && (k == "SigCgt" || k == "SigBlk") {
			m, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			p.catches |= m
		}
	}
	return true
}

// readSmall reads a /proc file, which stat reports as empty.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 16<<10))
}

func ownedBy(path string, uid int) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// ownSocket reports whether path is a socket the user owns.
func ownSocket(env Env, path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Type() != fs.ModeSocket {
		return false
	}
	return ownedBy(path, env.UID)
}

// signalled lists the pids signalAll sends sig to: each of the user's
// processes named one of names that handles it, but not one whose parent
// has the same name (kitty's pre-warmed helper): the program's main
// process reloads for all its windows. A process that would die of sig is
// never listed.
func signalled(env Env, names []string, sig syscall.Signal) []int {
	var pids []int
	for _, p := range userProcs(env, names, false) {
		if p.catches&(1<<(uint(sig)-1)) == 0 {
			continue
		}
		if parent, ok := readStat(filepath.Join(env.Proc, strconv.Itoa(p.ppid)), p.ppid); ok && parent.comm == p.comm {
			continue
		}
		pids = append(pids, p.pid)
	}
	return pids
}

// signal sends sig to pids; one gone since it was found is no error.
func signal(pids []int, sig syscall.Signal) (int, error) {
	n := 0
	var firstErr error
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil {
			if firstErr == nil && err != syscall.ESRCH {
				firstErr = err
			}
			continue
		}
		n++
	}
	return n, firstErr
}

// The signals kitty and Helix (SIGUSR1) and Ghostty (SIGUSR2) reload
// their configuration on.
const (
	sigUSR1 = syscall.SIGUSR1
	sigUSR2 = syscall.SIGUSR2
)
