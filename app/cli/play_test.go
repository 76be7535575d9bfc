package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

func TestPlayBuiltins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		game string
		bots []string
		opts []string
	}{
		{"grip", []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/random", "builtin:grip/random"}, nil},
		{"battle2048", []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}, nil},
		{"cloud", []string{"builtin:cloud/hunter", "builtin:cloud/random"}, []string{"turns=30", "transport=tcp"}},
		{"cloud", []string{"builtin:cloud/hunter", "builtin:cloud/random", "builtin:cloud/random", "builtin:cloud/hunter"}, []string{"turns=30", "transport=stdio"}},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			replay := filepath.Join(t.TempDir(), "replay.json")
			// The time scale keeps a loaded CI machine from turning a slow moment
			// into a timeout; the built-ins answer in microseconds anyway.
			args := []string{"play", "--game", tt.game, "--seed", "11", "--replay", replay, "--time-scale", "5"}
			for _, b := range tt.bots {
				args = append(args, "--bot", b)
			}
			for _, o := range tt.opts {
				args = append(args, "--opt", o)
			}
			code, out, errs := runCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var res playResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("result is not JSON: %v\n%s", err, out)
			}
			if res.Game != tt.game || res.Seed != 11 || len(res.Ranks) != len(tt.bots) || len(res.Seats) != len(tt.bots) {
				t.Fatalf("result = %+v", res)
			}
			for i, s := range res.Seats {
				if s.Verdicts["ok"] == 0 || s.Verdicts["crashed"]+s.Verdicts["timeout"]+s.Verdicts["invalid"] > 0 {
					t.Errorf("seat %d (%s) verdicts = %v; built-in bots must play cleanly", i, s.Bot, s.Verdicts)
				}
				if sandbox.Supported && s.Sandbox != "on" {
					t.Errorf("seat %d (%s) ran with sandbox %q; built-in bots play in the sandbox too", i, s.Bot, s.Sandbox)
				}
			}
			rp := fixture.ReadReplay(t, replay)
			if rp.Format != engine.ReplayFormat || len(rp.Steps) == 0 || rp.Result.Turns != res.Turns {
				t.Errorf("replay format=%q steps=%d turns=%d, want turns %d", rp.Format, len(rp.Steps), rp.Result.Turns, res.Turns)
			}
			if rp.Steps[len(rp.Steps)-1].Seats == nil {
				t.Errorf("last step has no seats")
			}
		})
	}
}

func TestPlayUsageErrors(t *testing.T) {
	t.Parallel()
	grip4 := []string{"--bot", "builtin:grip/random", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random", "--bot", "builtin:grip/random"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no game", []string{"play"}, "--game is required"},
		{"unknown game", []string{"play", "--game", "chess"}, `unknown game "chess"`},
		{"too few bots", []string{"play", "--game", "grip", "--bot", "builtin:grip/random"}, "exactly 4 bots"},
		{"unknown option", append([]string{"play", "--game", "grip", "--opt", "speed=3"}, grip4...), `no option "speed"`},
		{"malformed option", append([]string{"play", "--game", "grip", "--opt", "speed"}, grip4...), "write KEY=VALUE"},
		{"bad choice", append([]string{"play", "--game", "grip", "--opt", "coords=yx"}, grip4...), "want one of rc, xy"},
		{"bad start", append([]string{"play", "--game", "grip", "--opt", "start=0,0,U/0,1,U/9,9,U/17,17,U"}, grip4...), "start"},
		{"unclosed quote", []string{"play", "--game", "battle2048", "--bot", `"python3 x.py`, "--bot", "builtin:battle2048/random"}, "unclosed double quote"},
		{"nothing starts", []string{"play", "--game", "battle2048", "--bot", "/no/such/bot", "--bot", "/no/such/bot2"}, "no bot could be started"},
		{"unknown limit", []string{"play", "--game", "battle2048", "--limits", "ram=1G", "--bot", "builtin:battle2048/random", "--bot", "builtin:battle2048/random"}, `limit "ram": no such limit`},
		{"unknown flag", []string{"play", "--gmae", "grip"}, "flag provided but not defined"},
		{"unknown command", []string{"plya"}, `unknown command "plya"`},
		{"unknown builtin", []string{"bot", "grip/genius"}, "grip/genius"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stdout %q)", code, out)
			}
			if !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr = %q, want one line containing %q", errs, tt.want)
			}
		})
	}
}

func TestPlayMissingProgramIsCrashedSeat(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI("play", "--game", "battle2048", "--seed", "3",
		"--bot", "/no/such/bot", "--bot", "builtin:battle2048/random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res playResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Seats[0].Verdicts["crashed"] != 1 || res.Ranks[1] != 1 {
		t.Errorf("result = %+v, want seat 0 crashed and seat 1 winning", res)
	}
	if !strings.Contains(res.Seats[0].Note, "/no/such/bot") {
		t.Errorf("note = %q, want the program named", res.Seats[0].Note)
	}
}

