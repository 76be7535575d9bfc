package runner

import (
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"ringside/runner/sandbox"
)

// TestJobLimits: a bot's caps become the Job Object's limits (memory per
// process and in all, user CPU time in 100 ns, processes at once), kill
// on close always, nothing else for a trusted bot; the CPU rate is one
// CPU's share of the machine, and none on one CPU or for no caps. Run on
// Windows (under Wine by .ci/wine-smoke.sh).
func TestJobLimits(t *testing.T) {
	caps := sandbox.Limits{Memory: 256 << 20, CPU: 90 * time.Second, Processes: 16}
	tests := []struct {
		name      string
		caps      sandbox.Limits
		flags     uint32
		mem       uintptr
		cpu       int64
		processes uint32
	}{
		{name: "trusted", flags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
		{name: "caps", caps: caps,
			flags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY |
				windows.JOB_OBJECT_LIMIT_JOB_MEMORY | windows.JOB_OBJECT_LIMIT_JOB_TIME | windows.JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
			mem: 256 << 20, cpu: 900_000_000, processes: 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := jobLimits(tt.caps)
			b := info.BasicLimitInformation
			if b.LimitFlags != tt.flags || info.ProcessMemoryLimit != tt.mem || info.JobMemoryLimit != tt.mem ||
				b.PerJobUserTimeLimit != tt.cpu || b.ActiveProcessLimit != tt.processes {
				t.Errorf("limits: flags %#x memory %d/%d cpu %d processes %d; want flags %#x memory %d cpu %d processes %d",
					b.LimitFlags, info.ProcessMemoryLimit, info.JobMemoryLimit, b.PerJobUserTimeLimit, b.ActiveProcessLimit,
					tt.flags, tt.mem, tt.cpu, tt.processes)
			}
			// The limits are accepted by the system: a job is made.
			job, err := newKillJob(tt.caps, true)
			if err != nil {
				t.Fatal(err)
			}
			windows.CloseHandle(job)
		})
	}
	for _, tt := range []struct {
		caps sandbox.Limits
		ncpu int
		ok   bool
		rate uint32
	}{
		{caps: caps, ncpu: 4, ok: true, rate: 2500},
		{caps: caps, ncpu: 1},
		{ncpu: 4},
	} {
		rate, ok := jobCPURate(tt.caps, tt.ncpu)
		if ok != tt.ok || (ok && (rate.CPURate != tt.rate || rate.ControlFlags != jobCPURateControlEnable|jobCPURateControlHardCap)) {
			t.Errorf("jobCPURate(%v, %d) = %+v, %v; want rate %d, %v", tt.caps, tt.ncpu, rate, ok, tt.rate, tt.ok)
		}
	}
}
