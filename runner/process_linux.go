package runner

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// trustedAttr starts a trusted bot in its own process group, killed if
// Ringside dies.
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// waitUnreaped waits until pid has exited but leaves it unreaped (a
// zombie still owns its number); it reports whether it could.
func waitUnreaped(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}

// unread returns how many bytes wait in the pipe f, not yet read.
func unread(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		// TIOCINQ is FIONREAD: the bytes waiting to be read.
		n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
	})
	if err != nil {
		return 0
	}
	return n
}

// fill reads what the bot wrote into r.buf, blocking until there is
// something or the output ended. The read itself never blocks (the pipe
// is non-blocking; Go's poller waits for it) and is counted under r.mu
// in the same breath, so written counts every byte exactly once: taken,
// or still in the pipe.
func (r *lineReader) fill() (int, error) {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for {
			n, rerr = unix.Read(int(fd), r.buf)
			if rerr != unix.EINTR {
				break
			}
		}
		if rerr == unix.EAGAIN {
			return false
		}
		n = max(n, 0)
		r.taken += int64(n)
		return true
	})
	switch {
	case err != nil:
		return 0, err
	case rerr != nil:
		return n, rerr
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// cpuWait is how long the bot's programs have waited for a CPU while
// ready to run: the kernel's run-queue delay of every thread of the
// process and its descendants (64 processes at most), summed. That is time
// lost to a busy machine, not spent by the bot; threads that wait at the
// same time each count, so it errs on the bot's side (callers cap it).
func (p *process) cpuWait() time.Duration {
	var total time.Duration
	for _, st := range p.sched.read(p.pid, true, false) {
		total += st.wait
	}
	return total
}

// threadStats is the scheduler's account of each thread of the bot's
// programs (64 processes at most), by thread id: all of them as they are
// now. A sandboxed bot's are below its launcher, whose own threads only
// watch it and never carry its answer: what they wait for a CPU on a busy
// machine (its watchdog wakes 50 times a second) is none of the bot's.
// cpuWait counts them: the launcher's start is the bot's.
func (p *process) threadStats() map[int]schedStat {
	return p.sched.read(p.pid, true, p.launch != nil)
}

// turnStats is threadStats where a turn starts, cheap enough for every
// turn of a fast game: the threads as last walked, at most rewalkEvery
// ago (a thread started since counts from its start when the turn is
// judged).
func (p *process) turnStats() map[int]schedStat {
	return p.sched.read(p.pid, false, p.launch != nil)
}

// cpuPressure is how long, all told, some program of this machine has
// been kept waiting for a CPU (the kernel's pressure stall information),
// 0 where the kernel does not say. It is read at most once every
// pressureEvery for all games (each turn of a fast game asks): a value
// that old can only make a timeout's share of pressure look a few
// milliseconds larger or smaller.
func cpuPressure() time.Duration {
	pressure.mu.Lock()
	defer pressure.mu.Unlock()
	if now := time.Now(); now.Sub(pressure.at) >= pressureEvery {
		pressure.total, pressure.at = readPressure(), now
	}
	return pressure.total
}

const pressureEvery = 5 * time.Millisecond

var pressure struct {
	mu    sync.Mutex
	at    time.Time
	total time.Duration
}

func readPressure() time.Duration {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	_, total, ok := strings.Cut(line, "total=")
	if !ok {
		return 0
	}
	us, err := strconv.ParseInt(strings.TrimSpace(total), 10, 64)
	if err != nil {
		return 0
	}
	return time.Duration(us) * time.Microsecond
}

// waitsUnreaped tells that waitUnreaped works here.
const waitsUnreaped = true
