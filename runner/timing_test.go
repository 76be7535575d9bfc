package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/grip"
	"ringside/runner/runnertest"
)

// readySeat starts a trusted fakebot with args and waits for its READY.
func readySeat(t *testing.T, args ...string) *seatConn {
	t.Helper()
	c := startSeat(0, append([]string{fakebot}, args...), Bot{Trusted: true}, nil)
	t.Cleanup(c.stop)
	ready := engine.Ask{Timeout: 10 * time.Second, Expect: func(l string) bool { return l == "READY" }}
	if r, _, _ := askOne(context.Background(), c, ready, 1); r.Status != engine.Answered {
		t.Fatalf("no READY: %v %s", r.Status, c.note)
	}
	return c
}

// lateAfterWrite makes Ringside late by d between writing each input to
// c and starting to wait.
func lateAfterWrite(c *seatConn, d time.Duration) {
	c.afterWrite = func() { time.Sleep(d) }
	// What is under test is when the answer arrived, not what a busy
	// machine gives back.
	c.noGiveBack = true
}

// A bot's clock runs from just before its input is written to the
// arrival of its answer, however late Ringside is between the two.
func TestClockCountsRingsideDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		think, delay time.Duration // the bot's, and Ringside's after the write
		limit        time.Duration
		timeout      bool
		// the reply's time is at least min and under max
		min, max time.Duration
	}{
		// The bot thinks through Ringside's delay: all of it is counted
		// (a clock started after the delay would say about 10 ms).
		{"thinking through the delay", 30 * time.Millisecond, 20 * time.Millisecond, time.Second, false,
			30 * time.Millisecond, time.Second},
		// 60 ms of thinking against a 50 ms limit is a timeout, though
		// Ringside began to wait only 40 ms in (and would have taken
		// the answer 20 ms later).
		{"over the limit", 60 * time.Millisecond, 40 * time.Millisecond, 50 * time.Millisecond, true,
			50 * time.Millisecond, time.Second},
		// An answer that came at once is stamped when it came, not when
		// the late waiter looked: it took well under the delay (a second:
		// a machine busy with twice its cores in other programs may keep
		// the bot and Ringside's reader from a CPU for hundreds of ms).
		{"answered during the delay", 0, time.Second, 2 * time.Second, false,
			0, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := readySeat(t, "-think", tt.think.String())
			lateAfterWrite(c, tt.delay)
			r, lr, _ := askOne(context.Background(), c, engine.Ask{Input: "1\n", Timeout: tt.limit}, 1)
			if got := r.Status == engine.TimedOut; got != tt.timeout {
				t.Fatalf("status %v (%s, note %q), want timeout %v", r.Status, r.Elapsed, lr.Note, tt.timeout)
			}
			if !tt.timeout && r.Line != "2" {
				t.Errorf("answer %q, want 2", r.Line)
			}
			if r.Elapsed < tt.min || r.Elapsed >= tt.max {
				t.Errorf("time %s, want in [%s, %s)", r.Elapsed, tt.min, tt.max)
			}
		})
	}
}

// A reply whose line end arrived after the deadline is late, always; one
// that arrived in time is on time, always, whenever Ringside looks.
func TestDeadlineDecidedByArrival(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		think, limit time.Duration
		delay        time.Duration // Ringside late after each write
		timeout      bool
		turns        int
	}{
		{"just after the limit", 25 * time.Millisecond, 20 * time.Millisecond, 0, true, 40},
		// The waiter looks only after the late line is queued.
		{"just after, seen at once", 25 * time.Millisecond, 20 * time.Millisecond, 30 * time.Millisecond, true, 40},
		// Windows of a second, for the reader that stamps the line: a
		// busy machine running the race detector has kept it from a CPU
		// for most of 40 ms, and one with a CPU hog of twice its cores
		// beside the tests for 221 ms of 150.
		{"well inside", 0, time.Second, 0, false, 40},
		// The waiter looks only after the deadline; the line came in time.
		{"well inside, seen late", 0, time.Second, 1200 * time.Millisecond, false, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := readySeat(t, "-think", tt.think.String())
			lateAfterWrite(c, tt.delay)
			for i := 0; i < tt.turns; i++ {
				r, lr, _ := askOne(context.Background(), c, engine.Ask{Input: fmt.Sprintf("%d\n", i), Timeout: tt.limit}, 1)
				if got := r.Status == engine.TimedOut; got != tt.timeout {
					t.Fatalf("turn %d: %v in %s (note %q), want timeout %v", i, r.Status, r.Elapsed, lr.Note, tt.timeout)
				}
				if tt.timeout {
					if r.Elapsed < tt.limit {
						t.Errorf("turn %d: timed out after %s, under the limit", i, r.Elapsed)
					}
					// Let the late answer arrive before the next input,
					// so that it is noise and not the next answer: wait for
					// it, not for a time a busy machine may overrun (unless
					// the waiter saw it come, over the limit, and took it).
					if !strings.Contains(lr.Note, "over the limit") {
						waitForLine(t, c)
					}
				} else if r.Line != strconv.Itoa(i+1) || r.Elapsed > tt.limit {
					t.Fatalf("turn %d: %q in %s", i, r.Line, r.Elapsed)
				}
			}
		})
	}
}

