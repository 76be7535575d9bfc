package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Cgroups are used where Ringside may create them (root, or a delegated
// cgroup v2 subtree). Each bot gets its own group under Ringside's own,
// named ringside-<Ringside's pid>-<n>, so that groups left by a Ringside
// that was killed can be recognised and removed.

var cgroupSeq atomic.Int64
var sweepOnce sync.Once

var (
	basesOnce sync.Once
	bases     map[string]string
)

// cgroupBase returns the folder of Ringside's own cgroup for controller,
// or "" when there is none.
func cgroupBase(controller string) string {
	basesOnce.Do(func() {
		bases = map[string]string{}
		for _, c := range cgroupControllers {
			bases[c] = findCgroupBase(c)
		}
	})
	return bases[controller]
}

func findCgroupBase(controller string) string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			// cgroup v2: usable only where the controller is delegated
			// to our group's children.
			if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err != nil {
				continue
			}
			base := filepath.Join("/sys/fs/cgroup", parts[2])
			if strings.Contains(" "+trimmed(filepath.Join(base, "cgroup.subtree_control"))+" ", " "+controller+" ") {
				return base
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == controller {
				return filepath.Join("/sys/fs/cgroup", controller, parts[2])
			}
		}
	}
	return ""
}

// cgroupControllers are the controllers a bot gets a group of: pids and
// memory for its caps, cpu so that every seat weighs the same on a busy
// machine whatever number of processes it runs (a bot with 16 busy
// processes gets one seat's share, not 16 of 17).
var cgroupControllers = []string{"pids", "memory", "cpu"}

// cgroupSet is a bot's own cgroups.
type cgroupSet struct {
	// Folders, "" where there is none (one folder for all on cgroup v2).
	pids, memory, cpu string
}

// dirs lists the set's folders, each once.
func (c cgroupSet) dirs() []string {
	var out []string
	for _, d := range []string{c.pids, c.memory, c.cpu} {
		if d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// joinCgroups puts pid into new pids and memory cgroups, where Ringside
// may make them. Moving a process between cgroups waits for the kernel
// (an RCU grace period, milliseconds): it is done while the launcher
// waits for a bot, not when the bot starts.
func joinCgroups(pid int) cgroupSet {
	sweepOnce.Do(func() { go sweepCgroups() })
	var set cgroupSet
	name := fmt.Sprintf("ringside-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	join := func(controller string) string {
		base := cgroupBase(controller)
		if base == "" {
			return ""
		}
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			if os.IsExist(err) {
				return dir // cgroup v2: the group of both controllers
			}
			return ""
		}
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			os.Remove(dir)
			return ""
		}
		return dir
	}
	set.pids = join("pids")
	set.memory = join("memory")
	// A new group has the default weight (cpu.shares 1024 on v1,
	// cpu.weight 100 on v2), the same as every other seat's: nothing to
	// write.
	set.cpu = join("cpu")
	return set
}

// limit sets l's caps on the groups and tells which are in force.
func (c cgroupSet) limit(l Limits) (pids, mem bool) {
	write := func(dir, file, value string) bool {
		return dir != "" && os.WriteFile(filepath.Join(dir, file), []byte(value), 0) == nil
	}
	procs := "max"
	if l.Processes > 0 {
		procs = strconv.Itoa(l.Processes)
	}
	pids = write(c.pids, "pids.max", procs) && l.Processes > 0
	// The watchdog ends a bot whose resident memory passes the cap; the
	// cgroup is the backstop an eighth above it. At its limit the kernel
	// first reclaims the programs' own code pages, and a bot can thrash
	// there for many seconds before it is killed.
	hard := "-1"
	if l.Memory > 0 {
		hard = strconv.FormatInt(l.Memory+l.Memory/8, 10)
	}
	if strings.HasPrefix(c.memory, "/sys/fs/cgroup/memory/") {
		mem = write(c.memory, "memory.limit_in_bytes", hard)
	} else {
		if hard == "-1" {
			hard = "max"
		}
		mem = write(c.memory, "memory.max", hard) && write(c.memory, "memory.swap.max", "0")
	}
	return pids, mem && l.Memory > 0
}

// groupFiles are the files of a bot's cgroups the watchdog reads, found
// once: a group's controller files do not come and go, and looking for
// the missing ones (a v1 memory group has no memory.events, a pids group
// no memory file) every round was half of those rounds' reads.
type groupFiles struct {
	oom, pids, usage []string
}

func findGroupFiles(dirs []string) groupFiles {
	var g groupFiles
	keep := func(list *[]string, dir string, names ...string) {
		for _, n := range names {
			if p := filepath.Join(dir, n); exists(p) {
				*list = append(*list, p)
			}
		}
	}
	for _, d := range dirs {
		keep(&g.oom, d, "memory.oom_control", "memory.events")
		keep(&g.pids, d, "pids.events")
		keep(&g.usage, d, "memory.usage_in_bytes", "memory.current")
	}
	return g
}

func exists(path string) bool {
	var st unix.Stat_t
	return unix.Stat(path, &st) == nil
}

// cgroupEvents tells whether the memory cap killed a process and whether
// a fork failed at the process cap.
func cgroupEvents(dirs []string) (oom, pidsMax bool) {
	return findGroupFiles(dirs).events()
}

func (g groupFiles) events() (oom, pidsMax bool) {
	counted := func(files []string, key string) bool {
		for _, file := range files {
			for _, l := range strings.Split(trimmed(file), "\n") {
				if f := strings.Fields(l); len(f) == 2 && f[0] == key && f[1] != "0" {
					return true
				}
			}
		}
		return false
	}
	return counted(g.oom, "oom_kill"), counted(g.pids, "max")
}

// memory is the memory the groups account for (their processes' memory,
// their tmpfs files, their page cache), 0 without a memory group.
func (g groupFiles) memory() int64 {
	var most int64
	for _, file := range g.usage {
		if n, err := strconv.ParseInt(trimmed(file), 10, 64); err == nil {
			most = max(most, n)
		}
	}
	return most
}

// removeCgroups removes the groups once their processes are gone (in the
// background: the kernel takes a moment to release a namespace's last
// processes, and a memory cgroup a moment more).
func removeCgroups(dirs []string) {
	if len(dirs) > 0 {
		go removeCgroupsNow(dirs)
	}
}

func removeCgroupsNow(dirs []string) {
	for _, d := range dirs {
		for i := 0; i < 50; i++ {
			err := os.Remove(d)
			if err == nil || os.IsNotExist(err) || !isBusy(err) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

func isBusy(err error) bool {
	pe, ok := err.(*os.PathError)
	return ok && pe.Err == syscall.EBUSY
}

// sweepCgroups removes groups of Ringside processes that no longer run
// (killed before they could clean up): an empty group costs little, but
// a league a day for a term would leave thousands.
func sweepCgroups() {
	for _, controller := range cgroupControllers {
		base := cgroupBase(controller)
		if base == "" {
			continue
		}
		for _, dir := range Orphans(base, "ringside-") {
			// Processes still in it (from a Ringside killed so hard
			// that its launchers' parent-death signal did not reach
			// them) are killed first.
			for _, f := range strings.Fields(trimmed(filepath.Join(dir, "cgroup.procs"))) {
				if p, err := strconv.Atoi(f); err == nil {
					killPid(p)
				}
			}
			removeCgroupsNow([]string{dir})
		}
	}
}

// killPid kills a process through a pidfd: once the pidfd is open it
// names that process and no other, even if the number is reused.
func killPid(pid int) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
}
