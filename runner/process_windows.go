package runner

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// trustedAttr starts a bot in a process group of its own, so a Ctrl-C
// meant for Ringside's console does not reach it; startGroup puts it in a
// Job Object, which is what ends it and everything it starts.
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// jobs holds the Job Object of each running bot, by its pid. Windows has
// no process groups that a kill reaches; a job holds every process its
// member starts, and with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE the last
// handle closing (releaseGroup, or Ringside's own end however it comes)
// kills them all: no bot outlives its game or Ringside.
var jobs struct {
	mu  sync.Mutex
	pid map[int]windows.Handle
}

// startGroup starts cmd and puts it in a new Job Object. A process the
// bot starts between its start and the assignment (microseconds) is not
// in the job; everything started later is.
func startGroup(cmd *exec.Cmd) error {
	job, err := newKillJob()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return err
	}
	pid := cmd.Process.Pid
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	if err != nil {
		windows.CloseHandle(job)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("put the bot in a Job Object: %w", err)
	}
	jobs.mu.Lock()
	if jobs.pid == nil {
		jobs.pid = map[int]windows.Handle{}
	}
	jobs.pid[pid] = job
	jobs.mu.Unlock()
	return nil
}

// newKillJob makes a Job Object whose processes die when it is closed.
func newKillJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create a Job Object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("set the Job Object's limits: %w", err)
	}
	return job, nil
}

// killGroup ends every process of the job that pid leads (any signal is
// a kill here); a variable so tests can see every group kill.
var killGroup = func(pid int, sig syscall.Signal) error {
	jobs.mu.Lock()
	job, ok := jobs.pid[pid]
	jobs.mu.Unlock()
	if !ok {
		return nil
	}
	return windows.TerminateJobObject(job, 1)
}

// releaseGroup closes the job of pid once its leader is reaped: whatever
// it left running dies with the job.
func releaseGroup(pid int) {
	jobs.mu.Lock()
	job, ok := jobs.pid[pid]
	delete(jobs.pid, pid)
	jobs.mu.Unlock()
	if ok {
		windows.CloseHandle(job)
	}
}

// killPid ends one process.
func killPid(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.TerminateProcess(h, 1)
}
