package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Launchers are started by a spawner: a small resident process, the same
// executable run as LauncherArg spawnerArg. A process cloned into a new
// user namespace cannot share its parent's memory until it execs (Go
// then forks instead of vforking), so the kernel copies the parent's
// page tables for every launcher and tears the copy down again at exec:
// measured from a process with a heap of 200 MB, 10 ms of CPU a bot (28
// ms under the race detector) against 0.2 ms for a plain start. The
// spawner's few megabytes cost a fraction of a millisecond. It is
// Ringside's own child, with nothing of a bot's: it reads requests only
// from the socket Ringside made for it. Being the launchers' parent, it
// alone knows when one is reaped, so it signals them too: never a
// process that took a reaped one's number.
const spawnerArg = "spawner"

// spawnRequest asks the spawner for a launcher (its control socket and
// status pipe come with it, SCM_RIGHTS), or, with Kill, to end the
// launcher of that id if it has not been reaped.
type spawnRequest struct {
	Namespaces bool   `json:"namespaces,omitempty"`
	Kill       uint64 `json:"kill,omitempty"`
}

// spawnMessage is what the spawner sends: the answer to a request for a
// launcher (its ID and Pid, or Error with the system's Errno), or that
// the launcher of id Exited (its wait Status), reaped, its group killed
// before. Launchers are named by ids, never reused, rather than by
// process numbers, which are.
type spawnMessage struct {
	ID     uint64 `json:"id,omitempty"`
	Pid    int    `json:"pid,omitempty"`
	Error  string `json:"error,omitempty"`
	Errno  int    `json:"errno,omitempty"`
	Exited uint64 `json:"exited,omitempty"`
	Status uint32 `json:"status,omitempty"`
}

// maxSpawnMessage bounds a spawner's message: its error texts are cut to
// fit.
const maxSpawnMessage = 4096

// errSpawnerEnded is a request's failure when the spawner ended first:
// the next request starts another; it says nothing of the kernel.
var errSpawnerEnded = errors.New("the sandbox spawner ended")

// spawnError is the spawner's failure to start a launcher.
type spawnError struct {
	text  string
	errno syscall.Errno
}

func (e *spawnError) Error() string { return e.text }
func (e *spawnError) Unwrap() error {
	if e.errno == 0 {
		return nil
	}
	return e.errno
}

// serveSpawns is the spawner's main loop: fd 3 is its socket to Ringside.
// It ends when Ringside closes the socket (or dies: then SIGKILL, its
// Pdeathsig); the launchers it started die with this thread.
func serveSpawns() int {
	// The launchers' Pdeathsig belongs to the thread that started them.
	runtime.LockOSThread()
	syscall.CloseOnExec(3)
	exe := os.Args[0]
	var sendMu sync.Mutex
	send := func(m spawnMessage) {
		if len(m.Error) > maxSpawnMessage/2 {
			m.Error = m.Error[:maxSpawnMessage/2] + "…"
		}
		data, _ := json.Marshal(m)
		sendMu.Lock()
		defer sendMu.Unlock()
		if unix.Sendmsg(3, data, nil, nil, 0) != nil {
			// Ringside would wait for this answer or end forever:
			// ending here tells it, and ends the launchers with us.
			os.Exit(1)
		}
	}
	// live are the launchers not yet reaped, by id; a kill reaches only
	// them. Held from a launcher's start to its answer, and from its
	// reaping to the report of its end, so that both messages of one
	// launcher come before a later one's with the same number.
	var liveMu sync.Mutex
	live := map[uint64]int{}
	var lastID uint64
	buf := make([]byte, 512)
	oob := make([]byte, unix.CmsgSpace(2*4))
	for {
		n, oobn, _, _, err := unix.Recvmsg(3, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return 0
		}
		var fds []*os.File
		received, _ := receivedFDs(oob[:oobn])
		for _, fd := range received {
			fds = append(fds, os.NewFile(uintptr(fd), "sandbox launcher file"))
		}
		var req spawnRequest
		err = json.Unmarshal(buf[:n], &req)
		if err == nil && req.Kill > 0 {
			closeFiles(fds...)
			liveMu.Lock()
			if pid, ok := live[req.Kill]; ok {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			liveMu.Unlock()
			continue
		}
		if err != nil || len(fds) != 2 {
			closeFiles(fds...)
			send(spawnMessage{Error: "sandbox spawner: a request without its control socket and status pipe"})
			continue
		}
		liveMu.Lock()
		cmd, err := startLauncher(exe, req.Namespaces, fds[0], fds[1])
		closeFiles(fds...)
		if err != nil {
			liveMu.Unlock()
			var errno syscall.Errno
			errors.As(err, &errno)
			send(spawnMessage{Error: err.Error(), Errno: int(errno)})
			continue
		}
		lastID++
		id, pid := lastID, cmd.Process.Pid
		live[id] = pid
		send(spawnMessage{ID: id, Pid: pid})
		liveMu.Unlock()
		go func() {
			// Its process group is killed while the leader is a zombie,
			// whose number nobody else can have yet: where the kernel
			// refused namespaces, what the bot started is there.
			var info unix.Siginfo
			for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
			}
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			liveMu.Lock()
			defer liveMu.Unlock()
			delete(live, id)
			_ = cmd.Wait()
			var status uint32
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
				status = uint32(ws)
			}
			send(spawnMessage{Exited: id, Status: status})
		}()
	}
}

