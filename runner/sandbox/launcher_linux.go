package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"ringside/runner/internal/procfs"
)

// landlockABI is the newest Landlock ABI the launcher asks for: V6 adds
// scoped signals and abstract unix sockets to V4's TCP rules, V9
// connect(2) to pathname UNIX sockets (landlockResolveUnix; V7 and V8
// add nothing the launcher uses). Where the kernel has V9 the bot may
// connect to no socket it did not make itself: no rule grants
// LANDLOCK_ACCESS_FS_RESOLVE_UNIX.
const landlockABI = landlockResolveUnix

// systemRead are the system's runtime files every bot may read and
// execute: interpreters, libraries, the JDK, configuration, locales.
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
	"/nix/store", "/proc", "/sys"}

// devRead and devWrite are the device files a bot may use.
var (
	devRead  = []string{"/dev/urandom", "/dev/random"}
	devWrite = []string{"/dev/null", "/dev/zero", "/dev/full"}
)

// Main is the launcher: the Ringside binary run with LauncherArg as its
// first argument. It never returns.
func Main() {
	// Credentials, no_new_privs and the capability bounding set belong
	// to a thread; the bot is forked from this one.
	runtime.LockOSThread()
	if len(os.Args) > 2 && os.Args[2] == spawnerArg {
		os.Exit(serveSpawns())
	}
	os.Exit(launch())
}

type launcher struct {
	p      Policy
	status *os.File
	mu     sync.Mutex // guards status writes and limit
	limit  string
	bot    int // pid of the bot program
	pidNS  bool
	// kernelProcs is set where the kernel caps the bot's processes
	// itself (a pids cgroup, or RLIMIT_NPROC that binds): there the
	// watchdog does not count them.
	kernelProcs bool
	// ipcNS: the bot has an IPC namespace of its own, whose SysV
	// objects the watchdog counts (hiddenMemory).
	ipcNS bool
	// memfd is what the bot's memfd files held last time they were
	// read, memfdNext when to read them again.
	memfd     int64
	memfdNext time.Time
}

func (l *launcher) send(m message) {
	data, _ := json.Marshal(m)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.status.Write(append(data, '\n'))
}

func (l *launcher) fail(format string, args ...any) int {
	l.send(message{Error: fmt.Sprintf(format, args...)})
	return 127
}

