package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"ringside/runner/internal/procfs"
)

// Supported tells whether this system has the sandbox; elsewhere bots
// run trusted and Status says so.
const Supported = true

// namespacesRefused is set once the kernel refused to start a launcher in
// new namespaces (a distribution that forbids unprivileged user
// namespaces); later launches do not try again.
var namespacesRefused atomic.Bool

// refusedWhy is the kernel's answer, for the status text.
var refusedWhy atomic.Value

// PretendNamespacesRefused makes launchers start as on a kernel that
// refuses unprivileged namespaces (on), or back to trying them (off), so
// that this degraded path can be tested.
func PretendNamespacesRefused(on bool) {
	if on {
		refusedWhy.Store("pretended for a test")
	}
	namespacesRefused.Store(on)
}

// message is one line of the launcher's status pipe.
type message struct {
	Features *Features `json:"features,omitempty"`
	Exit     string    `json:"exit,omitempty"`  // how the bot ended: "exit status 3"
	Limit    string    `json:"limit,omitempty"` // the cap it hit, if one
	Error    string    `json:"error,omitempty"` // the launcher could not start the bot
}

// Launch is one sandboxed start of a bot program.
type Launch struct {
	// Accept, set before Start, takes the connections a Cloud bot in
	// its own network namespace makes to 127.0.0.1:ConnectTCP there.
	// Each one comes through this seat's launcher alone, so it is the
	// seat's own. It is called from one goroutine, in order, and must
	// not block.
	Accept func(net.Conn)
	exe    string
	policy Policy
	proc   *launcherProc // once started

	broker     *net.UnixConn // our end of the socket the launcher hands connections through
	brokerDone chan struct{} // closed when the broker reader has ended

	status      *os.File
	statusOK    chan struct{} // closed when the status pipe has ended
	reported    chan struct{} // closed when the features arrived (or never will)
	repOnce     sync.Once
	mu          sync.Mutex
	features    Features
	gotFeatures bool
	exit        string
	limit       string
	failure     string
	cgroups     []string
}

// Result is how a sandboxed bot ended, as the launcher saw it.
type Result struct {
	Features Features
	// Exit says how the bot program itself ended ("exit status 3",
	// "killed by signal 9 (killed)"); "" when the launcher was killed
	// first (the game stopped it).
	Exit string
	// Limit is the cap it hit, as a verdict note ("memory limit 1 GiB").
	Limit string
	// Failure is why the launcher could not start the program.
	Failure string
	// ProcessCapReached tells that a fork failed at the process cap.
	ProcessCapReached bool
}

// NewLaunch prepares the start of p's program through the launcher exe
// (the Ringside binary, or a test binary that dispatches LauncherArg).
func NewLaunch(exe string, p Policy) *Launch {
	return &Launch{exe: exe, policy: p, statusOK: make(chan struct{}), reported: make(chan struct{})}
}

// Pid is the launcher's process number, and its process group's.
func (l *Launch) Pid() int { return l.proc.pid }

// Wait waits until the launcher has ended and been reaped (its process
// group killed before) and says how it ended ("exit status 3", "killed
// by signal 9 (killed)", or that the spawner ended first, which ended
// it). It may be called more than once.
func (l *Launch) Wait() string {
	ws, err := l.proc.wait()
	if err != nil {
		return err.Error()
	}
	return WaitText(ws)
}

// Kill ends the launcher, and with it everything in its namespaces; it
// never reaches a process that took the launcher's number later.
func (l *Launch) Kill() { l.proc.kill() }

// Start hands the bot to a launcher with the given standard files; the
// bot inherits them. Namespaces the kernel refuses are dropped (and the
// refusal reported) rather than failing the bot.
func (l *Launch) Start(stdin, stdout, stderr *os.File) error {
	for try := 0; ; try++ {
		w, err := takeWarm(l.exe, try > 0)
		if err != nil {
			return err
		}
		err = l.give(w, stdin, stdout, stderr)
		if err == nil || try > 0 {
			return err
		}
		// A launcher made ahead of time may have died meanwhile (it
		// was killed, or Ringside's thread that made it ended): once
		// more with a fresh one.
	}
}