// startLauncher starts exe as a launcher with its control socket and
// status pipe, in new namespaces or without them.
func startLauncher(exe string, namespaces bool, ctl, status *os.File) (*exec.Cmd, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer devnull.Close()
	cmd := exec.Command(exe, LauncherArg)
	// The launcher needs no environment; the bot's is in the policy.
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	cmd.ExtraFiles = []*os.File{ctl, status}
	// A session of its own (and so a process group whose number is the
	// launcher's pid): no controlling terminal, so neither /dev/tty nor
	// TIOCSTI reaches the teacher's terminal, even where Landlock is
	// missing.
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		// Every bot gets a network namespace of its own: an empty one
		// for stdio games, one with just a loopback for Cloud over TCP.
		// Its own IPC namespace: SysV shared memory, semaphores and
		// message queues (and POSIX ones) are its seat's alone and die
		// with it.
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET |
			syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		// Root in the namespace (so the launcher may mount its /proc
		// and scratch tmpfs) is the teacher's own user outside it; the
		// launcher drops every capability before the bot starts.
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd, nil
}

// launcherProc is a launcher the spawner started.
type launcherProc struct {
	id   uint64
	pid  int
	sp   *spawner
	done chan struct{} // closed once the spawner reaped it

	mu     sync.Mutex
	status syscall.WaitStatus
	err    error // set when the spawner ended first
}

// wait waits for the launcher to be reaped and returns how it ended.
func (p *launcherProc) wait() (syscall.WaitStatus, error) {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status, p.err
}

// hasEnded tells whether the launcher is known to have ended.
func (p *launcherProc) hasEnded() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill has the spawner send SIGKILL to the launcher unless it has been
// reaped: never to a process that took its number later. It does not
// wait; wait tells when the launcher is gone.
func (p *launcherProc) kill() {
	if !p.hasEnded() {
		_ = p.sp.send(spawnRequest{Kill: p.id})
	}
}

// ended records how the launcher ended and wakes its waiters.
func (p *launcherProc) ended(ws syscall.WaitStatus, err error) {
	p.mu.Lock()
	p.status, p.err = ws, err
	p.mu.Unlock()
	close(p.done)
}

// spawner is Ringside's end of a running spawner.
type spawner struct {
	cmd  *exec.Cmd
	sock *os.File // nil once closed
	fd   int      // sock's number (Fd once: it makes the file blocking)
	// sockMu is held (read) while a request is sent and (write) while
	// the socket is closed, so that no request goes to a number reused.
	sockMu sync.RWMutex
	// reqMu keeps one request for a launcher under way: the spawner
	// answers in order.
	reqMu   sync.Mutex
	answers chan spawnAnswer
	gone    chan struct{} // closed when the spawner has ended

	mu    sync.Mutex
	procs map[uint64]*launcherProc
}

type spawnAnswer struct {
	proc *launcherProc
	err  error
}

var (
	spawnersMu sync.Mutex
	spawners   = map[string]*spawner{}
	// spawnerThread starts the spawners: its goroutine stays locked to
	// one thread for the life of Ringside, so that a spawner's Pdeathsig
	// fires when Ringside dies and never because the Go runtime ended
	// the thread that happened to start it.
	spawnerThread     = make(chan func())
	spawnerThreadOnce sync.Once
)

// Spawners lists the process numbers of this process's running
// spawners, which live as long as it does (tests that look for
// processes left behind spare them).
func Spawners() []int {
	spawnersMu.Lock()
	defer spawnersMu.Unlock()
	var pids []int
	for _, s := range spawners {
		select {
		case <-s.gone:
		default:
			pids = append(pids, s.cmd.Process.Pid)
		}
	}
	return pids
}

