package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"ringside/runner/internal/procfs"
)

// Memory a bot holds that no process's resident size shows: SysV shared
// memory segments and message queues (a detached segment belongs to no
// process), and memfd files held open by a file descriptor without
// being mapped. Where no memory cgroup is writable (a teacher's own
// account) the watchdog adds them to the processes' resident memory.

// sysvBytes is what the SysV objects of the bot's IPC namespace hold:
// each shared memory segment's resident and swapped pages (its size
// where the kernel does not say), and each message queue's bytes.
// Pages of an attached segment a process touched count once more in
// that process's resident size: an overcount that only a bot using SysV
// shared memory (no runtime does by itself) can meet.
func sysvBytes() int64 {
	return sysvShmBytes(trimmed("/proc/sysvipc/shm")) + sysvMsgBytes(trimmed("/proc/sysvipc/msg"))
}

// sysvShmBytes adds up a /proc/sysvipc/shm table.
func sysvShmBytes(table string) int64 {
	return sumColumns(table, func(col map[string]int64) int64 {
		rss, okR := col["rss"]
		swap, okS := col["swap"]
		if okR && okS {
			return rss + swap
		}
		return col["size"]
	})
}

// sysvMsgBytes adds up the bytes waiting in a /proc/sysvipc/msg table.
func sysvMsgBytes(table string) int64 {
	return sumColumns(table, func(col map[string]int64) int64 { return col["cbytes"] })
}

// sumColumns reads a /proc/sysvipc table (a header line naming the
// columns, then one line per object) and sums what of each line counts.
func sumColumns(table string, count func(map[string]int64) int64) int64 {
	lines := strings.Split(table, "\n")
	if len(lines) < 2 {
		return 0
	}
	names := strings.Fields(lines[0])
	var total int64
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != len(names) {
			continue
		}
		col := make(map[string]int64, len(names))
		for i, n := range names {
			if v, err := strconv.ParseInt(f[i], 10, 64); err == nil {
				col[n] = v
			}
		}
		if n := count(col); n > 0 {
			total += n
		}
	}
	return total
}

// memfdBytes is what the memfd files the processes hold open have
// allocated, each file once however many descriptors name it. A memfd
// that is also mapped and touched counts in a resident size too: an
// overcount only a program that keeps both can meet.
func memfdBytes(pids []int) int64 {
	type inode struct{ dev, ino uint64 }
	seen := map[inode]bool{}
	var total int64
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		names, err := procfs.List(dir)
		if err != nil {
			continue
		}
		for _, name := range names {
			link, err := os.Readlink(dir + name)
			if err != nil || !strings.HasPrefix(link, "/memfd:") {
				continue
			}
			var st unix.Stat_t
			if unix.Stat(dir+name, &st) != nil {
				continue
			}
			k := inode{st.Dev, st.Ino}
			if seen[k] {
				continue
			}
			seen[k] = true
			total += st.Blocks * 512
		}
	}
	return total
}

// hiddenMemory is the watchdog's count of what the bot holds beyond its
// processes' resident memory. Reading every descriptor of every process
// costs the launcher time a bot could inflate (128 processes of 256
// descriptors): the descriptors are read again only after ten times as
// long as the last reading took, so that the watchdog spends at most a
// tenth of a core on them; a typical bot's few descriptors are read
// every round.
func (l *launcher) hiddenMemory(pids []int) int64 {
	var n int64
	if l.ipcNS {
		n += sysvBytes()
	}
	if now := time.Now(); !now.Before(l.memfdNext) {
		l.memfd = memfdBytes(pids)
		l.memfdNext = now.Add(10 * time.Since(now))
	}
	return n + l.memfd
}
