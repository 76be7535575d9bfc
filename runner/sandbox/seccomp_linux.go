package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter refuses, with EPERM, what no bot needs and what
// would reach beyond its seat: nested namespaces (unshare, setns, clone
// with a CLONE_NEW* flag), typing into a terminal (ioctl TIOCSTI,
// TIOCLINUX), ptrace and reading other processes' memory, the kernel's
// keyrings, bpf, perf_event_open, every mount call, userfaultfd, kexec,
// modules, reboot, swap, acct, and inotify and fanotify (inotify
// instances count per user across user namespaces: a bot that takes them
// all starves the teacher's editors and `ringside watch`). clone3 gets
// ENOSYS, so that glibc falls back to clone, whose flags a classic BPF
// filter can read (clone3's are behind a pointer). A program of another
// architecture than the launcher's (32-bit code on x86_64, x32) is
// refused every call: its syscall numbers differ.
//
// deniedSyscalls, syscallArch and the numbers below are per architecture
// (seccomp_linux_*.go); where they are not known, no filter is
// installed and the status says so.

// cloneNewFlags are the CLONE_NEW* flags of clone(2): NEWNS, NEWCGROUP,
// NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (NEWTIME exists for clone3 and
// unshare only).
const cloneNewFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// seccomp_data offsets: nr, arch, then the arguments (their low 32
// bits first: both architectures are little-endian).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
)

// bpfProg is a classic BPF program with forward jumps to labels.
type bpfProg struct {
	insns  []unix.SockFilter
	labels map[string]int
	jumps  []bpfJump
}

type bpfJump struct {
	at     int
	jt, jf string // labels; "" falls through
}

func (b *bpfProg) stmt(code uint16, k uint32) {
	b.insns = append(b.insns, unix.SockFilter{Code: code, K: k})
}

func (b *bpfProg) jump(code uint16, k uint32, jt, jf string) {
	b.jumps = append(b.jumps, bpfJump{at: len(b.insns), jt: jt, jf: jf})
	b.insns = append(b.insns, unix.SockFilter{Code: code, K: k})
}

func (b *bpfProg) label(name string) { b.labels[name] = len(b.insns) }

// resolve sets the jump offsets; every jump goes forward, less than 256
// instructions.
func (b *bpfProg) resolve() error {
	for _, j := range b.jumps {
		for _, t := range []struct {
			label string
			field *uint8
		}{{j.jt, &b.insns[j.at].Jt}, {j.jf, &b.insns[j.at].Jf}} {
			if t.label == "" {
				continue
			}
			to, ok := b.labels[t.label]
			off := to - j.at - 1
			if !ok || off < 0 || off > 255 {
				return fmt.Errorf("seccomp: bad jump to %q", t.label)
			}
			*t.field = uint8(off)
		}
	}
	return nil
}

const (
	ldAbs  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jge    = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	jset   = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	retK   = unix.BPF_RET | unix.BPF_K
	tiocLX = 0x541C // TIOCLINUX
)

// seccompFilter builds the filter for this architecture.
func seccompFilter() ([]unix.SockFilter, error) {
	if syscallArch == 0 {
		return nil, fmt.Errorf("no list of system calls to refuse for %s", runtime.GOARCH)
	}
	b := &bpfProg{labels: map[string]int{}}
	b.stmt(ldAbs, offArch)
	b.jump(jeq, syscallArch, "", "deny")
	b.stmt(ldAbs, offNr)
	if x32Bit != 0 {
		// x32 calls are the same numbers with this bit set.
		b.jump(jge, x32Bit, "deny", "")
	}
	for _, nr := range deniedSyscalls {
		b.jump(jeq, uint32(nr), "deny", "")
	}
	b.jump(jeq, unix.SYS_CLONE3, "enosys", "")
	b.jump(jeq, unix.SYS_CLONE, "clone", "")
	b.jump(jeq, unix.SYS_IOCTL, "ioctl", "")
	b.stmt(retK, unix.SECCOMP_RET_ALLOW)
	b.label("clone")
	b.stmt(ldAbs, offArg0)
	b.jump(jset, cloneNewFlags, "deny", "")
	b.stmt(retK, unix.SECCOMP_RET_ALLOW)
	b.label("ioctl")
	b.stmt(ldAbs, offArg1)
	b.jump(jeq, unix.TIOCSTI, "deny", "")
	b.jump(jeq, tiocLX, "deny", "")
	b.stmt(retK, unix.SECCOMP_RET_ALLOW)
	b.label("enosys")
	b.stmt(retK, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	b.label("deny")
	b.stmt(retK, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	if err := b.resolve(); err != nil {
		return nil, err
	}
	return b.insns, nil
}

// installSeccomp applies the filter to the calling thread (the one the
// bot is forked from) and so to the bot; no_new_privs must be set.
func installSeccomp() error {
	insns, err := seccompFilter()
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(insns)), Filter: &insns[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return fmt.Errorf("install the seccomp filter: %w", err)
	}
	return nil
}
