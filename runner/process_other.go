//go:build !linux

package runner

import (
	"os"
	"time"
)

// waitUnreaped cannot wait without reaping here: the group is then not
// killed when its leader exits, only by stop while the leader lives.
func waitUnreaped(pid int) bool { return false }

// unread cannot tell what waits in a pipe here: 0.
func unread(f *os.File) int { return 0 }

// fill reads what the bot wrote into r.buf. Here a byte read but not yet
// counted can be missed by written: its lines may then be taken for the
// answer to an input written just after they were printed.
func (r *lineReader) fill() (int, error) {
	n, err := r.f.Read(r.buf)
	r.mu.Lock()
	r.taken += int64(n)
	r.mu.Unlock()
	return n, err
}

// cpuWait cannot tell here how long a bot waited for a CPU: 0.
func (p *process) cpuWait() time.Duration { return 0 }

// threadStats cannot tell here how long a bot waited for a CPU: none.
func (p *process) threadStats() map[int]schedStat { return nil }

// turnStats cannot tell here how long a bot waited for a CPU: none.
func (p *process) turnStats() map[int]schedStat { return nil }

// schedReader has nothing to read here.
type schedReader struct{}

func (*schedReader) close() {}

// cpuPressure cannot tell here whether the machine is busy: 0.
func cpuPressure() time.Duration { return 0 }

// sweepScratch leaves scratch folders alone here: whether their owner
// still runs cannot be told the same way.
func sweepScratch(dir string) {}

// waitsUnreaped tells that waitUnreaped cannot work here.
const waitsUnreaped = false
