//go:build windows

package agent

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

const createNoWindow = 0x08000000

// sysProcAttr starts the agent in a new process group without a console
// window (the desktop app has none to share).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | createNoWindow,
		HideWindow:    true,
	}
}

// tree is the Job Object that holds the agent and everything it starts.
// Windows has no process groups to signal and no parent-death signal, and
// taskkill /T walks parent links that break as soon as a middle process
// exits. A job is inherited by every descendant, and with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE the system ends all of them when its
// last handle closes: ours, which closes with this process however it ends
// (Stop, a crash, Task Manager). The handle is not inheritable, so no agent
// holds the job open.
type tree struct {
	mu     sync.Mutex
	h      windows.Handle
	closed bool
}

func newTree() (*tree, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("job object kill-on-close: %w", err)
	}
	return &tree{h: h}, nil
}

// kill ends every process in the job now.
func (t *tree) kill() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	return windows.TerminateJobObject(t.h, 1)
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION (winnt.h).
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount                                uint32
	TotalProcesses, ActiveProcesses                    uint32
	TotalTerminatedProcesses                           uint32
}

// empty reports whether no process of the job is left. A job that cannot
// be asked counts as alive, so teardown reports it rather than passing.
func (t *tree) empty() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return true
	}
	var a jobAccounting
	err := windows.QueryInformationJobObject(t.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil)
	return err == nil && a.ActiveProcesses == 0
}

// close ends what is left of the tree, waits (bounded by goneWait) until
// it is gone, and lets go of the job.
func (t *tree) close() {
	t.kill()
	deadline := time.Now().Add(goneWait)
	for !t.empty() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		windows.CloseHandle(t.h)
	}
}

// startShimmed: Windows has no shim; the agent starts suspended, is put
// in its job, then resumed, so not even its first child can start outside
// the job. When the agent exits, what it left behind is ended with the
// job, as the shim does on Unix. Should the job be refused (a system
// without nested jobs, where this process already runs in one), the agent
// is started directly, killed by taskkill /T alone.
func startShimmed(c *exec.Cmd) (*child, error) {
	if c.Err != nil {
		return nil, c.Err
	}
	t, err := newTree()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoShim, err)
	}
	// A Cmd of its own: a Cmd starts once, and the caller's is the one for
	// the direct start should the job be refused. No ExtraFiles: Windows
	// passes none.
	s := &exec.Cmd{Path: c.Path, Args: c.Args, Dir: c.Dir, Env: c.Env, Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.Stderr}
	s.SysProcAttr = sysProcAttr()
	s.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	if err := s.Start(); err != nil {
		t.close()
		return nil, err
	}
	pid := s.Process.Pid
	if err := joinAndResume(t, pid); err != nil {
		// It never ran: end it and start it again without the job.
		s.Process.Kill()
		s.Wait()
		t.close()
		return nil, fmt.Errorf("%w: job object for agent %d: %v", errNoShim, pid, err)
	}
	return &child{proc: s.Process, agentPid: pid, tree: t, wait: func() error {
		err := exitErrorOf(s.Wait())
		t.close()
		return err
	}}, nil
}

func joinAndResume(t *tree, pid int) error {
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("open process: %w", err)
	}
	err = windows.AssignProcessToJobObject(t.h, ph)
	windows.CloseHandle(ph)
	if err != nil {
		return fmt.Errorf("assign to job: %w", err)
	}
	return resumeThreads(pid)
}

// resumeThreads resumes the threads of a process created suspended (its
// main thread: exec does not hand out the thread handle).
func resumeThreads(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	const threadSuspendResume = 0x0002
	resumed := 0
	e := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &e); err == nil; err = windows.Thread32Next(snap, &e) {
		if e.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(threadSuspendResume, false, e.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", e.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", e.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("no thread to resume")
	}
	return nil
}

// terminateGroup asks the tree to close; console programs usually ignore
// it, which is why Stop escalates to a forced kill.
func terminateGroup(p *Process) error { return taskkill(p.pid, false) }

// killGroup ends the job; without one, the tree taskkill /T still finds.
func killGroup(p *Process) {
	if p.tree != nil {
		if err := p.tree.kill(); err == nil {
			return
		}
	}
	if err := taskkill(p.pid, true); err != nil {
		_ = p.proc.Kill()
	}
}

func taskkill(pid int, force bool) error {
	args := []string{"/T", "/PID", strconv.Itoa(pid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	c := exec.Command("taskkill", args...)
	c.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	return c.Run()
}

// groupGone: the job knows whether any of the tree is left. Without one,
// taskkill /T has already walked the tree; once the leader is reaped there
// is nothing further to observe.
func groupGone(p *Process) bool { return p.tree == nil || p.tree.empty() }
