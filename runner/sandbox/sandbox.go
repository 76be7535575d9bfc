// Package sandbox runs one bot program with what Linux offers to contain
// it without root: the Ringside binary re-executes itself as a launcher in
// new user, PID, mount and network namespaces (a Cloud bot's network
// namespace has a loopback on which the launcher takes the bot's
// connections and hands them to Ringside; nothing else is reachable
// there); the launcher mounts a private /proc and a size-capped
// scratch folder, sets rlimits, joins the bot to pids and memory cgroups
// where they are writable, applies Landlock (files, TCP ports, signals and
// abstract sockets) and no_new_privs, and starts the bot with a short
// allow-listed environment. As PID 1 of its namespace the launcher takes
// everything the bot started with it when it ends, and it dies with
// Ringside (parent-death signal).
//
// Whatever the kernel refuses is skipped and reported (Features,
// Describe), never silently assumed.
package sandbox

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

// landlockResolveUnix is the Landlock ABI that governs connect(2) to a
// pathname UNIX socket (LANDLOCK_ACCESS_FS_RESOLVE_UNIX).
const landlockResolveUnix = 9

// LauncherArg is the hidden first argument that makes the Ringside binary
// (or a test binary) the launcher. main checks it before anything else.
const LauncherArg = "__ringside-sandbox-launcher"

// WaitText says how a process ended, as a verdict note does: "exit
// status 3", "killed by signal 9 (killed)".
func WaitText(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus())
}

// Limits are the caps of one bot program. A zero field is no cap.
type Limits struct {
	// Memory bounds the memory a bot's processes may use: each
	// process's private writable memory (RLIMIT_DATA, which unlike
	// RLIMIT_AS does not count the address space the JVM and Go reserve
	// without using it), their resident total (the launcher's watchdog)
	// and, where a memory cgroup is writable, the cgroup's limit.
	Memory int64
	// Processes bounds processes and threads together (pids cgroup where
	// writable, RLIMIT_NPROC in the user namespace, the watchdog's count).
	Processes int
	// CPU is the CPU time all of a bot's processes may use in one game.
	CPU time.Duration
	// FileSize bounds one file written (RLIMIT_FSIZE), Scratch the
	// whole scratch folder (the size of its tmpfs).
	FileSize int64
	Scratch  int64
	// OpenFiles bounds open file descriptors per process (RLIMIT_NOFILE).
	OpenFiles int
	// WatchEvery is how often the launcher's watchdog counts processes,
	// memory and CPU time.
	WatchEvery time.Duration
}

// Policy is everything the launcher needs to start one bot. The parent
// writes it to the launcher through a pipe, so nothing in it (tokens in
// the environment) appears on a command line or in the launcher's
// environment.
type Policy struct {
	Path string   // the program, absolute
	Args []string // argv, Args[0] included
	Dir  string   // working directory
	Env  []string // the complete environment of the bot

	Scratch string   // private read-write folder; HOME and TMPDIR
	Read    []string // extra paths the bot may read (its revision folder, its program)
	// Write are paths the program may read and write besides its
	// scratch folder: a build's own folder and its per-AI cache. A bot
	// gets none.
	Write []string
	// Nice is added to the program's scheduling niceness (builds run
	// at a lower priority than the games being played).
	Nice int
	// Hide are folders of the teacher's session to replace by empty
	// private mounts besides /tmp, /var/tmp, /run, /dev/shm and
	// /dev/pts: the home folder, the runtime folder (XDG_RUNTIME_DIR),
	// the folder of ssh-agent's socket. The launcher has no environment
	// of its own, so the parent names them. What the program may see
	// (Path, Read, Write, Scratch, and Dir when it is in Read) is bound
	// back at the same place.
	Hide []string
	// ConnectTCP is the only TCP port the bot may connect to (a Cloud
	// game's own port); 0 means no TCP at all. In its own network
	// namespace the bot reaches 127.0.0.1:ConnectTCP of that namespace,
	// where the launcher accepts and hands each connection to Ringside
	// (Launch.Accept); without namespaces it connects to Ringside on the
	// host's loopback, and Landlock allows that port alone.
	ConnectTCP int
	// Forward tells the launcher that a fourth file came with the
	// policy: the socket on which it hands Ringside the connections it
	// accepts on 127.0.0.1:ConnectTCP (set by Launch, not by callers).
	Forward bool
	Limits  Limits

	// NoLandlock pretends the kernel has no Landlock, so that the
	// degraded path can be tested on a kernel that has it.
	NoLandlock bool
	// LandlockMax, when set, pretends the kernel offers no newer
	// Landlock ABI than this (an old kernel's: below 3, truncate is not
	// governed), to test what such a kernel leaves open.
	LandlockMax int
	// Namespaces tells the launcher it was started in new namespaces.
	Namespaces bool
	// Cgroups are the bot's own cgroup folders (set by the parent, which
	// created them); the watchdog ends the bot when the memory cgroup
	// had to kill one of its processes.
	Cgroups []string
	// Probe makes the launcher set everything up, report what it got
	// and exit without starting a program.
	Probe bool
}

