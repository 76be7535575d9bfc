//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// Containment through the installed binary: a bot that double-forks a
// setsid daemon (testdata/daemonbot) leaves nothing running after
// "ringside play", after "ringside event run", and within a second of
// "ringside event run" being SIGKILLed; and a recycled process-group id
// of a seat whose bot exited long ago is never signalled. The tests
// signal nothing but the processes they start.

// buildDaemonBot builds testdata/daemonbot into a folder of the test's
// own, so that every process of that program is this test's.
func buildDaemonBot(t *testing.T) string {
	t.Helper()
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	bin := filepath.Join(t.TempDir(), "daemonbot")
	if err := runnertest.GoBuild(bin, "./testdata/daemonbot"); err != nil {
		t.Fatal(err)
	}
	return bin
}

// readSentinel reads a daemon's sentinel file ("PID COUNT") where the
// daemon sees it: in its HOME, the sandbox's scratch folder, which is a
// tmpfs of the bot's own mount namespace, so it is read through
// /proc/PID/root.
func readSentinel(pid int) (string, bool) {
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return "", false
	}
	home := ""
	for _, kv := range strings.Split(string(environ), "\x00") {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/root%s/daemon-sentinel", pid, home))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(data)), true
}

// daemonWatch is what a watcher saw of bin's daemons while a ringside
// command ran: each daemon's pid and the distinct contents of its
// sentinel.
type daemonWatch struct {
	mu   sync.Mutex
	seen map[int][]string
	stop chan struct{}
	done chan struct{}
}

func watchDaemons(bin string) *daemonWatch {
	w := &daemonWatch{seen: map[int][]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			for _, pid := range runnertest.Processes(bin, "-daemon") {
				s, ok := readSentinel(pid)
				w.mu.Lock()
				values := w.seen[pid]
				if ok && (len(values) == 0 || values[len(values)-1] != s) {
					values = append(values, s)
				}
				w.seen[pid] = values
				w.mu.Unlock()
			}
			select {
			case <-w.stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return w
}

// running tells how many daemons were seen writing their sentinel (a
// count of 2 or more: they had run for 100 ms).
func (w *daemonWatch) running() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, values := range w.seen {
		for _, v := range values {
			if f := strings.Fields(v); len(f) == 2 && f[1] != "0" && f[1] != "1" {
				n++
				break
			}
		}
	}
	return n
}

func (w *daemonWatch) end() map[int][]string {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}

// assertContained checks that at least want daemons were seen running,
// and that within a second of the end no process of bin is left: the
// daemons seen are gone, and with them their sentinels' writer.
func assertContained(t *testing.T, bin string, seen map[int][]string, want int) {
	t.Helper()
	running, most := 0, ""
	for _, values := range seen {
		if len(values) > 0 {
			last := values[len(values)-1]
			if f := strings.Fields(last); len(f) == 2 && f[1] != "0" && f[1] != "1" {
				running++
			}
			if len(values) > len(most) {
				most = strings.Join(values, ", ")
			}
		}
	}
	t.Logf("%d daemons seen, %d of them seen writing their sentinel; the longest lived wrote: %s", len(seen), running, most)
	if running < want {
		t.Fatalf("saw %d daemons writing their sentinel, want at least %d: the test did not test anything", running, want)
	}
	runnertest.AssertNoneLeft(t, bin, sandbox.Spawners()...)
	for pid := range seen {
		if s, ok := readSentinel(pid); ok {
			t.Errorf("daemon %d still there, its sentinel says %q", pid, s)
		}
	}
}

// startRingside starts the real binary with args and a deadline.
func startRingside(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, exe, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errs
}

// TestPlayLeavesNoDaemon: "ringside play" with a bot that double-forks
// a setsid daemon; once the game is over the daemon is gone.
func TestPlayLeavesNoDaemon(t *testing.T) {
	t.Parallel()
	bin := buildDaemonBot(t)
	db := filepath.Join(t.TempDir(), "p.db")
	w := watchDaemons(bin)
	cmd, out, errs := startRingside(t, "play", "--game", "grip", "--seed", "3", "--opt", "max_turns=60", "--db", db,
		"--bot", bin+" -think 10ms", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random")
	err := cmd.Wait()
	seen := w.end()
	if err != nil {
		t.Fatalf("ringside play: %v\n%s%s", err, out, errs)
	}
	var res playResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("play output: %v\n%s", err, out)
	}
	if s := res.Seats[0]; s.Sandbox != "on" || s.Verdicts["ok"] == 0 {
		t.Errorf("the daemon bot's seat: %+v, want it to play in the sandbox", s)
	}
	assertContained(t, bin, seen, 1)
}

// createDaemonEvent makes a Grip league of two daemon bots and two
// fillers in a new database, 24 short games played one at a time, and
// returns the database's path.
func createDaemonEvent(t *testing.T, bin string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "e.db")
	mustRingside(t, "event", "create", "--db", db, "--game", "grip", "--format", "league",
		"--entry", "d1="+bin+" -think 5ms", "--entry", "d2="+bin+" -think 5ms", "--filler", "builtin:grip/random",
		"--games", "1", "--seed", "3", "--opt", "max_turns=20", "--concurrency", "1")
	return db
}

