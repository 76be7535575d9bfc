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
	"slices"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// The hostile suite of the runner (runner/testdata/hostile) through the
// real binary: each attack is a seat of "ringside play" and an entry of
// an event played by "ringside event run", against a real database in
// the data folder of a home the test made. Every attack aims only at
// what the test made: the database, another AI's folders, the home
// folder, a sentinel process, a loopback port.

// hostileAttacks are the attacks, with the verdict note of those that
// cost the attacker its game.
var hostileAttacks = []struct{ attack, crashNote string }{
	{"kill-parent", ""}, {"kill-seat", ""}, {"kill-sentinel", ""}, {"read-proc", ""}, {"env", ""},
	{"read-db", ""}, {"write-db", ""}, {"read-ai", ""}, {"write-home", ""}, {"connect-loopback", ""},
	{"connect-elsewhere", ""}, {"alloc", "memory limit 1 GiB"}, {"fork-bomb", ""}, {"big-file", ""},
}

// hostileTimeScale multiplies the turn limits of the hostile games. Each
// attack runs between READY and the bot's first answer, and writing
// 64 MiB, touching 1 GiB or starting dozens of processes can take more
// than a second on a machine as loaded as CI's (go test runs packages
// side by side): a first answer late for that would be a timeout the
// sandbox did not cause. No bot here hangs, so the games take no longer.
const hostileTimeScale = "50"

// hostileWorld is what the attacks aim at.
type hostileWorld struct {
	bin, home, db string
	aiDirs        []string
	sentinel      *exec.Cmd
	decoy         *runnertest.Decoy
}

func newHostileWorld(t *testing.T) *hostileWorld {
	t.Helper()
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	root := t.TempDir()
	w := &hostileWorld{bin: filepath.Join(root, "bin", "hostile"), home: filepath.Join(root, "home")}
	if err := runnertest.GoBuild(w.bin, "../../runner/testdata/hostile"); err != nil {
		t.Fatal(err)
	}
	// The database where Ringside keeps it by default, with another AI
	// registered in it: its source folder and its built revision.
	w.db = filepath.Join(w.home, ".local", "share", "ringside", "ringside.db")
	src := filepath.Join(root, "other")
	addPyBot(t, src, "other", w.db)
	revs, _ := filepath.Glob(filepath.Join(filepath.Dir(w.db), "ringside-data", "revisions", "other-*", "*"))
	if len(revs) != 1 {
		t.Fatalf("other's revision folders: %v", revs)
	}
	w.aiDirs = []string{src, revs[0]}
	w.sentinel = runnertest.Start(t, exec.Command(w.bin, "-child"))
	w.decoy = runnertest.NewDecoy(t)
	return w
}

// command is the command line of a Grip bot making attack; the targets
// go in through env(1), since a sandboxed bot gets none of Ringside's
// environment.
func (w *hostileWorld) command(attack string) string {
	return fmt.Sprintf("env HOSTILE_SENTINEL=%d HOSTILE_DB=%s HOSTILE_AI_DIRS=%s HOSTILE_REAL_HOME=%s HOSTILE_PORT=%d %s -attack %s -grip",
		w.sentinel.Process.Pid, w.db, strings.Join(w.aiDirs, string(filepath.ListSeparator)), w.home, w.decoy.Port, w.bin, attack)
}

// ringside runs the binary as the teacher would, with the test's home
// and a variable only Ringside's environment has.
func (w *hostileWorld) ringside(t *testing.T, extraEnv []string, args ...string) (int, string, string) {
	t.Helper()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "HOME="+w.home, "XDG_DATA_HOME=", "RINGSIDE_TEST_SECRET=only-ringside-knows")
	cmd.Env = append(cmd.Env, extraEnv...)
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ringside %v hangs", args)
	}
	// An exit status is the answer; any other error means it never ran.
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("ringside %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errs.String()
}

// check asserts that nothing outside the games was touched and nothing
// of theirs is left running.
func (w *hostileWorld) check(t *testing.T, fileAttacksBlocked bool) {
	t.Helper()
	if !runnertest.Alive(w.sentinel.Process.Pid) {
		t.Errorf("the sentinel process outside Ringside was killed")
	}
	if n := w.decoy.Accepted(); n > 0 {
		t.Errorf("a bot connected to a loopback port that is not its game's (%d times)", n)
	}
	if fileAttacksBlocked {
		if _, err := os.Stat(filepath.Join(w.home, "pwned.txt")); err == nil {
			t.Errorf("a bot wrote into the home folder")
		}
	}
	db, err := storage.Open(w.db)
	if err != nil {
		t.Fatalf("the database after the attacks: %v", err)
	}
	defer db.Close()
	if s, err := db.IntegrityCheck(); err != nil || s != "ok" {
		t.Errorf("integrity check: %q %v", s, err)
	}
	if ais, err := db.ListAIs(); err != nil || len(ais) != 1 || ais[0].Name != "other" {
		t.Errorf("the AIs after the attacks: %v %v", ais, err)
	}
	runnertest.AssertNoneLeft(t, w.bin, append(sandbox.Spawners(), w.sentinel.Process.Pid)...)
}

