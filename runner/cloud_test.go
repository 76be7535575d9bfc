package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/cloud"
	"ringside/engine/games"
	"ringside/runner/runnertest"
)

// Cloud protocol tests through real sockets and processes, with clients
// written from the seed text (testdata/seedbot), which its flags make
// misbehave.

var (
	seedbotOnce sync.Once
	seedbotBin  string
	seedbotErr  error
)

func buildSeedBot(t *testing.T) string {
	t.Helper()
	seedbotOnce.Do(func() {
		out := filepath.Join(filepath.Dir(fakebot), "seedbot")
		if _, err := os.Stat(out); err == nil && os.Getenv("RINGSIDE_TEST_BINS") != "" {
			seedbotBin = out
			return
		}
		seedbotErr = runnertest.GoBuild(out, "./testdata/seedbot")
		seedbotBin = out
	})
	if seedbotErr != nil {
		t.Fatalf("build seedbot: %v", seedbotErr)
	}
	return seedbotBin
}

// cloudGame is one played Cloud game with what Apply said per step.
type cloudGame struct {
	out   *Outcome
	steps []engine.Step
}

// playCloudBots plays a Cloud game between the given bot commands.
func playCloudBots(t *testing.T, opts engine.Options, scale float64, commands ...string) cloudGame {
	t.Helper()
	return playCloudWith(t, Match{TimeScale: scale}, opts, commands...)
}

// playCloudWith plays a Cloud game between the given bot commands, with
// m's sandbox, time scale and test settings.
func playCloudWith(t *testing.T, m Match, opts engine.Options, commands ...string) cloudGame {
	t.Helper()
	g, err := games.Get("cloud")
	if err != nil {
		t.Fatal(err)
	}
	var bots []Bot
	for i, c := range commands {
		bots = append(bots, Bot{Name: fmt.Sprintf("p%d", i+1), Command: c})
	}
	var game cloudGame
	m.Game, m.Seed, m.Bots, m.Options = g, 7, bots, opts
	m.OnStep = func(_ int, _ engine.State, step engine.Step) { game.steps = append(game.steps, step) }
	game.out, err = Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return game
}

// stamp reads "KEY: UNIXNANO" from a seat's stderr.
func stamp(t *testing.T, stderr, key string) time.Time {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + key + `: (\d+)$`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no %q in stderr:\n%s", key, stderr)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return time.Unix(0, n)
}

// TestCloudSeedClientPlaysWholeGame plays a whole game of default length
// between two clients written from the seed: status lines compared
// exactly, the login over two lines, "I" for left, untagged replies in the
// seed's spacing, friendly fire that kills its own bots, and once a shot
// at [2^63, 0].
func TestCloudSeedClientPlaysWholeGame(t *testing.T) {
	bin := buildSeedBot(t)
	for _, transport := range []string{"tcp", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			// Ten times the limits: each of 600 answers must be in time.
			game := playCloudBots(t, engine.Options{"transport": transport}, 10,
				bin+" -huge-fire 5", bin)
			out := game.out
			turns := len(out.Log.Steps)
			if turns != 300 || out.Log.Result.Turns != 300 {
				t.Fatalf("played %d steps, result %+v; want the whole game of 300 turns", turns, out.Log.Result)
			}
			for seat := range 2 {
				if got := counts(out, seat); got[engine.OK] != turns {
					t.Errorf("seat %d verdicts = %v, want %d ok; notes %q; stderr:\n%s", seat, got, turns, out.Notes[seat], out.Stderr[seat])
				}
				if strings.Contains(out.Stderr[seat], "seedbot:") {
					t.Errorf("seat %d: the seed client tripped:\n%s", seat, out.Stderr[seat])
				}
			}
			left := 0
			for _, s := range game.steps {
				for _, ss := range s.Seats {
					left += strings.Count(ss.Action, ":l")
				}
			}
			if left == 0 {
				t.Errorf(`no move "I" was applied as left`)
			}
			// The shot at [2^63, 0] is dropped; the bot's move stands.
			huge := game.steps[4].Seats[0]
			if !strings.Contains(huge.Detail, "shot at [9223372036854775808,0] dropped") || !strings.Contains(huge.Action, "bot1:") {
				t.Errorf("turn 5: action %q, detail %q; want the move kept and only the shot dropped", huge.Action, huge.Detail)
			}
			// A dead bot of its own is listed with the cells within range
			// of where it died, as in the seed's example.
			dead := regexp.MustCompile(`(?m)^dead-can-shoot: bot\d+ (\d+)$`).FindAllStringSubmatch(out.Stderr[0], -1)
			if len(dead) == 0 {
				t.Fatalf("no dead bot of its own was ever listed:\n%s", out.Stderr[0])
			}
			for _, d := range dead {
				if d[1] == "0" {
					t.Errorf("a dead bot was listed with an empty can_shoot")
					break
				}
			}
		})
	}
}