// TestEventRunLeavesNoDaemon: "ringside event run" of a league whose
// bots double-fork setsid daemons; when it is done, none is left.
func TestEventRunLeavesNoDaemon(t *testing.T) {
	t.Parallel()
	bin := buildDaemonBot(t)
	db := createDaemonEvent(t, bin)
	w := watchDaemons(bin)
	cmd, out, errs := startRingside(t, "event", "run", "1", "--db", db)
	err := cmd.Wait()
	seen := w.end()
	if err != nil {
		t.Fatalf("ringside event run: %v\n%s%s", err, out, errs)
	}
	if !strings.Contains(out.String(), "d1") || !strings.Contains(out.String(), "d2") {
		t.Errorf("no standings with both entries:\n%s", out)
	}
	assertContained(t, bin, seen, 2)
}

// TestKilledEventRunLeavesNoDaemon SIGKILLs "ringside event run" while
// its bots and their daemons run: within a second none of them is left.
// "event resume" then finishes the event and leaves none either.
func TestKilledEventRunLeavesNoDaemon(t *testing.T) {
	t.Parallel()
	bin := buildDaemonBot(t)
	db := createDaemonEvent(t, bin)
	w := watchDaemons(bin)
	cmd, out, errs := startRingside(t, "event", "run", "1", "--db", db)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(runnertest.Patience(t))
	for w.running() < 2 {
		select {
		case err := <-exited:
			w.end()
			t.Fatalf("event run ended (%v) before two daemons were seen running:\n%s%s", err, out, errs)
		case <-deadline:
			w.end()
			cmd.Process.Kill()
			<-exited
			t.Fatalf("no two daemons seen running within 30 s")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	assertContained(t, bin, w.end(), 2)

	w = watchDaemons(bin)
	code, resumed, resumeErrs := ringside(t, "event", "resume", "1", "--db", db)
	seen := w.end()
	if code != 0 {
		t.Fatalf("event resume after the kill: exit %d\n%s%s", code, resumed, resumeErrs)
	}
	assertContained(t, bin, seen, 1)
}

// TestRecycledGroupThroughTheBinary: in "ringside play", a trusted seat's
// bot exits at once while the game goes on; its process-group id is then
// forced onto a new, unrelated program (root only: it sets the kernel's
// next pid). When the game ends and Ringside stops every seat, that
// program must live.
func TestRecycledGroupThroughTheBinary(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("forcing a pid needs root")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// Paced, the game lasts about 4 s: time to recycle the pid.
	// Limits ten times the game's: on a busy machine a greedy bot late
	// once would sit the game out, and what is under test is the group.
	cmd, out, errs := startRingside(t, "play", "--trusted", "--game", "grip", "--seed", "3", "--opt", "max_turns=80",
		"--pace", "20", "--time-scale", "10", "--bot", "sh -c 'echo $$ > "+pidFile+"'", "--bot", "builtin:grip/greedy",
		"--bot", "builtin:grip/greedy", "--bot", "builtin:grip/greedy")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var pgid int
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(pidFile)
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", n)); errors.Is(err, os.ErrNotExist) {
				pgid = n // exited and reaped: its pid is free
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the seat's bot did not exit and get reaped (pid file %q)", data)
		}
		time.Sleep(5 * time.Millisecond)
	}
	other := runnertest.StartAt(t, pgid, 60)
	if other == nil {
		cmd.Process.Kill()
		<-exited
		t.Skip("another program took the pid first")
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("the game ended (%v) before the pid was recycled: the test tested nothing\n%s%s", err, out, errs)
	default:
	}
	if err := <-exited; err != nil {
		t.Fatalf("ringside play: %v\n%s%s", err, out, errs)
	}
	var res playResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("play output: %v\n%s", err, out)
	}
	if res.Seats[0].Verdicts["crashed"] != 1 || res.Seats[1].Verdicts["ok"] < 10 {
		t.Errorf("seats %+v: want the first crashed and the game played on", res.Seats)
	}
	time.Sleep(50 * time.Millisecond)
	var ws syscall.WaitStatus
	if pid, _ := syscall.Wait4(other.Process.Pid, &ws, syscall.WNOHANG, nil); pid == other.Process.Pid {
		t.Fatalf("the unrelated program in process group %d ended (%v) when the game ended", pgid, ws)
	}
}