// give sends the policy and the bot's standard files to a waiting
// launcher.
func (l *Launch) give(w *warm, stdin, stdout, stderr *os.File) error {
	l.proc = w.proc
	l.status = w.status
	p := l.policy
	p.Namespaces = w.namespaces
	// The launcher joined its cgroups before it could read a policy: it
	// cannot have started anything that escapes them.
	l.cgroups = w.cgroups.dirs()
	l.features.PidsCgroup, l.features.MemCgroup = w.cgroups.limit(p.Limits)
	p.Cgroups = l.cgroups
	fds := []int{int(stdin.Fd()), int(stdout.Fd()), int(stderr.Fd())}
	var theirs *os.File
	var err error
	if p.ConnectTCP > 0 && w.namespaces && l.Accept != nil {
		// The bot's network namespace has nothing but its loopback:
		// the launcher takes its connections there and hands them over.
		var ours *net.UnixConn
		if ours, theirs, err = brokerPair(); err != nil {
			w.discard()
			return err
		}
		l.broker, l.brokerDone = ours, make(chan struct{})
		fds = append(fds, int(theirs.Fd()))
		p.Forward = true
	}
	data, err := json.Marshal(p)
	if err == nil {
		var n int
		n, err = unix.SendmsgN(int(w.ctl.Fd()), data, unix.UnixRights(fds...), nil, 0)
		if err == nil && n < len(data) {
			_, err = w.ctl.Write(data[n:])
		}
	}
	w.ctl.Close()
	if theirs != nil {
		theirs.Close()
	}
	if l.broker != nil {
		if err != nil {
			l.broker.Close()
			l.broker = nil
		} else {
			go l.takeConnections()
		}
	}
	if err != nil {
		w.proc.kill()
		_, _ = w.proc.wait()
		w.status.Close()
		removeCgroups(l.cgroups)
		return fmt.Errorf("hand the bot to the sandbox launcher: %w", err)
	}
	go l.readStatus()
	return nil
}

// brokerPair makes the socket pair a launcher hands connections through:
// ours to read them from, theirs to give the launcher.
func brokerPair() (*net.UnixConn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox connection socket: %w", err)
	}
	f := os.NewFile(uintptr(fds[0]), "sandbox connections")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("sandbox connection socket: %w", err)
	}
	return c.(*net.UnixConn), os.NewFile(uintptr(fds[1]), "sandbox connections"), nil
}

// takeConnections receives the connections the launcher accepted for the
// bot, one socket per message, until the launcher is gone (or Finish).
func (l *Launch) takeConnections() {
	defer close(l.brokerDone)
	buf := make([]byte, 16)
	oob := make([]byte, unix.CmsgSpace(4*4))
	for {
		_, oobn, _, _, err := l.broker.ReadMsgUnix(buf, oob)
		if err != nil {
			return
		}
		fds, _ := receivedFDs(oob[:oobn])
		for _, fd := range fds {
			f := os.NewFile(uintptr(fd), "bot connection")
			nc, err := net.FileConn(f)
			f.Close()
			if err == nil {
				l.Accept(nc)
			}
		}
	}
}