// spawnerFor returns the running spawner for exe, starting one when
// there is none (or the last one ended).
func spawnerFor(exe string) (*spawner, error) {
	spawnersMu.Lock()
	defer spawnersMu.Unlock()
	if s, ok := spawners[exe]; ok {
		select {
		case <-s.gone:
		default:
			return s, nil
		}
	}
	s, err := startSpawner(exe)
	if err != nil {
		return nil, err
	}
	spawners[exe] = s
	return s, nil
}

func startSpawner(exe string) (*spawner, error) {
	path, err := exec.LookPath(exe)
	if err != nil {
		return nil, err
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox spawner socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "sandbox spawner"), os.NewFile(uintptr(fds[1]), "sandbox spawner")
	defer theirs.Close()
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		ours.Close()
		return nil, err
	}
	defer devnull.Close()
	cmd := exec.Command(path, LauncherArg, spawnerArg)
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	spawnerThreadOnce.Do(func() {
		go func() {
			runtime.LockOSThread()
			for f := range spawnerThread {
				f()
			}
		}()
	})
	started := make(chan error)
	spawnerThread <- func() { started <- cmd.Start() }
	if err := <-started; err != nil {
		ours.Close()
		return nil, err
	}
	s := &spawner{cmd: cmd, sock: ours, fd: int(ours.Fd()), answers: make(chan spawnAnswer, 1), gone: make(chan struct{}),
		procs: map[uint64]*launcherProc{}}
	go s.read()
	return s, nil
}

// read takes the spawner's messages until it ends; then every launcher
// it started has ended with it (their Pdeathsig).
func (s *spawner) read() {
	buf := make([]byte, maxSpawnMessage)
	fd := s.fd
	for {
		// No room for control messages: the spawner sends no files
		// (any would be closed by the kernel).
		n, _, flags, _, err := unix.Recvmsg(fd, buf, nil, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			break
		}
		var m spawnMessage
		if flags&unix.MSG_TRUNC != 0 || json.Unmarshal(buf[:n], &m) != nil {
			// An answer or an end lost would leave a wait forever: a
			// spawner that says what cannot be read is ended, and its
			// launchers with it.
			_ = s.cmd.Process.Kill()
			break
		}
		switch {
		case m.Exited > 0:
			s.mu.Lock()
			p := s.procs[m.Exited]
			delete(s.procs, m.Exited)
			s.mu.Unlock()
			if p != nil {
				p.ended(syscall.WaitStatus(m.Status), nil)
			}
		case m.ID > 0:
			p := &launcherProc{id: m.ID, pid: m.Pid, sp: s, done: make(chan struct{})}
			// Registered before the answer is handed over: the report
			// of its end may be the very next message.
			s.mu.Lock()
			s.procs[m.ID] = p
			s.mu.Unlock()
			s.answers <- spawnAnswer{proc: p}
		default:
			why := m.Error
			if why == "" {
				why = "the sandbox spawner gave no launcher"
			}
			s.answers <- spawnAnswer{err: &spawnError{text: why, errno: syscall.Errno(m.Errno)}}
		}
	}
	// Gone first: whoever wakes below and asks for a launcher must get
	// a new spawner, not this one's closed socket.
	close(s.gone)
	s.sockMu.Lock()
	s.sock.Close()
	s.sock = nil
	s.sockMu.Unlock()
	s.mu.Lock()
	left := s.procs
	s.procs = nil
	s.mu.Unlock()
	for _, p := range left {
		p.ended(syscall.WaitStatus(syscall.SIGKILL), errSpawnerEnded)
	}
	_ = s.cmd.Wait()
}

// send sends a request, with files to hand over.
func (s *spawner) send(req spawnRequest, files ...*os.File) error {
	data, _ := json.Marshal(req)
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = unix.UnixRights(fds...)
	}
	s.sockMu.RLock()
	defer s.sockMu.RUnlock()
	if s.sock == nil {
		return errSpawnerEnded
	}
	if err := unix.Sendmsg(s.fd, data, oob, nil, 0); err != nil {
		return fmt.Errorf("sandbox spawner: %w", err)
	}
	return nil
}

// spawn starts a launcher with the given control socket and status pipe
// (the launcher's fds 3 and 4).
func (s *spawner) spawn(namespaces bool, ctl, status *os.File) (*launcherProc, error) {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	if err := s.send(spawnRequest{Namespaces: namespaces}, ctl, status); err != nil {
		return nil, err
	}
	select {
	case a := <-s.answers:
		return a.proc, a.err
	case <-s.gone:
		return nil, errSpawnerEnded
	}
}
