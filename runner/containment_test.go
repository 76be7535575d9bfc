package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// TestDaemonsDieWithTheGame plays a league of bots whose grandchildren
// call setsid, one of them after a double fork: when the games end, not
// one process of them is left.
func TestDaemonsDieWithTheGame(t *testing.T) {
	e := daemonLeague("4")
	games := 0
	e.OnFinished = func(g event.Game, out *Outcome) error {
		games++
		for s := range g.Seats {
			if !strings.Contains(attackReport(out.Stderr[s], "daemon"), "SUCCEEDED (started daemons)") {
				t.Errorf("game %d seat %d: the daemons did not start: %s", g.Index, s, out.Stderr[s])
			}
		}
		return nil
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if games != 6 {
		t.Errorf("played %d games, want 6", games)
	}
	runnertest.AssertNoneLeft(t, hostile)
}

// eventHelper is the body of the child process of TestKilledRingside:
// an event whose bots never end on their own.
func eventHelper() {
	_ = daemonLeague("100000000").Run(context.Background())
	os.Exit(0)
}

// daemonLeague is a league of three hostile bots whose grandchildren call
// setsid, playing ping games of the given number of turns two at a time.
func daemonLeague(turns string) *Event {
	cfg := event.Config{Format: event.League, Seats: 2, Games: 1, Seed: 7}
	var bots []Bot
	for i := range 3 {
		name := "daemon" + strconv.Itoa(i)
		cfg.Entries = append(cfg.Entries, event.Entry{Name: name})
		bots = append(bots, Bot{Name: name, Command: hostile + " -attack daemon"})
	}
	return &Event{Game: pingGame{}, Options: engine.Options{"turns": turns, "all": "1"}, Config: cfg, Bots: bots,
		Concurrency: 2, TimeScale: 10}
}

// TestKilledRingside SIGKILLs a process in the middle of an event: within
// a second no bot of it, nor their setsid grandchildren, is left.
func TestKilledRingside(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run", "^$")
	cmd.Env = append(os.Environ(), "RINGSIDE_TEST_HELPER=event", "RINGSIDE_TEST_BINS="+dirOf(hostile))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until both games run, with their daemons (3 processes each).
	deadline := time.Now().Add(10 * time.Second)
	for len(runnertest.Processes(hostile)) < 12 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the event did not start its bots: %v", runnertest.Processes(hostile))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	runnertest.AssertNoneLeft(t, hostile)
	// Its bots' scratch folders outlive it; the next Ringside removes them.
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("ringside-seat-%d-*", cmd.Process.Pid)))
	if sandbox.Supported && len(left) == 0 {
		t.Errorf("no scratch folder of the killed Ringside found in %s", os.TempDir())
	}
	sweepScratch(os.TempDir())
	for _, d := range left {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s left after the sweep", d)
		}
	}
}

func dirOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	return p[:i]
}

// TestRecycledGroupNeverSignalled forces the process-group id of a
// trusted seat whose bot has exited onto a new, unrelated program (root
// only: it sets the kernel's next pid), then stops the seat: the program
// must live.
func TestRecycledGroupNeverSignalled(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("forcing a pid needs root")
	}
	p, err := startProcess([]string{"/bin/true"}, "", nil, nil, 0, sandbox.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	<-p.exited
	pgid := p.cmd.Process.Pid
	other := runnertest.StartAt(t, pgid, 30)
	if other == nil {
		t.Skip("another program took the pid first")
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	p.stop()
	time.Sleep(50 * time.Millisecond)
	if !runnertest.Alive(other.Process.Pid) {
		t.Fatalf("stopping the seat killed the unrelated process group %d", pgid)
	}
}

// TestGroupSignalsOnlyWhileLeaderUnreaped checks the rule itself on every
// kind of seat: each group signal is sent before the leader is reaped.
func TestGroupSignalsOnlyWhileLeaderUnreaped(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		var sb *sandboxSpec
		if !trusted {
			sb = Sandbox{}.spec(Bot{})
		}
		p, err := startProcess([]string{fakebot, "-mode", "noready"}, "", nil, sb, 0, sandbox.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var late []int
		orig := killGroup
		killGroup = func(pgid int, sig syscall.Signal) error {
			if p.reaped {
				late = append(late, pgid)
			}
			return orig(pgid, sig)
		}
		p.stop()
		p.stop()
		killGroup = orig
		if len(late) > 0 {
			t.Errorf("trusted=%v: group %v signalled after its leader was reaped", trusted, late)
		}
	}
}