// TestTotalTimeBank plays Battle2048 against a bot that answers every turn
// well inside the turn limit but runs out of its total bank over several
// turns: it must lose with the total-time reason. Time runs at a quarter
// speed (the bot sleeps 1 s, 250 ms of the game's), so that Ringside's own
// delays on a busy machine weigh a quarter in the bank.
func TestTotalTimeBank(t *testing.T) {
	t.Parallel()
	exe, _ := runner.Executable()
	code, out, errs := runCLI("play", "--game", "battle2048", "--seed", "5", "--time-scale", "4",
		"--opt", "total_ms=1000", "--opt", "turn_ms=600",
		"--bot", exe+" bot battle2048/random --delay 1s",
		"--bot", "builtin:battle2048/random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res playResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Reason != "total_time" || res.Ranks[0] != 2 || res.Ranks[1] != 1 {
		t.Errorf("result = %+v, want the slow bot to lose on total_time", res)
	}
	if res.Turns < 4 || res.Turns > 6 {
		t.Errorf("lost at turn %d, want about turn 5 (4 × 250 ms = the 1000 ms bank)", res.Turns)
	}
}

// BenchmarkPlayCloud plays a whole 300-turn Cloud game between four
// built-in bots as real processes, over TCP on loopback and over stdio.
func BenchmarkPlayCloud(b *testing.B) {
	for _, tr := range []string{"tcp", "stdio"} {
		b.Run(tr, func(b *testing.B) {
			for b.Loop() {
				code, _, errs := runCLI("play", "--game", "cloud", "--seed", "3", "--opt", "transport="+tr,
					"--bot", "builtin:cloud/hunter", "--bot", "builtin:cloud/random",
					"--bot", "builtin:cloud/hunter", "--bot", "builtin:cloud/random")
				if code != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}

// TestPlayAIByName plays a registered AI by its name and by revision.
func TestPlayAIByName(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "ai.db")
	if code, _, errs := runCLI("ai", "new", "--db", db, "--game", "battle2048", "--lang", "python",
		"--dir", filepath.Join(dir, "alice"), "--name", "alice", "--no-watch"); code != 0 {
		t.Fatalf("ai new: %s", errs)
	}
	for _, spec := range []string{"alice", "alice@r1"} {
		code, out, errs := runCLI("play", "--db", db, "--game", "battle2048", "--seed", "2", "--time-scale", "5",
			"--bot", spec, "--bot", "builtin:battle2048/random")
		if code != 0 {
			t.Fatalf("play --bot %s: exit %d: %s", spec, code, errs)
		}
		var res playResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Seats[0].Bot != "alice r1" || res.Seats[0].Verdicts["ok"] == 0 || res.Seats[0].Verdicts["crashed"] > 0 {
			t.Errorf("--bot %s: seat = %+v", spec, res.Seats[0])
		}
	}
	code, _, errs := runCLI("play", "--db", db, "--game", "battle2048", "--bot", "alice@r9", "--bot", "builtin:battle2048/random")
	if code != 2 || !strings.Contains(errs, "has no revision 9") {
		t.Errorf("alice@r9: exit %d, %q", code, errs)
	}
}

// TestPlayWarnsWithoutFullContainment: "ringside play" says on stderr, one
// line a seat, which seats ran partial (Landlock pretended absent) or
// trusted, and what was missing; a fully contained game says nothing.
func TestPlayWarnsWithoutFullContainment(t *testing.T) {
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	base := []string{"play", "--game", "battle2048", "--seed", "3", "--time-scale", "5", "--opt", "rounds=5"}
	for _, c := range []struct {
		name  string
		env   string
		extra []string
		want  []string
	}{
		{"contained", "", nil, nil},
		{"no landlock", "no-landlock", nil, []string{
			"ringside: warning: seat 0 (builtin:battle2048/greedy) ran without full containment: this machine cannot stop bots from reading your files",
			"ringside: warning: seat 1 (builtin:battle2048/random) ran without full containment: this machine cannot stop bots from reading your files"}},
		{"trusted", "", []string{"--trusted"}, []string{
			"ringside: warning: seat 0 (builtin:battle2048/greedy) ran trusted: without the sandbox",
			"ringside: warning: seat 1 (builtin:battle2048/random) ran trusted: without the sandbox"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("RINGSIDE_SANDBOX_PRETEND", c.env)
			args := append(append(append([]string(nil), base...), c.extra...), "--bot", "builtin:battle2048/greedy", "--bot", "builtin:battle2048/random")
			code, out, errs := runCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var res playResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("stdout is not the JSON alone: %v\n%s", err, out)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if len(c.want) == 0 {
				if strings.TrimSpace(errs) != "" {
					t.Errorf("a contained game printed on stderr:\n%s", errs)
				}
				return
			}
			if len(lines) != len(c.want) {
				t.Fatalf("stderr has %d lines, want %d:\n%s", len(lines), len(c.want), errs)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("stderr line %d:\n%s\nwant it to begin\n%s", i, lines[i], w)
				}
			}
		})
	}
}