// receivedFDs returns the file descriptors that came with a message, as
// SCM_RIGHTS control messages.
func receivedFDs(oob []byte) ([]int, error) {
	if len(oob) == 0 {
		return nil, nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var all []int
	for _, m := range msgs {
		if fds, err := unix.ParseUnixRights(&m); err == nil {
			all = append(all, fds...)
		}
	}
	return all, nil
}

// warm is a launcher started ahead of time, waiting for its policy:
// making the namespaces (a network namespace above all) and starting the
// launcher's runtime take milliseconds that a game's start should not
// wait for.
type warm struct {
	proc       *launcherProc
	ctl        *os.File // the socket the policy and the bot's files go through
	status     *os.File // read end of its status pipe
	namespaces bool
	cgroups    cgroupSet
}

// Waiting launchers are kept per executable (the Ringside binary, or a
// test binary).
var (
	warmMu   sync.Mutex
	warmPool = map[string]chan *warm{}
)

// warmKept is how many launchers may wait per kind: one per seat of the
// biggest game, so that all its bots start warm. A waiting launcher
// holds its namespaces and about 25 MB (most of it the binary's pages,
// shared), so they are ended after warmIdle without a bot start.
const (
	warmKept = 4
	warmIdle = 30 * time.Second
)

// idleTimers end the waiting launchers of an executable warmIdle after
// the last take (one timer each, reset by every take).
var idleTimers = map[string]*time.Timer{}

// poolOf returns the channel of waiting launchers for key.
func poolOf(key string) chan *warm {
	warmMu.Lock()
	defer warmMu.Unlock()
	ch, ok := warmPool[key]
	if !ok {
		ch = make(chan *warm, warmKept)
		warmPool[key] = ch
	}
	return ch
}

// Prewarm makes sure a launcher waits for the next bot started through
// exe (an event calls it before its first game; benchmarks between
// starts). It returns once one waits.
func Prewarm(exe string) {
	ch := poolOf(exe)
	if len(ch) > 0 {
		return
	}
	refill(exe, ch)
}

// refill starts a launcher for exe and leaves it waiting in ch; when ch
// is full (another start filled it meanwhile) the new one is ended.
func refill(exe string, ch chan *warm) {
	w, err := spawnLauncher(exe)
	if err != nil {
		return
	}
	select {
	case ch <- w:
	default:
		w.discard()
	}
}

// DropWarm ends the launchers waiting for exe, so that the next start is
// a cold one (benchmarks).
func DropWarm(exe string) {
	ch := poolOf(exe)
	for {
		select {
		case w := <-ch:
			w.discard()
		default:
			return
		}
	}
}

// takeWarm returns a waiting launcher (a new one when none waits, or
// when fresh is set) and starts making the next.
func takeWarm(exe string, fresh bool) (*warm, error) {
	key := exe
	ch := poolOf(key)
	warmMu.Lock()
	if tm, ok := idleTimers[key]; ok {
		tm.Reset(warmIdle)
	} else {
		idleTimers[key] = time.AfterFunc(warmIdle, func() { DropWarm(exe) })
	}
	warmMu.Unlock()
	var w *warm
	if !fresh {
		select {
		case w = <-ch:
		default:
		}
	}
	if w != nil && (w.namespaces == namespacesRefused.Load() || w.proc.hasEnded()) {
		// Made before the kernel refused namespaces, or by a spawner
		// that has ended since (and its launchers with it).
		w.discard()
		w = nil
	}
	if w == nil {
		var err error
		if w, err = spawnLauncher(exe); err != nil {
			return nil, err
		}
	}
	go refill(exe, ch)
	return w, nil
}

// discard ends a launcher that was never used: without a policy it
// exits.
func (w *warm) discard() {
	w.ctl.Close()
	w.status.Close()
	go func() {
		_, _ = w.proc.wait()
		removeCgroups(w.cgroups.dirs())
	}()
}

// spawnLauncher starts a launcher in new namespaces, or without them
// where the kernel refuses them.
func spawnLauncher(exe string) (*warm, error) {
	ns := !namespacesRefused.Load()
	w, err := spawn(exe, ns)
	if errors.Is(err, errSpawnerEnded) {
		// Killed under us: once more, with a new spawner.
		w, err = spawn(exe, ns)
	}
	if err != nil && ns && !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, errSpawnerEnded) {
		if w2, err2 := spawn(exe, false); err2 == nil {
			namespacesRefused.Store(true)
			refusedWhy.Store(err.Error())
			return w2, nil
		}
	}
	return w, err
}

func spawn(exe string, namespaces bool) (*warm, error) {
	sp, err := spawnerFor(exe)
	if err != nil {
		return nil, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox control socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "sandbox control"), os.NewFile(uintptr(fds[1]), "sandbox control")
	statusR, statusW, err := os.Pipe()
	if err != nil {
		closeFiles(ours, theirs)
		return nil, fmt.Errorf("sandbox status pipe: %w", err)
	}
	proc, err := sp.spawn(namespaces, theirs, statusW)
	closeFiles(theirs, statusW)
	if err != nil {
		closeFiles(ours, statusR)
		return nil, err
	}
	return &warm{proc: proc, ctl: ours, status: statusR, namespaces: namespaces, cgroups: joinCgroups(proc.pid)}, nil
}

func (l *Launch) readStatus() {
	defer close(l.statusOK)
	defer l.repOnce.Do(func() { close(l.reported) })
	defer l.status.Close()
	sc := bufio.NewScanner(l.status)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		l.mu.Lock()
		if m.Features != nil {
			pids, mem := l.features.PidsCgroup, l.features.MemCgroup
			l.features = *m.Features
			l.features.PidsCgroup, l.features.MemCgroup = pids, mem
			l.gotFeatures = true
			l.repOnce.Do(func() { close(l.reported) })
		}
		if m.Exit != "" {
			l.exit, l.limit = m.Exit, m.Limit
		}
		if m.Error != "" {
			l.failure = m.Error
		}
		l.mu.Unlock()
	}
}