// TestCloudConfigAfterLastLogin: the field config goes to every bot once
// the last one has logged in, not at each login.
func TestCloudConfigAfterLastLogin(t *testing.T) {
	bin := buildSeedBot(t)
	for _, transport := range []string{"tcp", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			game := playCloudBots(t, engine.Options{"transport": transport, "turns": "3"}, 10,
				bin+" -plain", bin+" -plain -login-delay 700ms")
			out := game.out
			early := stamp(t, out.Stderr[0], "config-at")
			last := stamp(t, out.Stderr[1], "login-at")
			if early.Before(last) {
				t.Errorf("seat 1 got the field config %v before seat 2 logged in", last.Sub(early))
			}
			for seat := range 2 {
				if got := counts(out, seat); got[engine.OK] != 3 {
					t.Errorf("seat %d verdicts = %v, want 3 ok:\n%s", seat, got, out.Stderr[seat])
				}
			}
		})
	}
}

// TestCloudLateOnceBackInStep: a client that answers one state too late,
// without turn_no, is back in step on the next turn: every reply taken is
// the answer to that turn's state, never the previous one's.
func TestCloudLateOnceBackInStep(t *testing.T) {
	t.Parallel()
	bin := buildSeedBot(t)
	for _, transport := range []string{"tcp", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			// At a quarter speed (turns of 1.2 s): turn 3's answer comes
			// 400 ms late, in the middle of turn 4; every other answer
			// takes 80 ms, as a client that thinks does (it reads turn
			// 4's state only after answering 3).
			game := playCloudBots(t, engine.Options{"transport": transport, "turns": "10", "turn_ms": "300"}, 4,
				bin+" -plain", bin+" -plain -think 80ms -late-turn 3 -late 1600ms")
			out := game.out
			seen := regexp.MustCompile(`"seen": (\d+)`)
			after := 0
			for i, s := range out.Log.Steps {
				r := s.Replies[1]
				if r.Status != engine.Answered {
					continue
				}
				m := seen.FindStringSubmatch(r.Line)
				if m == nil {
					t.Errorf("turn %d: reply %q has no marker", i+1, r.Line)
					continue
				}
				if m[1] != strconv.Itoa(i+1) {
					t.Errorf("turn %d took the answer to turn %s: %q", i+1, m[1], r.Line)
				}
				if i+1 > 3 {
					after++
				}
			}
			if after < 5 {
				t.Errorf("only %d of the 7 turns after the late one were answered; verdicts %v", after, counts(out, 1))
			}
			if game.steps[2].Seats[1].Verdict != engine.Timeout {
				t.Errorf("turn 3 verdict %v, want timeout", game.steps[2].Seats[1].Verdict)
			}
			var noise []string
			for _, s := range out.Log.Steps {
				for _, n := range s.Noise {
					noise = append(noise, n.Line)
				}
			}
			if len(noise) != 1 || !strings.Contains(noise[0], `"seen": 3`) {
				t.Errorf("noise = %q, want the late answer to turn 3 only", noise)
			}
		})
	}
}

