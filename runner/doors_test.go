//go:build linux

package runner

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"ringside/engine"
	"ringside/engine/enginetest"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// The doors around the sandbox's main path (issue 31): the teacher's
// desktop sockets, SysV IPC between seats, system calls no bot needs,
// memory no resident size shows.

// outsideTmp returns a new folder outside the session folders the
// sandbox hides anyway (see runnertest.OutsideTmp), so that hiding the
// home folder itself is what is tested; "" where there is none to write
// to.
func outsideTmp(t *testing.T) string {
	t.Helper()
	dir, err := runnertest.OutsideTmp(t, ".doors-")
	if err != nil {
		t.Logf("no folder outside /tmp to write to (%v): the home folder is under /tmp", err)
		return ""
	}
	return dir
}

// waitForSocket waits until something listens at path (a pathname unix
// socket), or fails t after 10 s.
func waitForSocket(t *testing.T, path string, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("unix", path)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen at %s: %v", what, path, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// desktop is a teacher's desktop session stood in for by real services:
// an X server, ssh-agent, and D-Bus session buses, with their sockets
// where a desktop has them.
type desktop struct {
	targets []string // kind=address, as the hostile bot's "sockets" attack takes them
}

func newDesktop(t *testing.T) *desktop {
	t.Helper()
	for _, tool := range []string{"Xvfb", "ssh-agent", "dbus-daemon"} {
		runnertest.NeedTool(t, tool)
	}
	d := &desktop{}
	home := outsideTmp(t)
	if home == "" {
		home = t.TempDir()
	}
	runtimeDir := filepath.Join(t.TempDir(), "run-user")
	sshDir, err := os.MkdirTemp("", "ssh-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sshDir) })
	for _, dir := range []string{runtimeDir, filepath.Join(home, ".dbus")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// The X server: its socket in /tmp/.X11-unix, and its abstract twin.
	display := freeDisplay(t)
	// -noreset: a server without clients would otherwise reset
	// between the bot's two connections, refusing the second.
	x := exec.Command("Xvfb", ":"+strconv.Itoa(display), "-nolisten", "tcp", "-noreset")
	startService(t, x)
	xsock := fmt.Sprintf("/tmp/.X11-unix/X%d", display)
	waitForSocket(t, xsock, "Xvfb")
	d.targets = append(d.targets, "x11="+xsock, "x11=@"+xsock)
	// ssh-agent where OpenSSH puts it: /tmp/ssh-XXXXXX/agent.PID.
	agent := filepath.Join(sshDir, fmt.Sprintf("agent.%d", os.Getpid()))
	startService(t, exec.Command("ssh-agent", "-D", "-a", agent))
	waitForSocket(t, agent, "ssh-agent")
	d.targets = append(d.targets, "ssh="+agent)
	// Session buses: in the runtime folder, as on a systemd desktop,
	// and in the home folder.
	for _, bus := range []string{filepath.Join(runtimeDir, "bus"), filepath.Join(home, ".dbus", "bus")} {
		startService(t, exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path="+bus))
		waitForSocket(t, bus, "dbus-daemon")
		d.targets = append(d.targets, "dbus="+bus)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	t.Setenv("SSH_AUTH_SOCK", agent)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(runtimeDir, "bus"))
	t.Setenv("DISPLAY", ":"+strconv.Itoa(display))
	return d
}

// startService starts a stand-in service and ends it (SIGTERM, so that
// it removes its socket) when the test ends.
func startService(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
}

// freeDisplay picks an X display number nobody uses here.
func freeDisplay(t *testing.T) int {
	t.Helper()
	for n := 90 + os.Getpid()%100; n < 600; n++ {
		_, errSock := os.Lstat(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		_, errLock := os.Lstat(fmt.Sprintf("/tmp/.X%d-lock", n))
		if os.IsNotExist(errSock) && os.IsNotExist(errLock) {
			return n
		}
	}
	t.Fatal("no free X display number")
	return 0
}

// TestDesktopSocketsHidden starts a real X server, ssh-agent and two
// D-Bus session buses with their sockets where a desktop has them, and a
// bot that connects to each and says hello in its protocol. Sandboxed
// (with Landlock and pretended without) it reaches none: they are not in
// its world. Trusted, every one answers: the services are real and the
// bot would have found them.
func TestDesktopSocketsHidden(t *testing.T) {
	d := newDesktop(t)
	env := []string{"HOSTILE_SOCKETS=" + strings.Join(d.targets, ",")}
	for _, mode := range []string{"trusted", "sandbox", "no-landlock"} {
		t.Run(mode, func(t *testing.T) {
			out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
				Options: engine.Options{"turns": "3", "all": "1"},
				Sandbox: Sandbox{Trusted: mode == "trusted", PretendNoLandlock: mode == "no-landlock"},
				Bots:    []Bot{{Name: "sockets", Command: hostile + " -attack sockets", Env: env}}})
			if err != nil {
				t.Fatal(err)
			}
			report := attackReport(out.Stderr[0], "sockets")
			t.Logf("%s", report)
			for _, target := range d.targets {
				kind, addr, _ := strings.Cut(target, "=")
				reached := strings.Contains(report, kind+" "+addr+": connected, answered ")
				if mode == "trusted" && !reached {
					t.Errorf("trusted, the bot did not get an answer from %s at %s: the stand-in is not real", kind, addr)
				}
				if mode != "trusted" && strings.Contains(report, kind+" "+addr+": connected") {
					t.Errorf("sandboxed (%s), the bot connected to %s at %s", mode, kind, addr)
				}
			}
			if mode != "trusted" && !strings.HasPrefix(report, "blocked") {
				t.Errorf("sandboxed (%s): %s", mode, report)
			}
			if c := counts(out, 0); c[engine.OK] != 4 {
				t.Errorf("verdicts %v, notes %q", c, allNotes(out))
			}
			runnertest.AssertNoneLeft(t, hostile)
		})
	}
	// Where the kernel refuses namespaces there is no private view, and
	// the status says so.
	sandbox.PretendNamespacesRefused(true)
	defer sandbox.PretendNamespacesRefused(false)
	_, text := SandboxStatus(Sandbox{})
	t.Logf("without namespaces:\n%s", text)
	if !strings.Contains(text, "desktop session's sockets") && !strings.Contains(text, "Landlock ABI 9") {
		t.Errorf("without namespaces the status does not say the sockets are reachable:\n%s", text)
	}
}

// TestSysVCollusion plays two sandboxed bots in one game, and two such
// games at once, each bot trying to share a blackboard with the others
// under one key: SysV shared memory, a SysV message queue and an
// abstract unix socket. No bot sees another's mark. Two trusted bots do
// (the sentinel: the attack works where nothing stops it).
func TestSysVCollusion(t *testing.T) {
	var b [4]byte
	rand.Read(b[:])
	key := int(binary.LittleEndian.Uint32(b[:])&0x3fffffff) + 1
	env := []string{"HOSTILE_IPC_KEY=" + strconv.Itoa(key)}
	colluders := func() []Bot {
		return []Bot{{Name: "a", Command: hostile + " -attack collude", Env: env},
			{Name: "b", Command: hostile + " -attack collude", Env: env}}
	}
	// Every bot has set its marks once it has answered turn 1 (it sets
	// them before it reads a turn); from turn 2 on, each look is a fair
	// one. The games wait for each other there, so that all four bots
	// are alive together.
	const games = 2
	var arrived sync.WaitGroup
	arrived.Add(games)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	outs := make([]*Outcome, games)
	errs := make([]error, games)
	var wg sync.WaitGroup
	for g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var once sync.Once
			outs[g], errs[g] = Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
				Options: engine.Options{"turns": "6", "all": "1"}, Bots: colluders(),
				OnStep: func(i int, _ engine.State, _ engine.Step) {
					if i >= 2 {
						once.Do(func() {
							arrived.Done()
							select {
							case <-all:
							case <-time.After(30 * time.Second):
							}
						})
					}
				}})
		}()
	}
	wg.Wait()
	for g := range games {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		for s := range 2 {
			stderr := outs[g].Stderr[s]
			t.Logf("game %d seat %d: %s; %d looks", g, s, attackReport(stderr, "collude"), strings.Count(stderr, "ALONE"))
			if strings.Contains(stderr, "SEEN") {
				t.Errorf("game %d seat %d saw another bot's mark: %s", g, s, lastLines(stderr, 3))
			}
			if !strings.Contains(attackReport(stderr, "collude"), "left its marks") {
				t.Errorf("game %d seat %d could not set its marks: %s", g, s, attackReport(stderr, "collude"))
			}
			if strings.Count(stderr, "ALONE") < 5 {
				t.Errorf("game %d seat %d looked %d times, want every turn", g, s, strings.Count(stderr, "ALONE"))
			}
		}
	}
	t.Run("trusted", func(t *testing.T) {
		t.Cleanup(func() { removeSysV(key) })
		out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
			Options: engine.Options{"turns": "6", "all": "1"}, Bots: colluders(), Sandbox: Sandbox{Trusted: true}})
		if err != nil {
			t.Fatal(err)
		}
		for s := range 2 {
			var seen []string
			for _, l := range strings.Split(out.Stderr[s], "\n") {
				if strings.HasPrefix(l, "SEEN ") {
					seen = append(seen, l)
				}
			}
			stderr := strings.Join(seen, "\n")
			for _, board := range []string{"shm", "msg", "socket"} {
				if !strings.Contains(stderr, board) {
					t.Errorf("trusted seat %d did not see the other's mark through %s: the attack does not work: %s",
						s, board, lastLines(out.Stderr[s], 6))
				}
			}
		}
	})
}

