package runner

import (
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"ringside/runner/sandbox"
)

// trustedAttr starts a bot in a process group of its own, so a Ctrl-C
// meant for Ringside's console does not reach it, and suspended:
// startGroup puts it in a Job Object, which is what ends it and
// everything it starts, and only then lets it run, so that not even a
// child it starts at once escapes the job (under Wine a bot's first
// child was seen outside it, outliving its game and Ringside).
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED}
}

// ntResumeProcess resumes every thread of a process created suspended:
// os/exec keeps no handle of the main thread that ResumeThread would need.
var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// processSuspendResume is PROCESS_SUSPEND_RESUME, which x/sys lacks.
const processSuspendResume = 0x0800

// uncontainedRemark is the replay's note on a bot that ran without the
// sandbox because Windows has none, but in a Job Object with its caps.
// uncontainedLevel is such a bot's Outcome.Sandbox: the job holds some.
const uncontainedLevel = "partial"

const uncontainedRemark = "partial: no sandbox on Windows; a Job Object ended its processes with the game and capped their memory, CPU time and number, but there are no file or network walls"

// jobs holds the Job Object of each running bot, by its pid. Windows has
// no process groups that a kill reaches; a job holds every process its
// member starts, and with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE the last
// handle closing (releaseGroup, or Ringside's own end however it comes)
// kills them all: no bot outlives its game or Ringside.
var jobs struct {
	mu  sync.Mutex
	pid map[int]windows.Handle
}

// startGroup starts cmd (suspended: trustedAttr), puts it in a new Job
// Object that holds caps (jobLimits) and, for a bot (oneCPU), the CPU
// rate of one CPU (jobCPURate), then lets it run: everything it starts is
// in the job.
func startGroup(cmd *exec.Cmd, caps sandbox.Limits, oneCPU bool) error {
	job, err := newKillJob(caps, oneCPU)
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return err
	}
	pid := cmd.Process.Pid
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|processSuspendResume, false, uint32(pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		if err == nil {
			err = resume(h)
		}
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

// resume lets a process created suspended run.
func resume(h windows.Handle) error {
	if err := ntResumeProcess.Find(); err != nil {
		return fmt.Errorf("resume the bot: %w", err)
	}
	if status, _, _ := ntResumeProcess.Call(uintptr(h)); status != 0 {
		return fmt.Errorf("resume the bot: %w", windows.NTStatus(status))
	}
	return nil
}

// newKillJob makes a Job Object whose processes die when it is closed,
// bounded by caps (jobLimits) and, if oneCPU, by jobCPURate.
func newKillJob(caps sandbox.Limits, oneCPU bool) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create a Job Object: %w", err)
	}
	info := jobLimits(caps)
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("set the Job Object's limits: %w", err)
	}
	if rate, ok := jobCPURate(caps, runtime.NumCPU()); ok && oneCPU {
		// Best effort: Windows before 8 has no CPU rate control, and
		// the other caps and the kill on close hold without it.
		_, _ = windows.SetInformationJobObject(job, windows.JobObjectCpuRateControlInformation,
			uintptr(unsafe.Pointer(&rate)), uint32(unsafe.Sizeof(rate)))
	}
	return job, nil
}

// jobLimits are the Job Object limits that hold caps: kill on close
// always; each process's committed memory (ProcessMemoryLimit) and all
// of them together (JobMemoryLimit) at caps.Memory, where an allocation
// past it fails (the Linux sandbox bounds private writable memory and the
// resident total the same way); the user-mode CPU time of all its
// processes in one game at caps.CPU (Windows ends them all when it is
// spent, as the watchdog does on Linux); at most caps.Processes processes
// at once (threads are not counted, unlike on Linux). Zero caps bound
// nothing.
func jobLimits(caps sandbox.Limits) windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION {
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if caps.Memory > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY | windows.JOB_OBJECT_LIMIT_JOB_MEMORY
		info.ProcessMemoryLimit = uintptr(caps.Memory)
		info.JobMemoryLimit = uintptr(caps.Memory)
	}
	if caps.CPU > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_JOB_TIME
		info.BasicLimitInformation.PerJobUserTimeLimit = caps.CPU.Nanoseconds() / 100 // in 100 ns
	}
	if caps.Processes > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_ACTIVE_PROCESS
		info.BasicLimitInformation.ActiveProcessLimit = uint32(caps.Processes)
	}
	return info
}

// jobCPURateInfo is JOBOBJECT_CPU_RATE_CONTROL_INFORMATION (x/sys has no
// type for it): flags, then CpuRate in hundredths of a percent of all
// the machine's CPUs.
type jobCPURateInfo struct {
	ControlFlags uint32
	CPURate      uint32
}

const (
	jobCPURateControlEnable  = 0x1 // JOB_OBJECT_CPU_RATE_CONTROL_ENABLE
	jobCPURateControlHardCap = 0x4 // JOB_OBJECT_CPU_RATE_CONTROL_HARD_CAP
)

// jobCPURate caps a bot that runs outside the sandbox at one CPU's worth
// of the machine's ncpu, so that a bot that spins threads cannot take the
// CPUs the other seats' turns are timed on (the Linux sandbox gives each
// seat an equal CPU weight instead). Builds get no rate cap: no seat is
// timed while they run, and a compiler may use every CPU, as on Linux. ok is false where there is nothing to
// cap: a trusted bot (zero caps) or a machine of one CPU.
func jobCPURate(caps sandbox.Limits, ncpu int) (jobCPURateInfo, bool) {
	if caps == (sandbox.Limits{}) || ncpu <= 1 {
		return jobCPURateInfo{}, false
	}
	return jobCPURateInfo{ControlFlags: jobCPURateControlEnable | jobCPURateControlHardCap,
		CPURate: uint32(10000 / ncpu)}, true
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
