package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// fakebot and hostile are the test bots TestMain builds; testDir is its
// folder for them and for other builds, removed when the tests end.
var fakebot, hostile, testDir string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		// This test binary is runner.Executable: it launches the
		// sandboxed bots of the tests, as the ringside binary does.
		sandbox.Main()
	}
	if os.Getenv("RINGSIDE_TEST_HELPER") == "event" {
		hostile = filepath.Join(os.Getenv("RINGSIDE_TEST_BINS"), "hostile")
		eventHelper()
	}
	runnertest.PythonFirst()
	runnertest.ShareUserCache()
	done := func() {}
	if os.Getenv(runnertest.UnprivilegedEnv) == "" && os.Getenv(BotsEnv) == "" {
		// Bots start through the command line build (BotsEnv), as in
		// the app's tests: a start costs a third of this race-built
		// binary's. A run as nobody starts them through this binary.
		links, linked, err := runnertest.LinkRingside(runnertest.Bots)
		if err != nil {
			panic(err)
		}
		os.Setenv(BotsEnv, links[0])
		done = linked
	}
	dir, err := os.MkdirTemp("", "ringside-runner-test")
	if err != nil {
		panic(err)
	}
	testDir = dir
	fakebot = filepath.Join(dir, "fakebot")
	hostile = filepath.Join(dir, "hostile")
	if bins := os.Getenv("RINGSIDE_TEST_BINS"); bins != "" {
		// TestSandboxUnprivileged hands its run the bots it built.
		fakebot, hostile = filepath.Join(bins, "fakebot"), filepath.Join(bins, "hostile")
	}
	for bin, src := range map[string]string{fakebot: "./testdata/fakebot", hostile: "./testdata/hostile"} {
		if _, err := os.Stat(bin); err == nil {
			continue
		}
		if err := runnertest.GoBuild(bin, src); err != nil {
			panic(err)
		}
	}
	// The tests that run side by side wait for deadlines, logins and
	// bots' thinking.
	runnertest.ParallelWaiters(8)
	code := m.Run()
	os.RemoveAll(dir)
	done()
	os.Exit(code)
}

// counts is a seat's verdict counts as a map, for readable comparisons.
func counts(o *Outcome, seat int) map[engine.Verdict]int {
	m := map[engine.Verdict]int{}
	for v, n := range o.Verdicts[seat] {
		if n > 0 {
			m[engine.Verdict(v)] = n
		}
	}
	return m
}

