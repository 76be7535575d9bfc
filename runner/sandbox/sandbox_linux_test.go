package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringside/runner/runnertest"
)

func TestDescribe(t *testing.T) {
	full := Features{UserNS: true, PIDNS: true, MountNS: true, NetNS: true, IPCNS: true, UTSNS: true, PrivateProc: true,
		PrivateTmp: true, Seccomp: true, Landlock: 6, NoNewPrivs: true}
	old := full
	old.Landlock = 2
	noSeccomp := full
	noSeccomp.Seccomp, noSeccomp.Problems = false, []string{"no seccomp filter: no list of system calls to refuse for riscv64"}
	noView := full
	noView.PrivateTmp, noView.IPCNS = false, false
	socketRule := noView
	socketRule.Landlock = 9
	tests := []struct {
		name  string
		f     Features
		level Level
		want  []string // in the text
	}{
		{"full", full, Full, []string{"Sandbox: on", "Landlock ABI 6", "user/process/mount/network/IPC/UTS namespaces",
			"private /tmp", "seccomp"}},
		{"landlock without truncate", old, Partial, []string{"Sandbox: partial — this machine cannot stop bots from emptying your files: truncate is not governed (Landlock ABI 2 < 3)"}},
		{"no seccomp", noSeccomp, Partial, []string{"Sandbox: partial — this machine cannot refuse bots system calls", "TIOCSTI", "note: no seccomp filter: no list of system calls to refuse for riscv64"}},
		{"no private tmp, no IPC namespace", noView, Partial, []string{"Sandbox: partial — this machine bots can connect to your desktop session's sockets",
			"also: bots can share memory and message queues"}},
		{"Landlock governs sockets", socketRule, Partial, []string{"Sandbox: partial — this machine bots can share memory"}},
		{"no landlock", Features{UserNS: true, PIDNS: true, MountNS: true, NetNS: true, PrivateProc: true},
			Partial, []string{"Sandbox: partial", "cannot stop bots from reading your files", "no Landlock in this kernel"}},
		{"pretended", Features{PIDNS: true, PrivateProc: true, NetNS: true, Pretended: true},
			Partial, []string{"pretended absent"}},
		{"no namespaces", Features{Landlock: 6, NoNewPrivs: true, Problems: []string{"the kernel refused new namespaces: operation not permitted"}},
			Partial, []string{"command lines", "send UDP packets anywhere", "refused new namespaces"}},
		{"old landlock without pid namespace", Features{Landlock: 3},
			Partial, []string{"open TCP connections", "Landlock ABI 3 < 6"}},
		{"no network namespace only", Features{UserNS: true, PIDNS: true, MountNS: true, IPCNS: true, PrivateProc: true, PrivateTmp: true, Seccomp: true, Landlock: 6},
			Partial, []string{"Sandbox: partial — this machine cannot keep bots off the network", "UDP"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			level, text := Describe(tt.f)
			if level != tt.level {
				t.Errorf("level %v, want %v: %s", level, tt.level, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 3 << 29: "1.5 GiB", 64 << 20: "64 MiB", 512 << 10: "512 KiB", 100: "100 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLooksOutOfMemory(t *testing.T) {
	for stderr, want := range map[string]bool{
		"fatal error: runtime: out of memory\n\ngoroutine 1":                 true,
		"Traceback (most recent call last):\nMemoryError\n":                  true,
		"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap": true,
		"terminate called after throwing an instance of 'std::bad_alloc'":    true,
		"panic: index out of range":                                          false,
	} {
		if got := LooksOutOfMemory(stderr); got != want {
			t.Errorf("LooksOutOfMemory(%q) = %v", stderr, got)
		}
	}
}

func TestParseStat(t *testing.T) {
	line := "42 (a bot) (x)) R 1 1 0 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 5 0 1234 999999 250 18446744073709551615"
	st, ok := parseStat(line)
	if !ok || st.utime != 7 || st.stime != 3 || st.threads != 5 || st.rss != 250 {
		t.Errorf("parseStat = %+v, %v", st, ok)
	}
	if _, ok := parseStat("42 (short) R 1"); ok {
		t.Errorf("a short line parsed")
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add("42 (a bot) R 1 1 0 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 5 0 1234 999999 250 0")
	f.Add(")")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		st, ok := parseStat(s)
		if !ok && st != (procStat{}) {
			t.Errorf("not ok but %+v", st)
		}
	})
}

// The cgroups of a Ringside killed before it could remove them go at the
// next one's first launch; those of running ones stay. Root only: only
// there are cgroups writable on these machines.
func TestSweepCgroups(t *testing.T) {
	base := cgroupBase("pids")
	if base == "" {
		t.Skip("no writable pids cgroup here")
	}
	dead, live := runnertest.DeadAndLive(t)
	gone := filepath.Join(base, fmt.Sprintf("ringside-%d-1", dead))
	kept := filepath.Join(base, fmt.Sprintf("ringside-%d-1", live))
	for _, d := range []string{gone, kept} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer os.Remove(kept)
	defer os.Remove(gone)
	sweepCgroups()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", gone, err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("%s, whose owner runs, was removed: %v", kept, err)
	}
}