func launch() int {
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	l := &launcher{status: os.NewFile(4, "status")}
	if l.status == nil {
		fmt.Fprintln(os.Stderr, "ringside: the sandbox launcher is started by Ringside only")
		return 2
	}
	broker, empty, err := l.receive()
	if err != nil {
		return l.fail("sandbox: %v", err)
	}
	if empty {
		return 0 // made ahead of time and not needed after all
	}
	p := &l.p

	f := Features{Pretended: p.NoLandlock}
	l.pidNS = p.Namespaces && os.Getpid() == 1
	l.ipcNS = p.Namespaces
	if p.Namespaces {
		// A mount namespace made with a new user namespace gets the
		// parent's shared mounts as slaves: what is mounted here never
		// propagates out, without a (slow) recursive remount.
		f.UserNS, f.PIDNS, f.MountNS, f.NetNS, f.IPCNS, f.UTSNS = true, l.pidNS, true, true, true, true
	}
	if f.MountNS {
		l.mountView(&f)
	}
	var gamePort *net.TCPListener
	if p.Forward {
		// Before Landlock, which forbids binding a port.
		if gamePort, err = listenGamePort(p, broker); err != nil {
			return l.fail("sandbox: %v", err)
		}
		f.Forward = true
	}
	if err := setLimits(p.Limits, f.UserNS); err != nil {
		return l.fail("sandbox: %v", err)
	}
	if p.Nice > 0 {
		// Inherited by the program and everything it starts.
		_ = unix.Setpriority(unix.PRIO_PROCESS, 0, p.Nice)
	}
	l.kernelProcs = pidsCapped(p.Cgroups) || (f.UserNS && nprocBinds())
	if !l.pidNS {
		// Orphans of the bot become ours, so that they can be found and
		// killed at the end; without a PID namespace nothing else would.
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	l.lockDown(&f)
	l.send(message{Features: &f})
	if p.Probe {
		return 0
	}
	return l.runBot(gamePort, broker)
}

// receive reads the policy and the bot's standard files from Ringside,
// makes those files the launcher's 0, 1 and 2, and returns the socket
// Cloud connections are handed to Ringside through (close-on-exec; −1
// for a bot without one). empty is set for a launcher made ahead of time
// and not needed after all.
func (l *launcher) receive() (broker int, empty bool, err error) {
	data, files, err := receivePolicy(3)
	if err != nil {
		return -1, false, fmt.Errorf("read the policy: %w", err)
	}
	if len(data) == 0 {
		return -1, true, nil
	}
	if len(files) != 3 && len(files) != 4 {
		return -1, false, fmt.Errorf("got %d files, want the 3 standard files and maybe a connection socket", len(files))
	}
	for i, fd := range files[:3] {
		if err := unix.Dup3(fd, i, 0); err != nil {
			return -1, false, fmt.Errorf("standard file %d: %w", i, err)
		}
		unix.Close(fd)
	}
	broker = -1
	if len(files) == 4 {
		broker = files[3]
	}
	if err := json.Unmarshal(data, &l.p); err != nil {
		return -1, false, fmt.Errorf("bad policy: %w", err)
	}
	return broker, false, nil
}

// mountView makes the bot's view of the files in its mount namespace: a
// private /proc (with a PID namespace), the private view (privateView) and
// the scratch folder's tmpfs. What the kernel refuses is a problem in f.
func (l *launcher) mountView(f *Features) {
	p := &l.p
	if l.pidNS {
		if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
			f.PrivateProc = true
		} else {
			f.Problems = append(f.Problems, "private /proc refused: "+err.Error())
		}
	}
	_, dirErr := os.Stat(p.Dir)
	if err := privateView(p); err == nil {
		f.PrivateTmp = true
		if _, err := os.Stat(p.Dir); dirErr == nil && err != nil {
			// A working folder the program may not list (Ringside's
			// own, for a bot without a folder): an empty one in the
			// mask, holding only what its command line names.
			_ = os.MkdirAll(p.Dir, 0o755)
		}
	} else {
		f.Problems = append(f.Problems, "no private /tmp: "+err.Error())
	}
	if p.Scratch != "" && p.Limits.Scratch > 0 {
		// Inside the private /tmp, the scratch folder is a mount point
		// to make.
		_ = os.MkdirAll(p.Scratch, 0o700)
		opts := fmt.Sprintf("size=%d,mode=0700", p.Limits.Scratch)
		if err := unix.Mount("tmpfs", p.Scratch, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err == nil {
			f.Tmpfs = true
		} else {
			f.Problems = append(f.Problems, "scratch tmpfs refused: "+err.Error())
		}
	}
}

// lockDown applies, on the thread the bot is forked from, Landlock,
// no_new_privs, an empty capability set and last the seccomp filter; what
// is in force goes into f, what the kernel refused into f.Problems.
func (l *launcher) lockDown(f *Features) {
	if !l.p.NoLandlock {
		abi, err := l.restrict()
		if err != nil {
			f.Problems = append(f.Problems, "Landlock: "+err.Error())
		}
		f.Landlock = abi
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err == nil {
		f.NoNewPrivs = true
	}
	// Root inside its user namespace, or root itself where namespaces
	// were refused: either way the bot gets no capability.
	f.DropCaps = dropCapabilities() == nil || os.Geteuid() != 0
	// Last, on the thread the bot is forked from: the launcher's own
	// calls up to here (mount, prctl) would be refused.
	if !f.NoNewPrivs {
		f.Problems = append(f.Problems, "no seccomp filter: no_new_privs refused")
	} else if err := installSeccomp(); err == nil {
		f.Seccomp = true
	} else {
		f.Problems = append(f.Problems, "no seccomp filter: "+err.Error())
	}
}

// runBot starts the bot, forwards its game port's connections (when
// gamePort is set) to broker, watches it and reaps everything until the
// bot's program exits, then kills what is left.
func (l *launcher) runBot(gamePort *net.TCPListener, broker int) int {
	p := &l.p
	// Signals from the bot (it shares our Landlock domain) must not end
	// the launcher through Go's default handling; Ringside kills it with
	// SIGKILL, which cannot be caught. These are the signals Go exits on
	// (os/signal); the others it ignores, and the kernel ignores default
	// signals to the init of a PID namespace. Caught signals are reset
	// in the bot by exec.
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGILL,
		syscall.SIGTRAP, syscall.SIGABRT, syscall.SIGSTKFLT, syscall.SIGSYS, syscall.SIGBUS, syscall.SIGFPE,
		syscall.SIGSEGV, syscall.SIGPIPE)
	go func() {
		for range sigs {
		}
	}()
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return l.fail("sandbox: open %s: %v", os.DevNull, err)
	}
	proc, err := os.StartProcess(p.Path, p.Args, &os.ProcAttr{
		Dir: p.Dir, Env: p.Env, Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return l.fail("cannot start %q: %v", p.Args[0], err)
	}
	l.bot = proc.Pid
	// Where the memory cgroup has to kill, the bot goes first: memory
	// held in detached shared memory or memfds is no process's, and the
	// kernel would otherwise pick the launcher, whose resident size is
	// bigger than a small bot's. Raising it needs no privilege; its
	// children inherit it.
	_ = os.WriteFile("/proc/"+strconv.Itoa(proc.Pid)+"/oom_score_adj", []byte("1000"), 0)
	// The bot's pipes are its own now: Ringside must see its output end
	// when the bot closes it, not when the launcher does.
	for fd := 0; fd <= 2; fd++ {
		_ = unix.Dup2(int(devnull.Fd()), fd)
	}
	devnull.Close()
	if gamePort != nil {
		go forward(gamePort, broker)
	}

	stopWatch := make(chan struct{})
	go l.watch(stopWatch)
	var ws syscall.WaitStatus
	for {
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid == l.bot {
			break
		}
	}
	close(stopWatch)
	l.killAll()
	exit, code := describeExit(ws)
	l.mu.Lock()
	limit := l.limit
	l.mu.Unlock()
	if limit == "" && ws.Signaled() {
		switch ws.Signal() {
		case syscall.SIGXCPU:
			limit = CPUNote(p.Limits)
		case syscall.SIGXFSZ:
			limit = FileSizeNote(p.Limits)
		case syscall.SIGKILL:
			var ru unix.Rusage
			if unix.Getrusage(unix.RUSAGE_CHILDREN, &ru) == nil && p.Limits.CPU > 0 &&
				time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= p.Limits.CPU {
				limit = CPUNote(p.Limits)
			}
		}
	}
	l.send(message{Exit: exit, Limit: limit})
	return code
}

// receivePolicy reads the policy from the control socket fd, and the
// bot's standard files that come with it, until Ringside closes it.
func receivePolicy(fd int) ([]byte, []int, error) {
	buf := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(4*4))
	// Close-on-exec: the standard files are dup'ed onto 0-2, and the
	// connection socket must not reach the bot.
	n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	files, err := receivedFDs(oob[:oobn])
	if err != nil {
		return nil, nil, err
	}
	data := append([]byte(nil), buf[:n]...)
	for n > 0 {
		n, err = unix.Read(fd, buf)
		if err != nil && err != unix.EINTR {
			return nil, nil, err
		}
		data = append(data, buf[:max(n, 0)]...)
	}
	unix.Close(fd)
	return data, files, nil
}