// removeSysV removes the trusted colluders' segment and queue from the
// host's IPC namespace.
func removeSysV(key int) {
	if id, err := unix.SysvShmGet(key, 0, 0); err == nil {
		unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	}
	if id, _, errno := syscall.Syscall(syscall.SYS_MSGGET, uintptr(key), 0, 0); errno == 0 {
		syscall.Syscall(syscall.SYS_MSGCTL, id, unix.IPC_RMID, 0)
	}
}

// TestSeccompRefusals: the system calls no bot needs are refused with
// EPERM, with Landlock, without it, and without namespaces; trusted, the
// same calls reach the kernel (unshare and ptrace work, TIOCSTI on a pipe
// is ENOTTY), so it is the filter that refuses.
func TestSeccompRefusals(t *testing.T) {
	attacks := []string{"tiocsti", "unshare", "ptrace", "inotify"}
	for _, mode := range []string{"trusted", "sandbox", "no-landlock", "no-namespaces"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "no-namespaces" {
				sandbox.PretendNamespacesRefused(true)
				defer sandbox.PretendNamespacesRefused(false)
			}
			for _, attack := range attacks {
				out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
					Options: engine.Options{"turns": "3", "all": "1"},
					Sandbox: Sandbox{Trusted: mode == "trusted", PretendNoLandlock: mode == "no-landlock"},
					Bots:    []Bot{{Name: attack, Command: hostile + " -attack " + attack}}})
				if err != nil {
					t.Fatal(err)
				}
				report := attackReport(out.Stderr[0], attack)
				t.Logf("%s: %s", attack, report)
				switch {
				case mode != "trusted":
					if !strings.HasPrefix(report, "blocked") || !strings.Contains(report, "operation not permitted") {
						t.Errorf("%s sandboxed (%s): %s, want refused with EPERM", attack, mode, report)
					}
				case attack == "tiocsti":
					if !strings.Contains(report, "inappropriate ioctl") {
						t.Errorf("trusted TIOCSTI on a pipe: %s, want ENOTTY from the kernel", report)
					}
				default:
					if !strings.HasPrefix(report, "SUCCEEDED") {
						t.Errorf("trusted %s: %s, want it to work outside the sandbox", attack, report)
					}
				}
				if c := counts(out, 0); c[engine.OK] != 4 {
					t.Errorf("%s: verdicts %v, notes %q", attack, c, allNotes(out))
				}
			}
			runnertest.AssertNoneLeft(t, hostile)
		})
	}
}