// seatLog is what one seat wrote on stderr, the notes it got and its
// verdicts.
type seatLog struct {
	stderr, notes string
	verdicts      map[engine.Verdict]int
}

// seatLogs gathers each seat's part of a replay.
func seatLogs(rp *engine.Replay) []seatLog {
	out := make([]seatLog, len(rp.Players))
	for i := range out {
		out[i].verdicts = map[engine.Verdict]int{}
	}
	for _, st := range rp.Steps {
		for _, s := range st.Seats {
			out[s.Seat].stderr += s.Stderr
			if s.Note != "" {
				out[s.Seat].notes += s.Note + "|"
			}
			out[s.Seat].verdicts[s.Verdict]++
		}
	}
	return out
}

// expand turns a stored log into its replay.
func expand(t *testing.T, log *engine.Log) *engine.Replay {
	t.Helper()
	rp, err := games.Expand(log)
	if err != nil {
		t.Fatalf("expand the replay: %v", err)
	}
	return rp
}

// attackOutcome checks an attacker's seat: its attack was blocked, or
// it cost the attacker its game with the cap's note.
func attackOutcome(t *testing.T, attack, crashNote string, s seatLog) {
	t.Helper()
	verdicts := s.verdicts
	report := "no report"
	for _, l := range strings.Split(s.stderr, "\n") {
		if r, ok := strings.CutPrefix(l, "ATTACK "+attack+": "); ok {
			report = r
		}
	}
	t.Logf("%s: %s; verdicts %v", attack, report, verdicts)
	if crashNote != "" {
		if !strings.Contains(s.notes, crashNote) || verdicts[engine.Crashed] != 1 {
			t.Errorf("%s: notes %q, verdicts %v; want a crash with %q", attack, s.notes, verdicts, crashNote)
		}
		return
	}
	if attack == "fork-bomb" && verdicts[engine.Crashed] == 1 &&
		(strings.Contains(s.notes, "exit status 2") || strings.Contains(s.notes, "process limit")) {
		// At its process cap a Go bot's own runtime may fail to start a
		// thread and die (exit status 2), or the watchdog may end it
		// first: either way only its seat pays, as runner's
		// TestHostileBots has it. Which one comes first is up to the
		// load.
		return
	}
	if !strings.HasPrefix(report, "blocked") {
		t.Errorf("%s: %s", attack, report)
	}
	if n := verdicts[engine.Crashed] + verdicts[engine.Timeout] + verdicts[engine.Invalid]; n > 0 {
		t.Errorf("%s: the attacker's verdicts %v, notes %q; it should play on", attack, verdicts, s.notes)
	}
}

// TestHostileBotsThroughPlay plays each attack as seat 1 of "ringside
// play" against a victim and two built-in bots: the attack fails, the
// others play every turn they are asked, Ringside exits 0, and the
// database, the home folder and the sentinel are untouched.
func TestHostileBotsThroughPlay(t *testing.T) {
	t.Parallel()
	w := newHostileWorld(t)
	for _, a := range hostileAttacks {
		t.Run(a.attack, func(t *testing.T) {
			replay := filepath.Join(t.TempDir(), "replay.json")
			code, out, errs := w.ringside(t, nil, "play", "--game", "grip", "--seed", "3", "--time-scale", hostileTimeScale,
				"--opt", "max_turns=40", "--replay", replay, "--bot", w.command(a.attack),
				"--bot", w.bin+" -attack victim -grip", "--bot", "builtin:grip/greedy", "--bot", "builtin:grip/random")
			if code != 0 {
				t.Fatalf("ringside play: exit %d\n%s%s", code, out, errs)
			}
			var res playResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("play output: %v\n%s", err, out)
			}
			logs := seatLogs(fixture.ReadReplay(t, replay))
			for i, s := range res.Seats {
				if s.Sandbox != "on" {
					t.Errorf("seat %d ran with sandbox %q, want on", i+1, s.Sandbox)
				}
				v := logs[i].verdicts
				if i == 0 {
					attackOutcome(t, a.attack, a.crashNote, logs[0])
				} else if n := v[engine.Crashed] + v[engine.Timeout] + v[engine.Invalid]; n > 0 || v[engine.OK] == 0 {
					t.Errorf("seat %d (%s) verdicts %v, notes %q", i+1, s.Bot, v, logs[i].notes)
				}
			}
			w.check(t, true)
		})
	}
}