// listenGamePort brings up the loopback of the bot's network namespace
// and listens on 127.0.0.1 at the game's port there: the one place the
// bot can reach, and only through the launcher.
func listenGamePort(p *Policy, broker int) (*net.TCPListener, error) {
	if broker < 0 || !p.Namespaces || p.ConnectTCP <= 0 || p.ConnectTCP > 65535 {
		return nil, fmt.Errorf("connections to forward, but no connection socket, namespace or port")
	}
	if err := loopbackUp(); err != nil {
		return nil, fmt.Errorf("bring up the loopback of the bot's network namespace: %w", err)
	}
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p.ConnectTCP})
	if err != nil {
		return nil, fmt.Errorf("listen for the bot in its network namespace: %w", err)
	}
	return ln, nil
}

// loopbackUp sets the "lo" interface of this network namespace up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// forward hands every connection the bot makes to the game's port to
// Ringside, by the socket itself (SCM_RIGHTS), and keeps nothing of it:
// the bot's bytes go between its socket and Ringside without passing
// through the launcher. It ends when Ringside no longer takes them.
func forward(ln *net.TCPListener, broker int) {
	defer unix.Close(broker)
	defer ln.Close()
	for {
		c, err := ln.AcceptTCP()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			// Out of file descriptors, say: the bot may try again.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		raw, err := c.SyscallConn()
		sendErr := err
		if err == nil {
			err = raw.Control(func(fd uintptr) {
				sendErr = unix.Sendmsg(broker, []byte{0}, unix.UnixRights(int(fd)), nil, unix.MSG_NOSIGNAL)
			})
			if err != nil {
				sendErr = err
			}
		}
		c.Close()
		if sendErr != nil {
			return
		}
	}
}