// Features is what the launcher actually obtained.
type Features struct {
	UserNS  bool `json:"userns,omitempty"`
	PIDNS   bool `json:"pidns,omitempty"`
	MountNS bool `json:"mountns,omitempty"`
	NetNS   bool `json:"netns,omitempty"`
	IPCNS   bool `json:"ipcns,omitempty"` // SysV IPC and POSIX message queues of its own
	UTSNS   bool `json:"utsns,omitempty"`
	// PrivateTmp: /tmp, /var/tmp, /run, /dev/shm, /dev/pts and the
	// teacher's home and runtime folders are empty private mounts, so no
	// socket of the teacher's session is there to connect to.
	PrivateTmp bool `json:"privtmp,omitempty"`
	// Seccomp: the filter refusing what no bot needs (nested
	// namespaces, TIOCSTI, ptrace, keyrings, bpf, mount, inotify…).
	Seccomp     bool     `json:"seccomp,omitempty"`
	Forward     bool     `json:"forward,omitempty"` // a Cloud bot's connections reach Ringside through the launcher
	PrivateProc bool     `json:"proc,omitempty"`
	Tmpfs       bool     `json:"tmpfs,omitempty"`    // the scratch folder is a size-capped tmpfs
	Landlock    int      `json:"landlock,omitempty"` // Landlock ABI in force, 0: none
	NoNewPrivs  bool     `json:"nnp,omitempty"`
	DropCaps    bool     `json:"dropcaps,omitempty"`
	PidsCgroup  bool     `json:"pidscg,omitempty"`
	MemCgroup   bool     `json:"memcg,omitempty"`
	Pretended   bool     `json:"pretended,omitempty"` // Landlock pretended absent
	Problems    []string `json:"problems,omitempty"`
}

// Level is how much of the sandbox is in force.
type Level int

const (
	Off Level = iota
	Partial
	Full
)

func (l Level) String() string {
	return [...]string{"off", "partial", "on"}[l]
}

// Describe says in plain words what the features protect and what not.
// The first line is the summary shown in the app and at the top of an
// event's log.
func Describe(f Features) (Level, string) {
	missing, have := missingRules(f), inForce(f)
	level := Full
	if len(missing) > 0 {
		level = Partial
	}
	var b strings.Builder
	if level == Full {
		fmt.Fprintf(&b, "Sandbox: on — %s", strings.Join(have, ", "))
	} else {
		fmt.Fprintf(&b, "Sandbox: partial — this machine %s", missing[0])
		for _, m := range missing[1:] {
			fmt.Fprintf(&b, "\n  also: %s", m)
		}
		fmt.Fprintf(&b, "\n  in force: %s", strings.Join(have, ", "))
	}
	for _, p := range f.Problems {
		fmt.Fprintf(&b, "\n  note: %s", p)
	}
	return level, b.String()
}

