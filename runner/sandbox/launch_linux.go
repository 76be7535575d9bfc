package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// namespacesRefused is set once the kernel refused to start a launcher in
// new namespaces (a distribution that forbids unprivileged user
// namespaces); later launches do not try again.
var namespacesRefused atomic.Bool

// refusedWhy is the kernel's answer, for the status text.
var refusedWhy atomic.Value

// message is one line of the launcher's status pipe.
type message struct {
	Features *Features `json:"features,omitempty"`
	Exit     string    `json:"exit,omitempty"`  // how the bot ended: "exit status 3"
	Limit    string    `json:"limit,omitempty"` // the cap it hit, if one
	Error    string    `json:"error,omitempty"` // the launcher could not start the bot
}

// Launch is one sandboxed start of a bot program.
type Launch struct {
	Cmd    *exec.Cmd
	exe    string
	policy Policy

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

// Start starts the launcher with the given standard files; the bot
// inherits them. Namespaces the kernel refuses are dropped (and the
// refusal reported) rather than failing the bot.
func (l *Launch) Start(stdin, stdout, stderr *os.File) error {
	ns := !namespacesRefused.Load()
	err := l.start(stdin, stdout, stderr, ns)
	if err != nil && ns && !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) {
		if err2 := l.start(stdin, stdout, stderr, false); err2 == nil {
			namespacesRefused.Store(true)
			refusedWhy.Store(err.Error())
			return nil
		}
	}
	return err
}

func (l *Launch) start(stdin, stdout, stderr *os.File, namespaces bool) error {
	policyR, policyW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox policy pipe: %w", err)
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		closeFiles(policyR, policyW)
		return fmt.Errorf("sandbox status pipe: %w", err)
	}
	cmd := exec.Command(l.exe, LauncherArg)
	// The launcher needs no environment; the bot's is in the policy.
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.ExtraFiles = []*os.File{policyR, statusW}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS
		if !l.policy.Network {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		// Root in the namespace (so the launcher may mount its /proc
		// and scratch tmpfs) is the teacher's own user outside it; the
		// launcher drops every capability before the bot starts.
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		closeFiles(policyR, policyW, statusR, statusW)
		return err
	}
	closeFiles(policyR, statusW)
	l.Cmd = cmd
	l.status = statusR
	p := l.policy
	p.Namespaces = namespaces
	// Join the cgroups before the launcher reads its policy: until then
	// it cannot have started anything that would escape them.
	l.cgroups, l.features.PidsCgroup, l.features.MemCgroup = joinCgroups(cmd.Process.Pid, p.Limits)
	p.Cgroups = l.cgroups
	data, err := json.Marshal(p)
	if err == nil {
		_, err = policyW.Write(data)
	}
	policyW.Close()
	if err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("send the sandbox policy: %w", err)
	}
	go l.readStatus()
	return nil
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

// Finish is called once the launcher has been reaped: it collects what
// the launcher reported and what the cgroups counted, and removes the
// cgroups and the scratch folder.
func (l *Launch) Finish() Result {
	select {
	case <-l.statusOK:
	case <-time.After(time.Second):
		// Only the launcher holds the status pipe; this is a safety net.
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
func Probe(exe string, noLandlock bool) Features {
	key := exe + "|" + strconv.FormatBool(noLandlock)
	if f, ok := probes.Load(key); ok {
		return f.(Features)
	}
	f := probe(exe, noLandlock)
	probes.Store(key, f)
	return f
}

func probe(exe string, noLandlock bool) Features {
	scratch, err := os.MkdirTemp("", "ringside-probe-")
	if err != nil {
		return Features{Problems: []string{"cannot make a scratch folder: " + err.Error()}}
	}
	l := NewLaunch(exe, Policy{Scratch: scratch, Probe: true, NoLandlock: noLandlock,
		Limits: Limits{Memory: 64 << 20, Processes: 64, Scratch: 1 << 20}})
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return Features{Problems: []string{err.Error()}}
	}
	defer devnull.Close()
	if err := l.Start(devnull, devnull, devnull); err != nil {
		os.RemoveAll(scratch)
		return Features{Problems: []string{"cannot start the sandbox launcher: " + err.Error()}}
	}
	_ = l.Cmd.Wait()
	r := l.Finish()
	if r.Failure != "" {
		r.Features.Problems = append(r.Features.Problems, r.Failure)
	}
	return r.Features
}

// Status is the plain-words status of the sandbox on this machine, as
// bots started through exe get it.
func Status(exe string, noLandlock bool) (Level, string) {
	return Describe(Probe(exe, noLandlock))
}

// trimmed is a helper for reading small kernel files.
func trimmed(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