var (
	gripbotOnce sync.Once
	gripbot     string
)

// buildGripbot builds testdata/gripbot once per test binary.
func buildGripbot(t *testing.T) string {
	t.Helper()
	gripbotOnce.Do(func() {
		out := filepath.Join(filepath.Dir(fakebot), "gripbot")
		if err := runnertest.GoBuild(out, "./testdata/gripbot"); err != nil {
			t.Log(err)
			return
		}
		gripbot = out
	})
	if gripbot == "" {
		t.Fatal("could not build testdata/gripbot")
	}
	return gripbot
}

// A bot that prints a debug line a few milliseconds after each answer
// plays a whole Grip game with every answer ok: its debug lines are out
// before its next input is written (the opponents wait for them), so they
// are noise however late Ringside's reader is to read them.
func TestDebugLinesBetweenTurns(t *testing.T) {
	bin := buildGripbot(t)
	mark := filepath.Join(t.TempDir(), "debug-lines")
	bots := []Bot{{Name: "debug", Command: bin + " -bot greedy -debug 3ms -mark " + mark, Trusted: true}}
	for i := 1; i < 4; i++ {
		bots = append(bots, Bot{Name: "other", Command: bin + " -bot random -waitfor " + mark + " -seed " + strconv.Itoa(i), Trusted: true})
	}
	// Seat 0's answers include the debug bot's 3 ms; a busy machine's
	// scheduling is not a bot's fault here.
	out, err := Play(context.Background(), Match{Game: &grip.Game{}, Seed: 7, Bots: bots, TimeScale: 10,
		Options: engine.Options{grip.OptMaxTurns: "1000"}})
	if err != nil {
		t.Fatal(err)
	}
	v := out.Verdicts[0]
	if v[engine.OK] < 10 || v[engine.Invalid] != 0 || v[engine.Timeout] != 0 || v[engine.Crashed] != 0 {
		t.Errorf("debug bot's verdicts %v (ok, invalid, timeout, crashed, not asked); notes %q", v, out.Notes[0])
	}
	debug := 0
	for _, s := range out.Log.Steps {
		for _, n := range s.Noise {
			if n.Seat == 0 && strings.HasPrefix(n.Line, "debug: ") {
				debug++
			}
		}
	}
	if debug < v[engine.OK]-2 {
		t.Errorf("%d debug lines kept as noise for %d answers", debug, v[engine.OK])
	}
}