func describeExit(ws syscall.WaitStatus) (string, int) {
	if ws.Signaled() {
		return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal()), 128 + int(ws.Signal())
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus()), ws.ExitStatus()
}

func setLimits(lim Limits, ownUserNS bool) error {
	set := func(name string, res int, soft, hard uint64) error {
		if err := unix.Setrlimit(res, &unix.Rlimit{Cur: soft, Max: hard}); err != nil {
			return fmt.Errorf("set %s to %d: %w", name, soft, err)
		}
		return nil
	}
	if err := set("RLIMIT_CORE", unix.RLIMIT_CORE, 0, 0); err != nil {
		return err
	}
	if lim.Memory > 0 {
		if err := set("RLIMIT_DATA", unix.RLIMIT_DATA, uint64(lim.Memory), uint64(lim.Memory)); err != nil {
			return err
		}
	}
	if lim.CPU > 0 {
		s := uint64((lim.CPU + time.Second - 1) / time.Second)
		// SIGXCPU at the cap, SIGKILL a second later for a bot that
		// catches it.
		if err := set("RLIMIT_CPU", unix.RLIMIT_CPU, s, s+1); err != nil {
			return err
		}
	}
	if lim.FileSize > 0 {
		if err := set("RLIMIT_FSIZE", unix.RLIMIT_FSIZE, uint64(lim.FileSize), uint64(lim.FileSize)); err != nil {
			return err
		}
	}
	if lim.OpenFiles > 0 {
		if err := set("RLIMIT_NOFILE", unix.RLIMIT_NOFILE, uint64(lim.OpenFiles), uint64(lim.OpenFiles)); err != nil {
			return err
		}
	}
	if lim.Processes > 0 && ownUserNS {
		// In the bot's own user namespace it counts this bot's processes
		// alone. Outside one it would count every process of the user
		// (other seats, Ringside, a desktop session's programs): a fork
		// bomb would stop the other seats from starting, and a busy
		// login could not start a bot at all. There the watchdog counts
		// the bot's processes instead.
		if err := set("RLIMIT_NPROC", unix.RLIMIT_NPROC, uint64(lim.Processes), uint64(lim.Processes)); err != nil {
			return err
		}
	}
	return nil
}

