package runner

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/runner/runnertest"
)

// A hog that keeps 16 processes busy from before its READY must not get
// its opponent eliminated: the victim, which needs 35 ms of CPU a turn
// against a 100 ms limit, gets back what it waited for a CPU, and each
// seat weighs the same where a cpu cgroup is writable. Twenty games at
// the default concurrency; a victim timeout is allowed only where it is
// marked as the machine's fault. In every second game the game judges
// each answer's time itself, as Battle 2048 does: what was given back
// must not make it late there either.
func TestCPUHogBlamesNoVictim(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		// The timing it judges is Ringside's as shipped; .ci/run runs
		// it (and its run as nobody) without the race detector.
		t.Skip("the race detector slows Ringside's own reader: run without -race")
	}
	const games = 20
	at := DefaultConcurrency(2)
	outs := make([]*Outcome, games)
	errs := make([]error, games)
	sem := make(chan struct{}, at)
	var wg sync.WaitGroup
	for g := 0; g < games; g++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			outs[g], errs[g] = Play(context.Background(), Match{Game: pingGame{}, Seed: int64(g),
				Options: engine.Options{"turns": "15", "turn_ms": "100", "all": "1", "judge": fmt.Sprint(g % 2)},
				Bots: []Bot{
					{Name: "hog", Command: fakebot + " -hog 16"},
					{Name: "victim", Command: fakebot + " -work 35ms"},
				}})
		}()
	}
	wg.Wait()
	var timeouts, underLoad int
	for g, out := range outs {
		if errs[g] != nil {
			t.Fatalf("game %d: %v", g, errs[g])
		}
		c := counts(out, 1)
		timeouts += c[engine.Timeout]
		underLoad += out.LoadTimeouts[1]
		if c[engine.Timeout] > out.LoadTimeouts[1] {
			t.Errorf("game %d: the victim timed out %d times, %d of them marked as load; its verdicts %v, notes %q",
				g, c[engine.Timeout], out.LoadTimeouts[1], c, allNotes(out))
		}
		if c[engine.OK] == 0 {
			t.Errorf("game %d: the victim never answered in time: %v", g, c)
		}
	}
	t.Logf("%d games, %d at once: the victim timed out %d times, %d of them marked as the machine's fault", games, at, timeouts, underLoad)
}

// A bot that is slow on its own, on a machine with CPU to spare, is late:
// nothing is given back and nothing is marked as load.
func TestSlowBotStillLate(t *testing.T) {
	// On a machine busy with other tests the bot may really wait for a
	// CPU, or get too little of it while others hold it, which the
	// runner rightly marks (either note): the game is played again (a
	// few times) until it ran with CPU to spare, which the note tells.
	// Beside a CPU hog a try that ran less than three quarters of its
	// window was marked busy (others held the CPU for 104 ms of it), not
	// starved, and was taken for the final answer.
	var out *Outcome
	for try := 0; try < 5; try++ {
		var err error
		out, err = Play(context.Background(), Match{Game: pingGame{}, Seed: 1,
			Options: engine.Options{"turns": "3", "turn_ms": "100"},
			Bots:    []Bot{{Name: "slow", Command: fakebot + " -work 300ms"}}})
		if err != nil {
			t.Fatal(err)
		}
		if !LateWhileBusy(allNotes(out)) {
			break
		}
		t.Logf("try %d: the bot was late while the machine was busy (%q): again", try+1, allNotes(out))
	}
	c := counts(out, 0)
	if c[engine.Timeout] != 1 || out.LoadTimeouts[0] != 0 {
		t.Errorf("a bot that needs 300 ms of CPU against a 100 ms limit: verdicts %v, %d load timeouts, notes %q; want one timeout, none marked",
			c, out.LoadTimeouts[0], allNotes(out))
	}
	if n := allNotes(out); strings.Contains(n, "machine was busy") {
		t.Errorf("a slow bot's timeout blamed on the machine: %q", n)
	}
}

// mostWaited takes the most one thread waited, never the sum: threads
// that only wait buy a bot no time.
func TestMostWaited(t *testing.T) {
	type waits = map[int]schedStat
	tests := []struct {
		before, now waits
		want        time.Duration
	}{
		{waits{1: {wait: 10}}, waits{1: {wait: 90}}, 80},
		{waits{1: {wait: 10}, 2: {wait: 5}}, waits{1: {wait: 30}, 2: {wait: 65}}, 60},
		{waits{1: {wait: 10}}, waits{1: {wait: 10}, 2: {wait: 40}, 3: {wait: 40}, 4: {wait: 40}}, 40}, // new threads count from their start, one at a time
		{nil, nil, 0},
	}
	for i, tt := range tests {
		if got := mostWaited(tt.before, tt.now); got != tt.want {
			t.Errorf("%d: mostWaited = %v, want %v", i, got, tt.want)
		}
	}
}

// A bot that sleeps past its window on a machine whose CPUs are held by
// twice as many busy programs is late by its own doing, and nothing is
// given back: the threads that waited for a CPU meanwhile were its
// launcher's (Ringside's own, watching the bot) and its runtime's, which
// wake for moments; none of their waits kept the bot from answering.
func TestSleepingBotGetsNothingBack(t *testing.T) {
	for range 2 * runtime.NumCPU() {
		runnertest.Start(t, exec.Command(fakebot, "-burn", "1h"))
	}
	for _, trusted := range []bool{false, true} {
		out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1,
			Options: engine.Options{"turns": "4", "turn_ms": "300"},
			Bots:    []Bot{{Name: "sleeper", Command: fakebot + " -mode sleep -k 1", Trusted: trusted}}})
		if err != nil {
			t.Fatal(err)
		}
		notes := allNotes(out)
		t.Logf("trusted %v: verdicts %v, notes %q", trusted, counts(out, 0), notes)
		if c := counts(out, 0); c[engine.Timeout] != 1 {
			t.Errorf("trusted %v: a bot that sleeps 2 s against a 300 ms limit: verdicts %v; want a timeout; notes %q", trusted, c, notes)
		}
		if strings.Contains(notes, "given back") || LateWhileStarved(notes) {
			t.Errorf("trusted %v: a sleeping bot was given back, or said to have waited, other threads' waits: %q", trusted, notes)
		}
	}
}