// A line the bot printed before its input was written is noise even
// when the reader takes it from the pipe only after the input went out:
// here the reader sleeps on every debug line, as a busy machine can
// keep it from running, while the other seat thinks.
func TestLateReaderDebugLine(t *testing.T) {
	afterFill = func(chunk []byte) {
		if bytes.Contains(chunk, []byte("debug: ")) {
			time.Sleep(100 * time.Millisecond)
		}
	}
	defer func() { afterFill = nil }()
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1,
		Options: engine.Options{"turns": "8", "turn_ms": "1000"},
		Bots: []Bot{
			{Name: "debug", Command: fakebot + " -debug 2ms", Trusted: true},
			{Name: "thinker", Command: fakebot + " -think 30ms", Trusted: true},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if c := counts(out, 0); c[engine.OK] != 5 {
		t.Errorf("debug bot's verdicts %v, notes %q, want 5 ok", c, allNotes(out))
	}
	debug := 0
	for _, s := range out.Log.Steps {
		for _, n := range s.Noise {
			if n.Seat == 0 && strings.HasPrefix(n.Line, "debug: ") {
				debug++
			}
		}
	}
	if debug < 3 {
		t.Errorf("%d debug lines kept as noise, want at least 3", debug)
	}
}

// READY windows are chained as the 2015 referee ran them: a bot is
// accepted within its own window from its start, or within the window
// that opens when the previous seat's handshake ended.
//
// Time runs at a quarter speed (the windows are 4 s, the bots' delays
// four times theirs): the closest READY is 300 ms of the game's time from
// its window's end, which a machine busy with twice its cores in other
// programs ate once (the bots start one after another, and Ringside's
// reader stamps a line when it gets a CPU).
func TestReadyWindowsChained(t *testing.T) {
	const scale = 4
	tests := []struct {
		name  string
		ready []time.Duration // when each seat says READY (-1: never)
		ok    []bool
	}{
		// Seat 2 misses its own second but is within one of seat 1's
		// READY; seat 3 is within one of seat 2's.
		{"chained", []time.Duration{600 * time.Millisecond, 1300 * time.Millisecond, 2000 * time.Millisecond, 3500 * time.Millisecond},
			[]bool{true, true, true, false}},
		// A silent seat's window ends a second after the previous one's
		// READY; the next one's a second after that.
		{"after a silent seat", []time.Duration{100 * time.Millisecond, -1, 1800 * time.Millisecond, 200 * time.Millisecond},
			[]bool{true, false, true, true}},
		{"all in their own window", []time.Duration{0, 300 * time.Millisecond, 600 * time.Millisecond, 900 * time.Millisecond},
			[]bool{true, true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Side by side: each waits seconds for its seats' READY.
			t.Parallel()
			var bots []Bot
			for _, d := range tt.ready {
				cmd := fakebot + " -slowstart " + (d * scale).String()
				if d < 0 {
					cmd = fakebot + " -mode noready"
				}
				bots = append(bots, Bot{Name: "slow", Command: cmd, Trusted: true})
			}
			out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, Bots: bots, TimeScale: scale,
				Options: engine.Options{"turns": "4", "turn_ms": "1000"}})
			if err != nil {
				t.Fatal(err)
			}
			for s, r := range out.Log.Steps[0].Replies {
				if got := r.Status == engine.Answered; got != tt.ok[s] {
					t.Errorf("seat %d: READY %s in %d µs (%s), want accepted %v", s+1, r.Status, r.Micros, r.Note, tt.ok[s])
				}
			}
		})
	}
}

// cpuWait measures the time a bot waited for a CPU, which READY windows
// give back: a bot sharing one CPU with three programs that never rest
// waits for it about three quarters of the time.
func TestCPUWaitMeasured(t *testing.T) {
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("no taskset")
	}
	for i := 0; i < 3; i++ {
		runnertest.Start(t, exec.Command(taskset, "-c", "0", fakebot, "-burn", "1h"))
	}
	c := startSeat(0, []string{taskset, "-c", "0", fakebot, "-burn", "1h"}, Bot{Trusted: true}, nil)
	defer c.stop()
	idle := startSeat(0, []string{fakebot, "-mode", "noready"}, Bot{Trusted: true}, nil)
	defer idle.stop()
	time.Sleep(time.Second)
	if w := c.proc.cpuWait(); w < 400*time.Millisecond {
		t.Errorf("a bot sharing a CPU with three others waited %s for it in 1 s", w)
	}
	if w := idle.proc.cpuWait(); w > 100*time.Millisecond {
		t.Errorf("a sleeping bot waited %s for a CPU", w)
	}
}

// The default concurrency leaves a core free and counts a game's seats:
// more players per game, fewer games at once; on 2 cores, one Grip game.
func TestDefaultConcurrency(t *testing.T) {
	cores := runtime.NumCPU()
	prev := DefaultConcurrency(2)
	if prev != max(1, cores-1) {
		t.Errorf("2 seats on %d cores: %d games at once, want %d", cores, prev, max(1, cores-1))
	}
	for _, seats := range []int{3, 4, 6, 8} {
		got := DefaultConcurrency(seats)
		if got < 1 || got > prev {
			t.Errorf("%d seats on %d cores: %d games at once (%d with fewer seats)", seats, cores, got, prev)
		}
		prev = got
	}
	if cores <= 3 && DefaultConcurrency(4) != 1 {
		t.Errorf("4 seats on %d cores: %d games at once, want 1", cores, DefaultConcurrency(4))
	}
}