// Features waits up to wait for the launcher to report what it put in
// force (it does so before it starts the bot) and returns it; ok is
// false when no report came.
func (l *Launch) Features(wait time.Duration) (f Features, ok bool) {
	select {
	case <-l.reported:
	case <-time.After(wait):
		return Features{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.features, l.gotFeatures
}

// statusWait bounds how long Finish waits for the reader of a reaped
// launcher's status pipe, which a machine under heavy load may keep from
// running for a while.
const statusWait = 30 * time.Second

// Finish is called once the launcher has been reaped: it collects what
// the launcher reported and what the cgroups counted, and removes the
// cgroups and the scratch folder.
func (l *Launch) Finish() Result {
	select {
	case <-l.statusOK:
	case <-time.After(statusWait):
		// Only the launcher holds the status pipe (close-on-exec: its
		// program does not), and it is gone: its end has been read to
		// the end as soon as our reader ran. This is a safety net.
		l.status.Close()
	}
	l.mu.Lock()
	r := Result{Features: l.features, Exit: l.exit, Limit: l.limit, Failure: l.failure}
	l.mu.Unlock()
	if why, ok := refusedWhy.Load().(string); ok && namespacesRefused.Load() {
		r.Features.Problems = append(r.Features.Problems, "the kernel refused new namespaces: "+why)
	}
	oom, pidsMax := cgroupEvents(l.cgroups)
	if r.Limit == "" && oom {
		r.Limit = MemoryNote(l.policy.Limits)
	}
	r.ProcessCapReached = pidsMax
	if l.broker != nil {
		// The launcher is gone; what it handed over is the runner's.
		l.broker.Close()
		<-l.brokerDone
	}
	removeCgroups(l.cgroups)
	if l.policy.Scratch != "" {
		os.RemoveAll(l.policy.Scratch)
	}
	return r
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

var probes sync.Map // key: exe + options → Features

// Probe starts the launcher once, without a program, and returns what it
// could put in force on this machine (cached per executable and option).
// A probe whose launcher reported nothing (it could not start, or was
// killed) is tried again and never cached: on a machine too busy for
// the launcher the status must not say for the rest of the run that the
// kernel has no Landlock.
func Probe(exe string, noLandlock bool) Features {
	// Bots started once the kernel refused namespaces get less: their
	// status is probed apart.
	key := exe + "|" + strconv.FormatBool(noLandlock) + "|" + strconv.FormatBool(namespacesRefused.Load())
	if f, ok := probes.Load(key); ok {
		return f.(Features)
	}
	var f Features
	for try := 0; try < 3; try++ {
		var reported bool
		if f, reported = probe(exe, noLandlock); reported {
			probes.Store(key, f)
			return f
		}
	}
	f.Problems = append(f.Problems, "the sandbox launcher did not say what it put in force (3 tries)")
	return f
}

// probe starts one launcher without a program and returns what it put
// in force, and whether it said so.
func probe(exe string, noLandlock bool) (Features, bool) {
	scratch, err := os.MkdirTemp("", "ringside-probe-")
	if err != nil {
		return Features{Problems: []string{"cannot make a scratch folder: " + err.Error()}}, false
	}
	l := NewLaunch(exe, Policy{Scratch: scratch, Probe: true, NoLandlock: noLandlock,
		Limits: Limits{Memory: 64 << 20, Processes: 64, Scratch: 1 << 20}})
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return Features{Problems: []string{err.Error()}}, false
	}
	defer devnull.Close()
	if err := l.Start(devnull, devnull, devnull); err != nil {
		os.RemoveAll(scratch)
		return Features{Problems: []string{"cannot start the sandbox launcher: " + err.Error()}}, false
	}
	l.Wait()
	r := l.Finish()
	if r.Failure != "" {
		r.Features.Problems = append(r.Features.Problems, r.Failure)
	}
	l.mu.Lock()
	reported := l.gotFeatures
	l.mu.Unlock()
	return r.Features, reported
}

// Status is the plain-words status of the sandbox on this machine, as
// bots started through exe get it.
func Status(exe string, noLandlock bool) (Level, string) {
	return Describe(Probe(exe, noLandlock))
}

// trimmed is a helper for reading small kernel files.
func trimmed(path string) string {
	b, err := procfs.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