// TestCloudExitedBotCrashedAtOnce: a bot whose process has ended does not
// hold the game up for the login time, and it is crashed — also when
// turn_ms is shorter than the grace given to a dying bot's last lines.
func TestCloudExitedBotCrashedAtOnce(t *testing.T) {
	seed := buildSeedBot(t) + " -plain"
	// Far longer than the game takes on the busiest machine: a game that
	// waited it out took at least this long, one that did not never does
	// (no bound on the game's own time, which a loaded machine stretches).
	const login = 5 * time.Minute
	for _, transport := range []string{"tcp", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			began := time.Now()
			game := playCloudWith(t, Match{loginTimeout: login}, engine.Options{"transport": transport, "turns": "5", "turn_ms": "50"},
				seed, seed+" -exit-first")
			if wall := time.Since(began); wall >= login {
				t.Errorf("the game took %v: it waited out the login time (%v) for a bot that had exited", wall, login)
			}
			if got := counts(game.out, 1); got[engine.Crashed] != 5 {
				t.Errorf("exited bot verdicts = %v, want 5 crashed; notes %q", got, game.out.Notes[1])
			}
			if !strings.Contains(game.out.Notes[1], "exit status 3") {
				t.Errorf("note %q does not say how the bot ended", game.out.Notes[1])
			}
		})
	}
	// A bot that ends during the game (on reading turn 3's state), with
	// turns shorter than the time its last lines are given: 50 ms at ten
	// times the limits, so that the good turns before it are good on a
	// busy machine, and the grace raised to stay longer than them. Turn
	// 3 is crashed if Ringside sees the end within the turn, else a
	// timeout; every turn after it is crashed, without waiting.
	oldGrace := exitGrace
	exitGrace = 2 * time.Second
	t.Cleanup(func() { exitGrace = oldGrace })
	for _, transport := range []string{"tcp", "stdio"} {
		t.Run(transport+"/later", func(t *testing.T) {
			game := playCloudBots(t, engine.Options{"transport": transport, "turns": "6", "turn_ms": "50"}, 10,
				seed, seed+" -exit-at 3")
			var got []engine.Verdict
			for _, s := range game.steps {
				got = append(got, s.Seats[1].Verdict)
			}
			want := []engine.Verdict{engine.OK, engine.OK, got[2], engine.Crashed, engine.Crashed, engine.Crashed}
			if (got[2] != engine.Crashed && got[2] != engine.Timeout) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("verdicts by turn = %v, want ok ok crashed-or-timeout crashed crashed crashed; notes %q", got, game.out.Notes[1])
			}
		})
	}
}

// TestCloudDroppedConnectionIsTimeout: the connection drops, the process
// lives on: every turn is a timeout (the bot may still log in again), as
// docs/cloud.md's table says.
func TestCloudDroppedConnectionIsTimeout(t *testing.T) {
	t.Parallel()
	seed := buildSeedBot(t) + " -plain"
	game := playCloudBots(t, engine.Options{"turns": "5", "turn_ms": "100"}, 10, seed, seed+" -drop-at 3")
	if got := counts(game.out, 1); got[engine.OK] != 2 || got[engine.Timeout] != 3 {
		t.Errorf("verdicts = %v, want 2 ok then 3 timeouts", got)
	}
}

// TestCloudLoginNoteScaled: the note of a bot that did not log in names the
// wait it had, time scale included.
func TestCloudLoginNoteScaled(t *testing.T) {
	t.Parallel()
	bin := buildTCPBot(t)
	game := playCloudWith(t, Match{TimeScale: 2, loginTimeout: 500 * time.Millisecond}, engine.Options{"turns": "2"},
		buildSeedBot(t)+" -plain", bin+" -mode never")
	if !strings.Contains(game.out.Notes[1], "did not log in within 1s") {
		t.Errorf("note %q, want the scaled wait of 1s", game.out.Notes[1])
	}
}

// TestCloudLongLineNoted: a TCP line over the game's longest valid reply
// is kept cut there, with its length, and judged invalid, as for stdio.
func TestCloudLongLineNoted(t *testing.T) {
	seed := buildSeedBot(t) + " -plain"
	game := playCloudBots(t, engine.Options{"turns": "3"}, 10, seed, seed+" -long-at 2")
	r := game.out.Log.Steps[1].Replies[1]
	if len(r.Line) > cloud.MaxReply+32 {
		t.Errorf("kept %d bytes of the long line, want about %d", len(r.Line), cloud.MaxReply)
	}
	replay, err := engine.Expand(cloud.Game{}, game.out.Log)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("reply of %d bytes, longer than Cloud Contest's longest valid reply (%d bytes)", 100<<10+10, cloud.MaxReply)
	if s := replay.Steps[1].Seats[1]; s.Verdict != engine.Invalid || !strings.HasPrefix(s.Detail, want) {
		t.Errorf("turn 2: verdict %v, detail %q; want invalid, %q", s.Verdict, s.Detail, want)
	}
}