// TestHiddenMemoryCap: a bot holding 720 MiB in memfd files or 768 MiB
// in detached SysV segments under a 256 MiB cap is ended with the memory
// note (by the memory cgroup as root, by the watchdog as anyone else),
// and its segments die with its IPC namespace.
func TestHiddenMemoryCap(t *testing.T) {
	lim := DefaultLimits
	lim.Memory = 256 << 20
	if enginetest.Race {
		// The launcher is this test binary: under the race detector its
		// own runtime needs more than 256 MiB of RLIMIT_DATA (512 MiB is
		// what TestCapVerdicts gives it). The hogs still hold more.
		lim.Memory = 512 << 20
	}
	note := "memory limit " + sandbox.Size(lim.Memory)
	for _, attack := range []string{"memfd-hog", "shm-hog"} {
		t.Run(attack, func(t *testing.T) {
			// A turn of a second: the hog answers its first turn only
			// once it holds everything, and touching 768 MiB page by page
			// takes a few hundred milliseconds (more under the race
			// detector's higher cap); the watchdog ends it meanwhile.
			out := playAttackerOut(t, attack, &lim, 10, engine.Options{"turns": "1000000", "all": "1", "turn_ms": "100"})
			if !strings.Contains(allNotes(out), note) {
				t.Errorf("notes %q lack the memory limit; report %s", allNotes(out), attackReport(out.Stderr[0], attack))
			}
			if c := counts(out, 0); c[engine.Crashed]+c[engine.Timeout] != 1 {
				t.Errorf("attacker verdicts %v, want one crash or timeout", c)
			}
			if c := counts(out, 1); c[engine.Crashed]+c[engine.Invalid] > 0 {
				t.Errorf("victim verdicts %v", c)
			}
			runnertest.AssertNoneLeft(t, hostile)
		})
	}
}

// TestWorkingFolderHidden runs a bot without a folder from a working
// folder under /tmp whose files its command line does not name: the
// folder is there in the bot's view (empty), and the bot starts in it.
func TestWorkingFolderHidden(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "other.txt"), []byte("not for the bot"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Bots: []Bot{{Name: "plain", Command: fakebot}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := counts(out, 0); c[engine.OK] != 9 {
		t.Errorf("verdicts %v, notes %q, stderr %q", c, allNotes(out), out.Stderr[0])
	}
	if out.Sandbox[0] != "on" {
		t.Errorf("sandbox %q", out.Sandbox[0])
	}
}