func TestBotMisbehaviour(t *testing.T) {
	tests := []struct {
		mode string
		want map[engine.Verdict]int // seat 0 of a one-seat, 8-turn ping game, READY included
		note string                 // expected in the seat's notes or replay
	}{
		{"good", map[engine.Verdict]int{engine.OK: 9}, ""},
		{"sleep", map[engine.Verdict]int{engine.OK: 3, engine.Timeout: 1, engine.NotAsked: 5}, ""},
		{"exit", map[engine.Verdict]int{engine.OK: 3, engine.Crashed: 1, engine.NotAsked: 5}, "exit status 3"},
		{"noready", map[engine.Verdict]int{engine.Timeout: 1, engine.NotAsked: 8}, ""},
		{"garbage", map[engine.Verdict]int{engine.OK: 8, engine.Invalid: 1}, ""},
		{"longline", map[engine.Verdict]int{engine.OK: 3, engine.Timeout: 1, engine.NotAsked: 5}, ""},
		{"stderr", map[engine.Verdict]int{engine.OK: 9}, ""},
		{"grandchild", map[engine.Verdict]int{engine.OK: 9}, ""},
		{"closeout", map[engine.Verdict]int{engine.OK: 3, engine.Crashed: 1, engine.NotAsked: 5}, "closed its output"},
		{"chatty", map[engine.Verdict]int{engine.OK: 9}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			goroutines := matchGoroutines()
			pids := filepath.Join(t.TempDir(), "pids")
			// A bot expected never to be late gets time to spare: 20 MB
			// of stderr took longer than a turn's limit on a machine
			// running four test packages at once.
			scale := 1.0
			if tt.want[engine.Timeout] == 0 {
				scale = 10
			}
			out, err := Play(context.Background(), Match{
				Game: pingGame{}, Seed: 1, TimeScale: scale,
				Bots: []Bot{{Name: tt.mode, Command: fakebot + " -mode " + tt.mode + " -k 2",
					Env: []string{"FAKEBOT_PIDS=" + pids}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := counts(out, 0); !equalCounts(got, tt.want) {
				t.Errorf("verdicts = %v, want %v", got, tt.want)
			}
			if tt.note != "" && !strings.Contains(allNotes(out), tt.note) {
				t.Errorf("notes %q lack %q", allNotes(out), tt.note)
			}
			if len(out.Stderr[0]) > StderrKept {
				t.Errorf("kept %d bytes of stderr, limit %d", len(out.Stderr[0]), StderrKept)
			}
			if _, err := engine.Expand(pingGame{}, out.Log); err != nil {
				t.Errorf("replay does not re-simulate: %v", err)
			}
			assertNoProcesses(t, pids)
			runnertest.AssertNoneLeft(t, fakebot)
			assertGoroutines(t, goroutines)
		})
	}
}

func TestChattyNoiseKept(t *testing.T) {
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Bots: []Bot{{Name: "c", Command: fakebot + " -mode chatty -k 1"}}})
	if err != nil {
		t.Fatal(err)
	}
	var noise []string
	for _, s := range out.Log.Steps {
		for _, n := range s.Noise {
			noise = append(noise, n.Line)
		}
	}
	want := []string{"hello from fakebot", "noise 1", "noise 2"}
	if strings.Join(noise, "|") != strings.Join(want, "|") {
		t.Errorf("noise = %q, want %q", noise, want)
	}
}

func TestStartFailureIsCrashedSeat(t *testing.T) {
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10, Bots: []Bot{
		{Name: "ok", Command: fakebot},
		{Name: "missing", Command: "/nonexistent/bot --x"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(out, 1); got[engine.Crashed] != 1 || got[engine.OK] != 0 {
		t.Errorf("missing bot verdicts = %v, want one crash", got)
	}
	if !strings.Contains(out.Notes[1], "cannot start") {
		t.Errorf("note = %q", out.Notes[1])
	}
	if got := counts(out, 0); got[engine.OK] != 5 {
		t.Errorf("good bot verdicts = %v", got)
	}
}

func TestNoBotStarts(t *testing.T) {
	_, err := Play(context.Background(), Match{Game: pingGame{}, Bots: []Bot{{Command: "/nonexistent/bot"}}})
	if !errors.Is(err, ErrNoBotStarted) {
		t.Fatalf("err = %v, want ErrNoBotStarted", err)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		m    Match
		want string
	}{
		{Match{Game: pingGame{}, Bots: nil}, "needs 1 to 4 bots"},
		{Match{Game: pingGame{}, Bots: []Bot{{Command: fakebot}}, Options: engine.Options{"speed": "1"}}, `no option "speed"`},
		{Match{Game: pingGame{}, Bots: []Bot{{Command: `"unclosed`}}}, "unclosed double quote"},
		{Match{Game: pingGame{}, Bots: []Bot{{Command: "builtin:greedy"}}}, "builtin:GAME/NAME"},
	}
	for _, tt := range tests {
		_, err := Play(context.Background(), tt.m)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
}

// TestParallelSeats asks four bots at once each turn; one of them sleeps.
func TestParallelSeats(t *testing.T) {
	var bots []Bot
	for i, mode := range []string{"good", "sleep", "good", "garbage"} {
		bots = append(bots, Bot{Name: strconv.Itoa(i), Command: fakebot + " -mode " + mode})
	}
	// At a quarter speed (turns of 1.2 s) the good seats answer in time
	// on a busy machine too, and the sleeper's 2 s nap is still late.
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 3, Bots: bots, TimeScale: 4,
		Options: engine.Options{"all": "1", "turns": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(out, 1); got[engine.Timeout] != 1 || got[engine.OK] != 3 {
		t.Errorf("sleeper = %v", got)
	}
	if got := counts(out, 3); got[engine.Invalid] != 1 || got[engine.OK] != 5 {
		t.Errorf("garbage = %v", got)
	}
	if got := counts(out, 0); got[engine.OK] != 6 {
		t.Errorf("good = %v", got)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m := Match{Game: pingGame{}, Seed: 1, Options: engine.Options{"turns": "100000"},
		Bots: []Bot{{Command: fakebot}}}
	m.OnStep = func(i int, _ engine.State, _ engine.Step) {
		if i == 20 {
			cancel()
		}
	}
	out, err := Play(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Log.Aborted == "" || len(out.Log.Steps) != 21 {
		t.Errorf("aborted=%q steps=%d, want aborted after 21 steps", out.Log.Aborted, len(out.Log.Steps))
	}
}

func TestTimeScale(t *testing.T) {
	// The sleeper's 2 s nap fits into 300 ms × 10; the game sees it as
	// about 200 ms, so the replay stays comparable across machines.
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Options: engine.Options{"turns": "4"}, Bots: []Bot{{Command: fakebot + " -mode sleep -k 1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(out, 0); got[engine.OK] != 5 {
		t.Fatalf("verdicts = %v", got)
	}
	us := out.Log.Steps[2].Replies[0].Micros
	if us < 190_000 || us > 300_000 {
		t.Errorf("scaled time = %d µs, want about 200 000", us)
	}
}

func equalCounts(a, b map[engine.Verdict]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// allNotes joins the outcome's notes and the replay's non-empty ones.
func allNotes(o *Outcome) string {
	var b strings.Builder
	b.WriteString(strings.Join(o.Notes, "|"))
	for _, st := range o.Log.Steps {
		for _, r := range st.Replies {
			if r.Note != "" {
				b.WriteString("|" + r.Note)
			}
		}
	}
	return b.String()
}

// assertNoProcesses checks that every pid a fake bot recorded is gone (a
// zombie waiting for init counts as gone).
func assertNoProcesses(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return // the bot never started far enough to write it
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		deadline := time.Now().Add(2 * time.Second)
		for runnertest.Alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d outlived its game", pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// assertGoroutines waits until no more goroutines run than before, not
// counting the sandbox's pool of waiting launchers: it is the process's,
// not a match's, and refills itself in the background.
func assertGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for matchGoroutines() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("goroutines: %d before, %d after\n%s", before, matchGoroutines(), buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRelativeProgramInBotFolder runs "./fakebot" from the bot's folder,
// as a teacher writes the run command of a compiled bot.
func TestRelativeProgramInBotFolder(t *testing.T) {
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, TimeScale: 10,
		Bots: []Bot{{Name: "rel", Command: "./fakebot", Dir: filepath.Dir(fakebot)}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(out, 0); got[engine.OK] != 9 {
		t.Errorf("verdicts = %v, notes %q", got, out.Notes)
	}
}

// matchGoroutines counts the goroutines except the sandbox pool's.
func matchGoroutines() int {
	buf := make([]byte, 1<<20)
	stacks := strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
	n := 0
	for _, s := range stacks {
		if !strings.Contains(s, "runner/sandbox.takeWarm") && !strings.Contains(s, "runner/sandbox.DropWarm") &&
			!strings.Contains(s, "runner/sandbox.(*warm).discard") && !strings.Contains(s, "runner/sandbox.Prewarm") {
			n++
		}
	}
	return n
}

// TestSeatOptions: a bot's own options reach the log as key@SEAT, so the
// match replays with them, and the match's own map is left alone.
func TestSeatOptions(t *testing.T) {
	match := engine.Options{"coords": "rc"}
	bots := []Bot{{}, {Options: engine.Options{"coords": "xy"}}, {}, {Options: engine.Options{"coords": "rc"}}}
	got := SeatOptions(match, bots)
	want := engine.Options{"coords": "rc", "coords@1": "xy", "coords@3": "rc"}
	if len(got) != len(want) {
		t.Fatalf("seatOptions = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("seatOptions[%s] = %q, want %q", k, got[k], v)
		}
	}
	if len(match) != 1 {
		t.Errorf("the match's options changed: %v", match)
	}
	if got := SeatOptions(match, []Bot{{}, {}}); len(got) != 1 {
		t.Errorf("no bot options: %v", got)
	}
}

// TestPaceAndOnLog: a paced game takes at least turns/pace seconds, its
// bots' reply times do not include the waits (the limit of 300 ms per
// reply is far below the 2 s the game takes), and OnLog sees the game
// start and every step in order.
func TestPaceAndOnLog(t *testing.T) {
	var seen []int
	out, err := Play(context.Background(), Match{Game: pingGame{}, Seed: 1, Pace: 4,
		Options: engine.Options{"turns": "8"}, Bots: []Bot{{Command: fakebot}},
		OnLog: func(log *engine.Log) {
			if log.Game != "ping" || len(log.Players) != 1 {
				t.Errorf("OnLog header = %q %v", log.Game, log.Players)
			}
			seen = append(seen, len(log.Steps))
		}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(out, 0); got[engine.OK] != 9 {
		t.Fatalf("verdicts = %v: the pace must not cost a bot its turns", got)
	}
	// 8 turns after the handshake at 4 a second: at least 7/4 s between
	// the first and the last ask.
	if out.Wall < 1750*time.Millisecond {
		t.Errorf("8 turns at pace 4 took %v, want at least 1.75 s", out.Wall)
	}
	want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("OnLog saw step counts %v, want %v", seen, want)
	}
}
