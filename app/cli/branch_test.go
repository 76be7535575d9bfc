package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/runner"
)

// stepsJSON is steps as JSON, with the measured times and what they leave
// of a time bank left out when untimed: a bot answers as it did, but not
// in the same microsecond.
func stepsJSON(t *testing.T, steps []engine.ReplayStep, untimed bool) string {
	t.Helper()
	if untimed {
		var c []engine.ReplayStep
		data, _ := json.Marshal(steps)
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		for i := range c {
			for j := range c[i].Seats {
				c[i].Seats[j].Millis = 0
				c[i].Seats[j].Input = untimeBank(c[i].Seats[j].Input)
			}
		}
		steps = c
	}
	data, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// untimeBank blanks Battle 2048's TimeLeft, the second number of its
// "Turn TimeLeft MyScore OpponentScore" first line: the time bank is what
// the measured times left of it (a reply of 1 ms under load, 0 ms in the
// original, and 99999 is not 100000). No other game's input starts with a
// line of four numbers.
func untimeBank(input string) string {
	first, rest, ok := strings.Cut(input, "\n")
	f := strings.Fields(first)
	if !ok || len(f) != 4 {
		return input
	}
	for _, x := range f {
		if _, err := strconv.Atoi(x); err != nil {
			return input
		}
	}
	f[1] = "-"
	return strings.Join(f, " ") + "\n" + rest
}

// firstDifference says where two replays of one game part (times aside).
func firstDifference(t *testing.T, a, b *engine.Replay) string {
	for i := range min(len(a.Steps), len(b.Steps)) {
		if x, y := stepsJSON(t, a.Steps[i:i+1], true), stepsJSON(t, b.Steps[i:i+1], true); x != y {
			return fmt.Sprintf("step %d differs:\n%s\n%s", i, x, y)
		}
	}
	if len(a.Steps) != len(b.Steps) {
		return fmt.Sprintf("%d steps, want %d", len(a.Steps), len(b.Steps))
	}
	if !reflect.DeepEqual(a.Events, b.Events) {
		return fmt.Sprintf("events differ:\n%v\n%v", a.Events, b.Events)
	}
	return "the same steps and events"
}

// TestReplayBranch branches a stored game of every game through the real
// binary: with the seat's own bot it is the original game again (result
// and replay, times aside); with another bot every step before the branch
// is the original's byte for byte and the game goes another way after.
// Cloud runs over TCP, its default transport.
func TestReplayBranch(t *testing.T) {
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		game    string
		entries []string
		opts    []string
		turn    int
		seat    int
		other   string // another bot for the seat
	}{
		{"grip", []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/greedy"},
			[]string{"max_turns=300"}, 20, 1, "builtin:grip/greedy"},
		{"battle2048", []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}, nil, 10, 1, "builtin:battle2048/greedy"},
		{"cloud", []string{"builtin:cloud/hunter", "builtin:cloud/random"}, []string{"turns=60", "transport=tcp"}, 20, 1, "builtin:cloud/squad"},
	}
	for _, tc := range tests {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "b.db")
			run := func(args ...string) string {
				t.Helper()
				code, out, errs := ringsideAs(t, exe, nil, append(args, "--db", db)...)
				if code != 0 {
					t.Fatalf("ringside %v: exit %d: %s", args, code, errs)
				}
				return out
			}
			// Time to spare: a reply timed out under load in the original
			// is not the same game when branched.
			args := []string{"event", "create", "--game", tc.game, "--games", "1", "--seed", "5", "--time-scale", "5"}
			for _, e := range tc.entries {
				args = append(args, "--entry", e)
			}
			for _, o := range tc.opts {
				args = append(args, "--opt", o)
			}
			run(args...)
			run("event", "run", "1", "--quiet")
			orig := filepath.Join(dir, "orig.json")
			run("replay", "export", "1", "--out", orig)
			original := fixture.ReadReplay(t, orig)
			seatBot := original.Players[tc.seat]
			seatBot, _, _ = strings.Cut(seatBot, "#")

			for _, bot := range []string{seatBot, tc.other} {
				file := filepath.Join(dir, "branch.json")
				out := run("replay", "branch", "1", "--turn", itoa(tc.turn), "--seat", itoa(tc.seat), "--bot", bot, "--replay", file)
				var res struct {
					Ranks        []int  `json:"ranks"`
					Reason       string `json:"reason"`
					Turns        int    `json:"turns"`
					Seats        []struct{ Bot string }
					BranchedFrom *struct{ Match, Turn, Seat int } `json:"branched_from"`
				}
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatalf("branch printed %q: %v", out, err)
				}
				if b := res.BranchedFrom; b == nil || b.Match != 1 || b.Turn != tc.turn || b.Seat != tc.seat {
					t.Errorf("branched_from = %+v in %s", b, out)
				}
				if res.Seats[tc.seat].Bot != bot {
					t.Errorf("seat %d is played by %q, want %q", tc.seat, res.Seats[tc.seat].Bot, bot)
				}
				br := fixture.ReadReplay(t, file)
				info := br.Branch
				if info == nil || info.Step <= 0 || info.Seat != tc.seat || info.Turn != tc.turn {
					t.Fatalf("the branch's replay says %+v", info)
				}
				if br.Steps[info.Step].Turn < tc.turn || br.Steps[info.Step-1].Turn >= tc.turn {
					t.Errorf("branch step %d is at turn %d (the one before at %d), want the first step of turn %d",
						info.Step, br.Steps[info.Step].Turn, br.Steps[info.Step-1].Turn, tc.turn)
				}
				// The seat's bot was fed every input it had before the
				// branch, its answers kept apart.
				want := 0
				for _, st := range original.Steps[:info.Step] {
					for _, s := range st.Seats {
						if s.Seat == tc.seat && !s.Unasked {
							want++
						}
					}
				}
				if len(info.Warmup) != want || want == 0 {
					t.Errorf("%d warm-up answers, want %d (the seat's inputs before the branch)", len(info.Warmup), want)
				}
				if stepsJSON(t, br.Steps[:info.Step], false) != stepsJSON(t, original.Steps[:info.Step], false) {
					t.Fatalf("%s: the steps before the branch differ from the original's", bot)
				}
				same := stepsJSON(t, br.Steps, true) == stepsJSON(t, original.Steps, true) &&
					reflect.DeepEqual(br.Result, original.Result) && reflect.DeepEqual(br.Events, original.Events)
				if bot == seatBot {
					if !same {
						t.Errorf("branching with the seat's own bot %s did not give the original game: result %+v, want %+v; %s",
							bot, br.Result, original.Result, firstDifference(t, br, original))
					}
					if !reflect.DeepEqual(res.Ranks, original.Result.Ranks) || res.Turns != original.Result.Turns {
						t.Errorf("printed ranks %v after %d turns, want %v after %d", res.Ranks, res.Turns, original.Result.Ranks, original.Result.Turns)
					}
					for s, from := range info.Live {
						if s != tc.seat && from != -1 {
							t.Errorf("seat %d went live at step %d though the game stayed the same", s, from)
						}
					}
				} else {
					if same {
						t.Errorf("branching with %s gave the original game again", bot)
					}
				}
			}
		})
	}
}