// TestJavaReady plays Grip with four Java bots, which start at once: no
// bot may miss its READY window. By default it plays one game;
// RINGSIDE_JVM_GAMES=N plays a league of at least N games (24 seat orders
// each round) at the default concurrency, the measurement docs/grip.md
// reports. Needs javac and java.
func TestJavaReady(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Java virtual machines")
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("no javac")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java")
	}
	games := 0
	if s := os.Getenv("RINGSIDE_JVM_GAMES"); s != "" {
		if games, err = strconv.Atoi(s); err != nil || games < 1 {
			t.Fatalf("RINGSIDE_JVM_GAMES=%q: want a number of games", s)
		}
	}
	dir := t.TempDir()
	build := exec.Command(javac, "-d", dir, "testdata/javabot/GripBot.java")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	var entries []event.Entry
	var bots []Bot
	for i := 0; i < 4; i++ {
		entries = append(entries, event.Entry{Name: fmt.Sprintf("java%d", i+1)})
		bots = append(bots, Bot{Name: entries[i].Name, Command: fmt.Sprintf("java -cp %s GripBot %d", dir, i+1), Dir: dir})
	}
	var mu sync.Mutex
	played, lost, late := 0, 0, 0
	var worst time.Duration
	var notes []string
	check := func(game int, out *Outcome) {
		mu.Lock()
		defer mu.Unlock()
		played++
		for s, r := range out.Log.Steps[0].Replies {
			if r.Status != engine.Answered {
				lost++
				notes = append(notes, fmt.Sprintf("game %d seat %d: %s %s", game, s+1, r.Status, out.Notes[s]))
			}
			d := time.Duration(r.Micros) * time.Microsecond
			worst = max(worst, d)
			if d > time.Second {
				late++ // accepted beyond its own second: chained or given back CPU time
			}
		}
	}
	if games == 0 {
		out, err := Play(context.Background(), Match{Game: &grip.Game{}, Seed: 3, Bots: bots})
		if err != nil {
			t.Fatal(err)
		}
		check(1, out)
	} else {
		rounds := (games + 23) / 24
		e := &Event{Game: &grip.Game{}, Bots: bots,
			Config: event.Config{Format: event.League, Entries: entries, Seats: 4, Games: rounds, Seed: 5},
			OnFinished: func(g event.Game, out *Outcome) error {
				check(g.Index+1, out)
				return nil
			}}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d games of 4 Java bots, %d at once on %d cores: %d bots missed READY, %d were ready after more than 1 s; slowest READY %s",
		played, DefaultConcurrency(4), runtime.NumCPU(), lost, late, worst.Round(time.Millisecond))
	if lost > 0 {
		t.Errorf("bots lost at READY:\n%s", strings.Join(notes, "\n"))
	}
}

// A reply longer than the game's longest valid one is invalid, with a
// note saying so, and the runner keeps only the game's bound of it: a
// Grip bot padding its answers to 64 KiB loses its turns, and the log
// holds a few bytes of each; padded to Grip's bound exactly, it plays.
func TestLongReplyInvalidAndCut(t *testing.T) {
	bin := buildGripbot(t)
	for _, c := range []struct {
		pad   int
		valid bool
	}{{65536, false}, {grip.MaxReply + 1, false}, {grip.MaxReply, true}} {
		t.Run(strconv.Itoa(c.pad), func(t *testing.T) {
			bots := []Bot{{Name: "padded", Command: fmt.Sprintf("%s -bot greedy -pad %d", bin, c.pad), Trusted: true}}
			for i := 1; i < 4; i++ {
				bots = append(bots, Bot{Name: "other", Command: bin + " -bot random -seed " + strconv.Itoa(i), Trusted: true})
			}
			out, err := Play(context.Background(), Match{Game: &grip.Game{}, Seed: 3, Bots: bots, TimeScale: 10,
				Options: engine.Options{grip.OptMaxTurns: "40"}})
			if err != nil {
				t.Fatal(err)
			}
			replay, err := engine.Expand(&grip.Game{}, out.Log)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("reply of %d bytes, longer than Grip's longest valid reply (64 bytes)", c.pad)
			answered := 0
			for _, st := range replay.Steps {
				for _, s := range st.Seats {
					if s.Seat != 0 || s.Reply == nil || st.Turn == 0 && s.Action == "READY" {
						continue
					}
					answered++
					if c.valid != (s.Verdict == engine.OK) || !c.valid && s.Detail != want {
						t.Fatalf("turn %d: verdict %v, detail %q; want valid %v (%q)", st.Turn, s.Verdict, s.Detail, c.valid, want)
					}
					if len(*s.Reply) > 100 {
						t.Fatalf("turn %d: %d bytes of the reply kept", st.Turn, len(*s.Reply))
					}
				}
			}
			if answered < 5 {
				t.Errorf("seat 0 answered %d turns; verdicts %v, notes %q", answered, out.Verdicts[0], out.Notes[0])
			}
		})
	}
}

// waitForLine waits until c's bot has sent a line Ringside has not taken
// (or has ended).
func waitForLine(t *testing.T, c *seatConn) {
	t.Helper()
	for end := time.Now().Add(runnertest.Patience(t)); ; time.Sleep(time.Millisecond) {
		if _, ok, ended := c.out.peek(); ok || ended {
			return
		}
		if time.Now().After(end) {
			t.Fatal("the late answer never came")
		}
	}
}