// TestHostileEventThroughTheBinary enters every attack and two victims
// in a Grip bracket (the first round: four groups, each in its four seat
// rotations) run by "ringside event run": the event finishes, every attack failed, the victims
// played every turn, the stored replays name the cap that ended the
// attacker that hit one, and the database passes its integrity check. Then
// the same with Landlock pretended absent and the attacks that would
// only be announced as possible left out: the event says at its top
// that the sandbox is partial, each seat's replay says so, and nothing
// crashes.
func TestHostileEventThroughTheBinary(t *testing.T) {
	t.Parallel()
	w := newHostileWorld(t)
	play := func(t *testing.T, id int, pretend bool, attacks []string) {
		t.Helper()
		args := []string{"event", "create", "--game", "grip", "--format", "bracket", "--games", "1", "--seed", "5",
			"--opt", "max_turns=40", "--time-scale", hostileTimeScale, "--concurrency", "1", "--db", w.db}
		for _, a := range attacks {
			args = append(args, "--entry", a+"="+w.command(a))
		}
		victims := (4 - len(attacks)%4) % 4
		if victims < 2 {
			victims += 4
		}
		for i := range victims {
			args = append(args, "--entry", fmt.Sprintf("victim%d=%s -attack victim -grip", i+1, w.bin))
		}
		var env []string
		if pretend {
			env = []string{"RINGSIDE_SANDBOX_PRETEND=no-landlock"}
		}
		if code, out, errs := w.ringside(t, env, args...); code != 0 {
			t.Fatalf("event create: exit %d\n%s%s", code, out, errs)
		}
		if pretend {
			// Students' bots run on a partial sandbox only once the
			// teacher has accepted it (TestConsentOnWeakSandbox).
			if code, out, errs := w.ringside(t, env, "event", "run", fmt.Sprint(id), "--db", w.db); code == 0 ||
				!strings.Contains(errs, "ringside sandbox allow-partial") {
				t.Fatalf("event run without consent: exit %d\n%s%s", code, out, errs)
			}
			if code, out, errs := w.ringside(t, env, "sandbox", "allow-partial", "--db", w.db); code != 0 {
				t.Fatalf("sandbox allow-partial: exit %d\n%s%s", code, out, errs)
			}
		}
		code, out, errs := w.ringside(t, env, "event", "run", fmt.Sprint(id), "--db", w.db)
		if code != 0 {
			t.Fatalf("event run: exit %d\n%s%s", code, out, errs)
		}
		want := fmt.Sprintf("event %d: Sandbox: on", id)
		if pretend {
			want = fmt.Sprintf("event %d: Sandbox: partial — this machine cannot stop bots from reading your files", id)
		}
		if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, want) {
			t.Errorf("event run's first line %q, want %q", first, want)
		}
		db, err := storage.Open(w.db)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ms, err := db.Matches(int64(id))
		if err != nil {
			t.Fatal(err)
		}
		// The first round alone plays each group of four in its 4 seat
		// rotations.
		if want := len(attacks) + victims; len(ms) < want {
			t.Errorf("%d games, want at least %d", len(ms), want)
		}
		seen := map[string]bool{}
		for _, m := range ms {
			if m.Status != storage.MatchDone {
				t.Errorf("game %d: %s %s", m.ID, m.Status, m.Error)
				continue
			}
			log, err := db.Replay(m.ID)
			if err != nil {
				t.Fatal(err)
			}
			logs := seatLogs(expand(t, log))
			for s, entry := range m.Game.Seats {
				// The stored replay says how each seat ran.
				if got := strings.Contains(logs[s].notes, "sandbox partial: "); got != pretend {
					t.Errorf("game %d seat %d: notes %q; want \"sandbox partial\" in them: %v", m.ID, s+1, logs[s].notes, pretend)
				}
				if entry >= len(attacks) {
					if v := logs[s].verdicts; v[engine.Crashed]+v[engine.Timeout]+v[engine.Invalid] > 0 || v[engine.OK] == 0 {
						t.Errorf("game %d: victim in seat %d verdicts %v, notes %q", m.ID, s+1, v, logs[s].notes)
					}
					continue
				}
				a := attacks[entry]
				seen[a] = true
				note := ""
				if a == "alloc" {
					note = "memory limit 1 GiB"
				}
				attackOutcome(t, a, note, logs[s])
			}
		}
		if len(seen) != len(attacks) {
			t.Errorf("attacks played: %v of %v", seen, attacks)
		}
	}
	var all []string
	for _, a := range hostileAttacks {
		all = append(all, a.attack)
	}
	play(t, 1, false, all)
	w.check(t, true)
	t.Run("no-landlock", func(t *testing.T) {
		// Without Landlock the file attacks would work (that is what the
		// warning says); they are left out, so that the database stays.
		var safe []string
		for _, a := range all {
			if !slices.Contains([]string{"read-db", "write-db", "read-ai", "write-home"}, a) {
				safe = append(safe, a)
			}
		}
		play(t, 2, true, safe)
		w.check(t, false)
	})
}