// restrict applies Landlock to the calling thread only, and returns the
// ABI in force. The bot is forked from this thread and inherits its
// domain; the launcher's other threads stay outside it, so that the
// watchdog may still kill the bot's processes (Landlock's signal scope
// would forbid that to a sibling domain — and go-landlock restricts all
// threads, each into a domain of its own, before ABI 8).
func (l *launcher) restrict() (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return 0, fmt.Errorf("not available in this kernel")
	}
	abi = min(abi, landlockABI)
	if l.p.LandlockMax > 0 {
		abi = min(abi, l.p.LandlockMax)
	}
	fsAll := handledFS(abi)
	attr := ll.RulesetAttr{HandledAccessFS: fsAll}
	if abi >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	if abi >= 6 {
		attr.Scoped = ll.ScopeAbstractUnixSocket | ll.ScopeSignal
	}
	if abi >= landlockResolveUnix {
		attr.HandledAccessFS |= ll.AccessFSResolveUnix
	}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil && abi >= landlockResolveUnix {
		// A kernel whose ABI number promised the socket right but that
		// refuses it: the private /tmp still hides the session's
		// sockets; the status says which ABI is in force.
		abi = landlockResolveUnix - 1
		attr.HandledAccessFS = fsAll
		fd, err = ll.LandlockCreateRuleset(&attr, 0)
	}
	if err != nil {
		return 0, fmt.Errorf("create ruleset: %w", err)
	}
	fsAll = attr.HandledAccessFS
	defer unix.Close(fd)

	const (
		read     = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
		fileOnly = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	)
	allow := func(path string, access uint64) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil // what does not exist needs no rule
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if unix.Fstat(pfd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			access &= fileOnly
		}
		rule := ll.PathBeneathAttr{AllowedAccess: access & fsAll, ParentFd: pfd}
		if err := ll.LandlockAddPathBeneathRule(fd, &rule, 0); err != nil {
			return fmt.Errorf("allow %s: %w", path, err)
		}
		return nil
	}
	p := &l.p
	if err := allowPaths(p, allow, read, fsAll); err != nil {
		return 0, err
	}
	if abi >= 4 && p.ConnectTCP > 0 && p.ConnectTCP < 65536 {
		rule := ll.NetPortAttr{AllowedAccess: ll.AccessNetConnectTCP, Port: uint64(p.ConnectTCP)}
		if err := ll.LandlockAddNetPortRule(fd, &rule, 0); err != nil {
			return 0, fmt.Errorf("allow TCP port %d: %w", p.ConnectTCP, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return 0, fmt.Errorf("restrict: %w", err)
	}
	return abi, nil
}

// handledFS is the filesystem access rights Landlock ABI abi governs,
// but for the socket right of ABI 9 (see restrict).
func handledFS(abi int) uint64 {
	fsAll := uint64(1<<13 - 1) // ABI 1: execute … make_sym
	if abi >= 2 {
		fsAll |= ll.AccessFSRefer
	}
	if abi >= 3 {
		fsAll |= ll.AccessFSTruncate
	}
	if abi >= 5 {
		fsAll |= ll.AccessFSIoctlDev
	}
	return fsAll
}

// allowPaths grants, through allow, reading the system's files, the read
// devices and the policy's Read paths, writing the write devices, and
// everything (fsAll) in the scratch folder and the policy's Write paths.
func allowPaths(p *Policy, allow func(path string, access uint64) error, read, fsAll uint64) error {
	for _, path := range append(append(append([]string(nil), systemRead...), devRead...), p.Read...) {
		if err := allow(path, read); err != nil {
			return err
		}
	}
	for _, path := range devWrite {
		if err := allow(path, read|ll.AccessFSWriteFile|ll.AccessFSTruncate); err != nil {
			return err
		}
	}
	for _, path := range append([]string{p.Scratch}, p.Write...) {
		if path == "" {
			continue
		}
		if err := allow(path, fsAll); err != nil {
			return err
		}
	}
	return nil
}

// dropCapabilities leaves the bot, root in its user namespace, without
// any capability there: none in the bounding set, and exec grants none
// to root.
func dropCapabilities() error {
	last := 40
	if n, err := strconv.Atoi(trimmed("/proc/sys/kernel/cap_last_cap")); err == nil {
		last = n
	}
	const (
		secNoRoot             = 1 << 0
		secNoRootLocked       = 1 << 1
		secNoSetuidFixup      = 1 << 2
		secNoSetuidFixupLock  = 1 << 3
		secKeepCapsLocked     = 1 << 5
		secNoAmbientRaise     = 1 << 6
		secNoAmbientRaiseLock = 1 << 7
	)
	bits := secNoRoot | secNoRootLocked | secNoSetuidFixup | secNoSetuidFixupLock | secKeepCapsLocked |
		secNoAmbientRaise | secNoAmbientRaiseLock
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0); err != nil {
		return err
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// watch is the watchdog: every WatchEvery it counts the bot's processes
// (threads included), their resident memory and CPU time, and ends the
// bot when one is over its cap. It is what binds where no cgroup is
// writable and RLIMIT_NPROC does not apply (root, or no user namespace
// of its own). Where the kernel caps processes, the watchdog leaves them
// to it: its count reads each process at a different moment, and a
// fork bomb held at the cap, whose children die and are replaced, can
// add up to a few more than ever ran at once (129 to 132 of 128, seen
// on a busy machine), which would end a bot the kernel had stopped.
func (l *launcher) watch(stop <-chan struct{}) {
	lim := l.p.Limits
	every := lim.WatchEvery
	if every <= 0 {
		every = 20 * time.Millisecond
	}
	page := int64(os.Getpagesize())
	const tick = 100 // USER_HZ, the unit of /proc/PID/stat times on Linux
	groups := findGroupFiles(l.p.Cgroups)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		var tasks int
		var rss, cpu int64
		pids := l.descendants()
		for _, pid := range pids {
			st, ok := readStat(pid)
			if !ok {
				continue
			}
			tasks += st.threads
			rss += st.rss * page
			cpu += (st.utime + st.stime) * int64(time.Second/tick)
		}
		var ru unix.Rusage
		if unix.Getrusage(unix.RUSAGE_CHILDREN, &ru) == nil {
			cpu += ru.Utime.Nano() + ru.Stime.Nano()
		}
		var over string
		oom, _ := groups.events()
		switch {
		case lim.Memory > 0 && (rss+l.hiddenMemory(pids) > lim.Memory || groups.memory() > lim.Memory || oom):
			over = MemoryNote(lim)
		case lim.Processes > 0 && !l.kernelProcs && tasks > lim.Processes:
			over = ProcessesNote(lim)
		case lim.CPU > 0 && time.Duration(cpu) > lim.CPU:
			over = CPUNote(lim)
		}
		if over != "" {
			l.mu.Lock()
			l.limit = over
			l.mu.Unlock()
			l.killAll()
			return
		}
	}
}

// pidsCapped reports whether one of the bot's cgroups caps its
// processes.
func pidsCapped(dirs []string) bool {
	for _, d := range dirs {
		if _, err := strconv.Atoi(trimmed(filepath.Join(d, "pids.max"))); err == nil {
			return true
		}
	}
	return false
}

// nprocBinds reports whether RLIMIT_NPROC binds in this user namespace:
// the kernel ignores it for root's own user, so it binds only where the
// namespace's root is someone else outside.
func nprocBinds() bool {
	f := strings.Fields(trimmed("/proc/self/uid_map"))
	if len(f) < 3 || f[0] != "0" {
		return false
	}
	outside, err := strconv.Atoi(f[1])
	return err == nil && outside != 0
}

// descendants lists the bot's processes: everything else in the PID
// namespace, or without one, the launcher's descendants.
func (l *launcher) descendants() []int {
	if l.pidNS {
		names, err := procfs.List("/proc")
		if err != nil {
			return nil
		}
		var pids []int
		for _, name := range names {
			if pid, err := strconv.Atoi(name); err == nil && pid != 1 {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	var pids []int
	queue := []int{os.Getpid()}
	for len(queue) > 0 && len(pids) < 100000 {
		pid := queue[0]
		queue = queue[1:]
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, t := range tasks {
			for _, c := range strings.Fields(trimmed(t)) {
				if n, err := strconv.Atoi(c); err == nil {
					pids = append(pids, n)
					queue = append(queue, n)
				}
			}
		}
	}
	return pids
}

// killAll ends every process of the bot. In a PID namespace, kill(-1)
// from its init reaches exactly the namespace; without one, each
// descendant is killed through a pidfd, over and over, since killing a
// parent hands its orphans to the launcher (a child subreaper).
func (l *launcher) killAll() {
	if l.pidNS {
		_ = syscall.Kill(-1, syscall.SIGKILL)
		return
	}
	for round := 0; round < 100; round++ {
		pids := l.descendants()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			killPid(pid)
		}
		// Reap what is ours, so that it disappears from the list.
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		time.Sleep(time.Millisecond)
	}
}

type procStat struct {
	threads           int
	utime, stime, rss int64
}

// readStat reads the fields the watchdog needs from /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	data, err := procfs.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(data))
}

// parseStat reads a /proc/PID/stat line. The command name in parentheses
// may hold spaces and parentheses itself: the fields start after the
// last ')'.
func parseStat(s string) (procStat, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	// Fields after the command: state is field 3; utime 14, stime 15,
	// num_threads 20, rss 24.
	f := strings.Fields(s[i+1:])
	if len(f) < 22 {
		return procStat{}, false
	}
	n := func(field int) int64 {
		v, _ := strconv.ParseInt(f[field-3], 10, 64)
		return v
	}
	return procStat{threads: int(n(20)), utime: n(14), stime: n(15), rss: n(24)}, true
}
