package runner

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"ringside/runner/internal/procfs"
)

// rewalkEvery is how often schedReader walks a bot's processes and
// threads again where a turn starts; a thread started since is counted
// from its start when the turn is judged (which walks afresh).
const rewalkEvery = 100 * time.Millisecond

// schedReader reads the scheduler's account of a bot's threads cheaply
// enough for every turn of a fast game: each thread's schedstat file is
// kept open and read again in place (one system call a thread, on a
// plain descriptor: procfs), and the tree of processes and threads (a
// directory and two files a thread) is walked again only every
// rewalkEvery. An open file names its thread for
// good: a thread that ends fails to read and is dropped, never confused
// with a later one given its number.
type schedReader struct {
	mu     sync.Mutex
	walked time.Time
	files  map[int]int  // open schedstat descriptors, by thread id
	own    map[int]bool // the threads of the root process itself
	closed bool
	buf    [128]byte
}

// read returns each thread's account, by thread id, of the process root
// and its descendants (64 processes at most), without root's own threads
// if onlyBelow. fresh walks the tree first whatever the time since the
// last walk: where a turn is judged, a thread started a moment ago must
// count.
func (r *schedReader) read(root int, fresh, onlyBelow bool) map[int]schedStat {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return map[int]schedStat{}
	}
	if fresh || r.files == nil || time.Since(r.walked) >= rewalkEvery {
		r.walk(root)
	}
	stats := make(map[int]schedStat, len(r.files))
	for tid, fd := range r.files {
		if onlyBelow && r.own[tid] {
			continue
		}
		n, err := procfs.ReadAt(fd, r.buf[:])
		if n <= 0 || err != nil {
			unix.Close(fd)
			delete(r.files, tid)
			continue
		}
		// Time on a CPU and time waiting for one, in ns.
		if run, wait, ok := parseSchedstat(r.buf[:n]); ok {
			stats[tid] = schedStat{run: run, wait: wait}
		}
	}
	return stats
}

// walk opens the schedstat file of every thread of root and its
// descendants not open yet, and closes those of threads gone.
func (r *schedReader) walk(root int) {
	r.walked = time.Now()
	if r.files == nil {
		r.files = map[int]int{}
	}
	seen := map[int]bool{}
	r.own = map[int]bool{}
	pids := []int{root}
	for n := 0; len(pids) > 0 && n < 64; n++ {
		pid := pids[0]
		pids = pids[1:]
		tasks, _ := procfs.List(fmt.Sprintf("/proc/%d/task", pid))
		for _, task := range tasks {
			tid, err := strconv.Atoi(task)
			if err != nil {
				continue
			}
			dir := fmt.Sprintf("/proc/%d/task/%d/", pid, tid)
			if _, ok := r.files[tid]; !ok {
				if fd, err := procfs.Open(dir + "schedstat"); err == nil {
					r.files[tid] = fd
				}
			}
			seen[tid] = true
			r.own[tid] = pid == root
			if b, err := procfs.ReadFile(dir + "children"); err == nil {
				for _, c := range strings.Fields(string(b)) {
					if child, err := strconv.Atoi(c); err == nil {
						pids = append(pids, child)
					}
				}
			}
		}
	}
	for tid, fd := range r.files {
		if !seen[tid] {
			unix.Close(fd)
			delete(r.files, tid)
		}
	}
}

// close closes the files; later reads find no thread.
func (r *schedReader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, fd := range r.files {
		unix.Close(fd)
	}
	r.files, r.closed = nil, true
}

// parseSchedstat reads the first two numbers of a schedstat file.
func parseSchedstat(b []byte) (run, wait time.Duration, ok bool) {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0, false
	}
	r, err1 := strconv.ParseInt(f[0], 10, 64)
	w, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return time.Duration(r), time.Duration(w), true
}
