package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/runner/runnertest"
)

// TestReplayDiff plays games of built-ins and compares their replays
// with "ringside replay diff": the same seed twice is the same game (in
// Battle 2048 with the measured TimeLeft named apart), another bot in a
// seat parts at its first different choice, and what is not a replay is
// refused with status 2.
func TestReplayDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	play := func(name, game string, bots ...string) string {
		file := filepath.Join(dir, name+".json")
		args := []string{"play", "--game", game, "--seed", "5", "--replay", file, "--time-scale", "10"}
		if game == "grip" {
			args = append(args, "--opt", "max_turns=200")
		} else {
			args = append(args, "--opt", "rounds=80")
		}
		for _, b := range bots {
			args = append(args, "--bot", b)
		}
		mustRingside(t, args...)
		return file
	}
	grip := []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}
	g1, g2 := play("g1", "grip", grip...), play("g2", "grip", grip...)
	g3 := play("g3", "grip", append(grip[:3:3], "builtin:grip/greedy")...)
	b1 := play("b1", "battle2048", "builtin:battle2048/greedy", "builtin:battle2048/greedy")
	b2 := play("b2", "battle2048", "builtin:battle2048/greedy", "builtin:battle2048/greedy")
	for _, tt := range []struct {
		a, b  string
		code  int
		want  []string
		avoid []string
	}{
		{g1, g2, 0, []string{"the same game, move for move"}, []string{"measured", "players"}},
		{b1, b2, 0, []string{"the same game, move for move"}, nil},
		{g1, g3, 1, []string{"players: seat 3: builtin:grip/random#2, then builtin:grip/greedy#3", "a different choice", "seat 3"}, nil},
		{g1, b1, 1, []string{"different games: grip and battle2048"}, nil},
	} {
		code, out, errs := ringside(t, "replay", "diff", tt.a, tt.b)
		if code != tt.code {
			t.Errorf("replay diff %s %s: exit %d, want %d\n%s%s", filepath.Base(tt.a), filepath.Base(tt.b), code, tt.code, out, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("replay diff %s %s: no %q in\n%s", filepath.Base(tt.a), filepath.Base(tt.b), w, out)
			}
		}
		for _, w := range tt.avoid {
			if strings.Contains(out, w) {
				t.Errorf("replay diff %s %s: %q in\n%s", filepath.Base(tt.a), filepath.Base(tt.b), w, out)
			}
		}
	}
	if code, _, errs := ringside(t, "replay", "diff", g1, filepath.Join(dir, "nosuch")); code != 2 || !strings.Contains(errs, "neither a replay file nor a match id") {
		t.Errorf("a missing file: exit %d, %s", code, errs)
	}
}

// TestBuiltinsDeterministicUnderLoad plays one Grip game of the built-ins
// (search among them) through the real binary twice on one seed, the
// second time beside a CPU hog of four times the cores: search weighs a budget
// of lines, never the clock, so the two replays are the same game.
func TestBuiltinsDeterministicUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	play := func(name string) string {
		file := filepath.Join(dir, name+".json")
		// Limits 50 times the default: no turn is late, however busy
		// the machine, so what is compared is search's own choice.
		mustRingside(t, "play", "--game", "grip", "--seed", "31", "--time-scale", "50", "--replay", file,
			"--bot", "builtin:grip/search", "--bot", "builtin:grip/greedy", "--bot", "builtin:grip/random", "--bot", "builtin:grip/greedy")
		return file
	}
	quiet := play("quiet")
	// Four busy loops a core: with the 60 ms wall-clock budget search
	// had before, this game parted at its first turn.
	for range 4 * runtime.NumCPU() {
		runnertest.Start(t, exec.Command("sh", "-c", "while :; do :; done"))
	}
	busy := play("busy")
	code, out, errs := ringside(t, "replay", "diff", quiet, busy)
	if code != 0 || !strings.Contains(out, "the same game, move for move") {
		t.Errorf("the same seed on a busy machine: exit %d\n%s%s", code, out, errs)
	}
}

// TestReplayRecordsDeterministicSeats: an event's replays record which
// seats are deterministic (the built-ins, an AI marked deterministic=yes,
// not an unmarked one), and replay diff calls a difference at an unmarked
// seat expected noise and one at a marked seat real.
func TestReplayRecordsDeterministicSeats(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	mustRingside(t, "ai", "new", "--game", "grip", "--lang", "python", "--dir", filepath.Join(dir, "marked"), "--name", "marked", "--no-watch", "--db", db)
	mustRingside(t, "ai", "new", "--game", "grip", "--lang", "python", "--dir", filepath.Join(dir, "plain"), "--name", "plain", "--no-watch", "--db", db)
	mustRingside(t, "ai", "edit", "marked", "--option", "deterministic=yes", "--db", db)
	mustRingside(t, "event", "create", "--game", "grip", "--games", "1", "--seed", "3", "--opt", "max_turns=30", "--time-scale", "10",
		"--entry", "builtin:grip/greedy", "--entry", "marked", "--entry", "plain", "--entry", "builtin:grip/random", "--db", db)
	mustRingside(t, "event", "run", "1", "--quiet", "--db", db)
	rp := exportReplay(t, db, "1")
	want := map[string]bool{"builtin:grip/greedy": true, "builtin:grip/random": true, "marked r1": true, "plain r1": false}
	if len(rp.Deterministic) != len(rp.Players) {
		t.Fatalf("replay of players %v records deterministic %v", rp.Players, rp.Deterministic)
	}
	seatOf := map[string]int{}
	for i, p := range rp.Players {
		seatOf[p] = i
		if w, ok := want[p]; !ok || rp.Deterministic[i] != w {
			t.Errorf("seat %d (%s): deterministic %v, want %v", i, p, rp.Deterministic[i], w)
		}
	}
	if rp.Options["deterministic"] != "" || rp.Options[fmt.Sprintf("deterministic@%d", seatOf["marked r1"])] != "" {
		t.Errorf("the mark reached the game's options: %v", rp.Options)
	}
	// Change one seat's first action in a copy and diff: at the plain
	// seat it is expected noise, at the marked one it is not.
	for _, tc := range []struct {
		player, want, avoid string
	}{
		{"plain r1", "expected noise: seat", "is deterministic"},
		{"marked r1", "is deterministic (a built-in or an AI marked so): not noise", "expected noise"},
	} {
		a := filepath.Join(dir, "a.json")
		writeReplayFile(t, a, rp)
		changed := exportReplay(t, db, "1")
		seat := seatOf[tc.player]
		found := false
		for i := range changed.Steps {
			for j := range changed.Steps[i].Seats {
				if s := &changed.Steps[i].Seats[j]; s.Seat == seat && !found {
					s.Action, found = s.Action+"x", true
				}
			}
		}
		b := filepath.Join(dir, "b.json")
		writeReplayFile(t, b, changed)
		code, out, errs := ringside(t, "replay", "diff", a, b)
		if code != 1 || !strings.Contains(out, tc.want) || strings.Contains(out, tc.avoid) {
			t.Errorf("%s's action changed: exit %d, want 1 and %q without %q:\n%s%s", tc.player, code, tc.want, tc.avoid, out, errs)
		}
	}
}

func writeReplayFile(t *testing.T, file string, rp *engine.Replay) {
	t.Helper()
	data, err := json.Marshal(rp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