// missingRules are the rules the features cannot enforce, in words.
func missingRules(f Features) []string {
	var missing []string
	if f.Landlock == 0 {
		missing = append(missing, "cannot stop bots from reading your files and writing to your home folder (no Landlock"+
			map[bool]string{true: ", pretended absent", false: " in this kernel"}[f.Pretended]+")")
	} else if f.Landlock < 3 {
		// ABI 1 and 2 do not govern truncate(2): a file the bot may
		// not write can still be emptied (the database, say).
		missing = append(missing, fmt.Sprintf("cannot stop bots from emptying your files: truncate is not governed (Landlock ABI %d < 3)", f.Landlock))
	}
	if f.Landlock > 0 && f.Landlock < 6 && !f.PIDNS {
		missing = append(missing, fmt.Sprintf("cannot stop bots from signalling your programs (Landlock ABI %d < 6)", f.Landlock))
	}
	if !f.PIDNS || !f.PrivateProc {
		missing = append(missing, "bots can see other programs' command lines (no private process namespace)")
	}
	if !f.NetNS {
		// Landlock has rules for TCP only: without a network namespace
		// of their own, bots share this machine's network for the rest.
		if f.Landlock < 4 {
			missing = append(missing, "cannot keep bots off the network: they can open TCP connections and send UDP packets anywhere (no network namespace, no Landlock TCP rules)")
		} else {
			missing = append(missing, "cannot keep bots off the network: they can send UDP packets anywhere, to programs on this machine too (no network namespace; Landlock does not cover UDP)")
		}
	}
	if !f.PrivateTmp && f.Landlock < landlockResolveUnix {
		missing = append(missing, "bots can connect to your desktop session's sockets (X server, ssh-agent, D-Bus) in /tmp, /run and your home folder (no private /tmp)")
	}
	if !f.IPCNS {
		missing = append(missing, "bots can share memory and message queues with other programs, and keep memory there that their cap does not count (no IPC namespace)")
	}
	if !f.Seccomp {
		missing = append(missing, "cannot refuse bots system calls no bot needs: nested namespaces, typing into your terminal (TIOCSTI), ptrace, keyrings, bpf, mount, inotify (no seccomp filter)")
	}
	return missing
}

// inForce names the mechanisms the features have.
func inForce(f Features) []string {
	var have []string
	if f.Landlock > 0 {
		have = append(have, fmt.Sprintf("Landlock ABI %d", f.Landlock))
	}
	var ns []string
	for _, n := range []struct {
		ok   bool
		name string
	}{{f.UserNS, "user"}, {f.PIDNS, "process"}, {f.MountNS, "mount"}, {f.NetNS, "network"}, {f.IPCNS, "IPC"}, {f.UTSNS, "UTS"}} {
		if n.ok {
			ns = append(ns, n.name)
		}
	}
	if len(ns) > 0 {
		have = append(have, strings.Join(ns, "/")+" namespaces")
	}
	if f.PrivateTmp {
		have = append(have, "private /tmp")
	}
	if f.Seccomp {
		have = append(have, "seccomp")
	}
	if f.PidsCgroup || f.MemCgroup {
		have = append(have, "cgroups")
	}
	if f.NoNewPrivs {
		have = append(have, "no_new_privs")
	}
	have = append(have, "rlimits")
	return have
}

// Size writes a byte count as a person would: 1 GiB, 64 MiB, 512 KiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// MemoryNote and the others are the verdict notes of a cap that was hit.
func MemoryNote(l Limits) string    { return "memory limit " + Size(l.Memory) }
func ProcessesNote(l Limits) string { return fmt.Sprintf("process limit %d", l.Processes) }
func CPUNote(l Limits) string       { return fmt.Sprintf("CPU time limit %v", l.CPU) }
func FileSizeNote(l Limits) string  { return "file size limit " + Size(l.FileSize) }

// outOfMemoryMarks are what runtimes print when an allocation fails under
// RLIMIT_DATA: Go, Python, the JVM, C++ and glibc.
var outOfMemoryMarks = []string{
	"runtime: out of memory", "fatal error: out of memory", "MemoryError", "OutOfMemoryError",
	"std::bad_alloc", "Cannot allocate memory", "cannot allocate memory", "Native memory allocation",
}

// LooksOutOfMemory reports whether a crashed bot's stderr shows an
// allocation that failed; under the sandbox that is its memory cap.
func LooksOutOfMemory(stderr string) bool {
	for _, m := range outOfMemoryMarks {
		if strings.Contains(stderr, m) {
			return true
		}
	}
	return false
}

// TeacherAdvice is what a teacher can do where bots are not fully
// contained, said wherever the sandbox is named as off or partial.
const TeacherAdvice = "trust only code you have read, or run the event on a Linux machine or in a Linux VM"

// NoSandboxStatus is the status line of a system without the Linux
// sandbox (goos, not Linux). Windows is partial: the Job Object every bot
// runs in ends its processes with the game and caps their memory, CPU
// time, CPU rate and number (runner/process_windows.go), and nothing
// more; elsewhere nothing contains bots at all. It takes goos so every
// system's words are tested on Linux.
func NoSandboxStatus(goos string) string {
	if goos == "windows" {
		return "Sandbox: partial — Windows: each bot runs in a Job Object that ends its processes with its game and caps their memory, CPU time and number, but there are no file or network walls: bots run with your rights and can read and change your files and use the network; " + TeacherAdvice
	}
	return "Sandbox: off — this system is not Linux: bots run with your full rights, files and environment; " + TeacherAdvice
}