func TestReplayBranchRefuses(t *testing.T) {
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "b.db")
	for _, args := range [][]string{
		{"event", "create", "--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--games", "1", "--seed", "2"},
		{"event", "run", "1", "--quiet"},
	} {
		if code, _, errs := ringsideAs(t, exe, nil, append(args, "--db", db)...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"1", "--seat", "0", "--bot", "x"}, "--turn T is required"},
		{[]string{"1", "--turn", "3", "--bot", "x"}, "--seat S is required"},
		{[]string{"1", "--turn", "3", "--seat", "0"}, "--bot CMD is required"},
		{[]string{"1", "--turn", "3", "--seat", "2", "--bot", "builtin:battle2048/random"}, "seat 2: the game has seats 0 to 1"},
		{[]string{"1", "--turn", "100000", "--seat", "0", "--bot", "builtin:battle2048/random"}, "turn 100000: the game ended at turn"},
		{[]string{"1", "--turn", "3", "--seat", "0", "--bot", "builtin:grip/random"}, "is a bot for grip, not battle2048"},
		{[]string{"9", "--turn", "3", "--seat", "0", "--bot", "builtin:battle2048/random"}, "9"},
	}
	for _, tc := range tests {
		code, _, errs := ringsideAs(t, exe, nil, append(append([]string{"replay", "branch"}, tc.args...), "--db", db)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("replay branch %v: exit %d, %q; want an error saying %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestReplayBranchBadBot branches with a program that cannot start: the
// seat crashes from the branch on, and the game before it is untouched.
func TestReplayBranchBadBot(t *testing.T) {
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	for _, args := range [][]string{
		{"event", "create", "--game", "battle2048", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--games", "1", "--seed", "2"},
		{"event", "run", "1", "--quiet"},
		{"replay", "export", "1", "--out", filepath.Join(dir, "orig.json")},
	} {
		if code, _, errs := ringsideAs(t, exe, nil, append(args, "--db", db)...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	file := filepath.Join(dir, "branch.json")
	code, out, errs := ringsideAs(t, exe, nil, "replay", "branch", "1", "--turn", "4", "--seat", "0", "--bot", filepath.Join(dir, "no-such-bot"),
		"--replay", file, "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res playResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Seats[0].Verdicts["crashed"] == 0 || res.Ranks[0] != 2 {
		t.Errorf("a bot that cannot start should crash and lose: %s", out)
	}
	orig, br := fixture.ReadReplay(t, filepath.Join(dir, "orig.json")), fixture.ReadReplay(t, file)
	if k := br.Branch.Step; stepsJSON(t, br.Steps[:k], false) != stepsJSON(t, orig.Steps[:k], false) {
		t.Errorf("the steps before the branch changed")
	}
}

// TestReplayBranchRevision branches with a registered AI's revision
// (NAME@rN), the way a student tries a fix.
func TestReplayBranchRevision(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	addPyBot(t, filepath.Join(dir, "bob"), "bob", db)
	// Ten times Grip's limits (the branch keeps the event's): bob must
	// play cleanly on a machine busy with other tests or a CPU hog.
	mustRingside(t, "event", "create", "--game", "grip", "--games", "1", "--seed", "3", "--opt", "max_turns=60", "--time-scale", "10", "--db", db,
		"--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random", "--entry", "builtin:grip/random", "--entry", "builtin:grip/greedy")
	mustRingside(t, "event", "run", "1", "--quiet", "--db", db)
	out := mustRingside(t, "replay", "branch", "1", "--turn", "8", "--seat", "2", "--bot", "bob@r1", "--db", db)
	var res branchResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Seats[2].Bot != "bob r1" || res.BranchedFrom != (branchedFrom{Match: 1, Turn: 8, Seat: 2}) {
		t.Errorf("branch with bob@r1 printed %s", out)
	}
	if v := res.Seats[2].Verdicts; v["crashed"]+v["invalid"]+v["timeout"] > 0 || v["ok"] == 0 {
		t.Errorf("bob@r1 did not play cleanly: %v (%s)", v, res.Seats[2].Note)
	}
	code, _, errs := ringside(t, "replay", "branch", "1", "--turn", "8", "--seat", "2", "--bot", "bob@r9", "--db", db)
	if code != 2 || !strings.Contains(errs, "AI bob has no revision 9") {
		t.Errorf("bob@r9: exit %d, %q", code, errs)
	}
}
