package cli

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/runner"
	"ringside/storage"
)

// createEvent makes the same small Battle2048 league in db.
func createEvent(t *testing.T, db string, extra ...string) {
	t.Helper()
	args := append([]string{"event", "create", "--db", db, "--game", "battle2048", "--format", "league",
		"--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random",
		"--entry", "r2=builtin:battle2048/random", "--entry", "g2=builtin:battle2048/greedy",
		"--games", "3", "--seed", "99", "--time-scale", "10"}, extra...)
	if code, _, errs := runCLI(args...); code != 0 {
		t.Fatalf("create: exit %d: %s", code, errs)
	}
}

// results maps each game index to its ranks.
func results(t *testing.T, path string) map[int][]int {
	t.Helper()
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, err := db.Matches(1)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]int{}
	for _, m := range ms {
		if m.Status != storage.MatchDone {
			t.Errorf("match %d is %s", m.ID, m.Status)
			continue
		}
		out[m.Game.Index] = m.Result.Ranks
	}
	if rs, err := db.Ratings(1); err != nil || len(rs) < len(out) {
		t.Errorf("ratings history has %d points for %d games (%v)", len(rs), len(out), err)
	}
	if s, err := db.IntegrityCheck(); err != nil || s != "ok" {
		t.Errorf("integrity check: %q %v", s, err)
	}
	return out
}

// TestEventResumeAfterKill kills a real "ringside event run" with SIGKILL
// at random moments, resumes it each time, and checks that the results are
// those of an uninterrupted run.
func TestEventResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	straight, killed := filepath.Join(dir, "straight.db"), filepath.Join(dir, "killed.db")
	createEvent(t, straight)
	createEvent(t, killed)
	if code, _, errs := runCLI("event", "run", "1", "--db", straight); code != 0 {
		t.Fatalf("run: %s", errs)
	}
	want := results(t, straight)
	if len(want) != 36 {
		t.Fatalf("uninterrupted run has %d games, want 36", len(want))
	}

	exe, _ := runner.Executable()
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	for attempt := 0; attempt < 8 && kills < 4; attempt++ {
		cmd := exec.Command(exe, "event", "resume", "1", "--db", killed, "--quiet")
		cmd.Env = append(cmd.Environ(), "LANGUAGE=en")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-exited:
			// It finished before we struck; the event is done.
			attempt = 8
		case <-time.After(time.Duration(50+rng.IntN(300)) * time.Millisecond):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			kills++
		}
	}
	if kills == 0 {
		t.Log("the event finished before any kill; the machine is fast: nothing interrupted")
	}
	code, out, errs := runCLI("event", "resume", "1", "--db", killed)
	if code != 0 {
		t.Fatalf("final resume: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "RANK") && !strings.Contains(out, "already finished") {
		t.Errorf("resume printed no standings: %q", out)
	}
	got := results(t, killed)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after %d kills the results differ from an uninterrupted run:\n got %v\nwant %v", kills, got, want)
	}
	t.Logf("%d kills, %d games", kills, len(got))
}

func TestEventCommandsErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"event"}, "say what to do"},
		{[]string{"event", "create", "--db", db, "--game", "grip", "--entry", "builtin:grip/greedy", "--entry", "builtin:grip/random"}, "filler bot such as builtin:grip/random (--filler"},
		{[]string{"event", "create", "--db", db, "--game", "grip", "--format", "knockout", "--entry", "builtin:grip/greedy"}, `unknown format "knockout"`},
		{[]string{"event", "create", "--db", db, "--game", "battle2048", "--entry", "builtin:grip/greedy", "--entry", "builtin:battle2048/random"}, "is a bot for grip"},
		{[]string{"event", "create", "--db", db, "--game", "battle2048", "--entry", "nobody", "--entry", "builtin:battle2048/random"}, `"nobody" is not NAME=COMMAND`},
		{[]string{"event", "run", "--db", db, "x"}, `"x" is not an event id`},
		{[]string{"event", "standings", "--db", db, "1", "--json", "--md"}, "choose one of"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}

func TestEventGripWithFillersAndExports(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	code, out, errs := runCLI("event", "create", "--db", db, "--game", "grip", "--format", "league",
		"--entry", "builtin:grip/greedy", "--entry", "me=builtin:grip/random", "--filler", "builtin:grip/random",
		"--games", "1", "--seed", "3", "--time-scale", "10")
	if code != 0 {
		t.Fatalf("create: %s", errs)
	}
	if !strings.Contains(out, "4 entries") {
		t.Errorf("create output %q, want 2 entries plus 2 fillers", out)
	}
	if code, _, errs = runCLI("event", "run", "1", "--db", db); code != 0 {
		t.Fatalf("run: %s", errs)
	}
	for _, f := range []string{"--csv", "--md", "--json"} {
		code, out, errs = runCLI("event", "standings", "1", "--db", db, f)
		if code != 0 {
			t.Fatalf("standings %s: %s", f, errs)
		}
		// Fillers are not ranked.
		if strings.Contains(out, "builtin:grip/random") {
			t.Errorf("standings %s list a filler:\n%s", f, out)
		}
		if !strings.Contains(out, "me") {
			t.Errorf("standings %s lack an entry:\n%s", f, out)
		}
	}
	code, out, _ = runCLI("replay", "export", "1", "--db", db)
	if code != 0 || !strings.Contains(out, `"format": "ringside-replay/1"`) {
		t.Errorf("replay export: exit %d, %.200s", code, out)
	}
}

// TestBracketTakesTheFillersItNeeds: a 7-entry Grip bracket (heats of 4,
// the top 2 go through) with a filler given gets the one filler it needs.
func TestBracketTakesTheFillersItNeeds(t *testing.T) {
	db := filepath.Join(t.TempDir(), "b.db")
	args := []string{"event", "create", "--db", db, "--game", "grip", "--format", "bracket", "--filler", "builtin:grip/random"}
	for i := range 7 {
		args = append(args, "--entry", fmt.Sprintf("s%d=builtin:grip/greedy", i))
	}
	code, out, errs := runCLI(args...)
	if code != 0 || !strings.Contains(out, "8 entries") {
		t.Fatalf("7-entry bracket with a filler: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCLI(args[:len(args)-16]...) // no entries, no filler given: the usage error
	if code != 2 {
		t.Errorf("no entries: exit %d, %s", code, errs)
	}
	noFiller := append([]string{"event", "create", "--db", db, "--game", "grip", "--format", "bracket"}, args[10:]...)
	code, _, errs = runCLI(noFiller...)
	if code != 2 || !strings.Contains(errs, "needs 1 more player") || !strings.Contains(errs, "(--filler builtin:grip/random)") {
		t.Errorf("7-entry bracket without a filler: exit %d, %s", code, errs)
	}
}

// TestStandingsSayWhatWentWrong: a bot that crashes or answers nonsense
// is named with its problems in the standings, not only in replays.
func TestStandingsSayWhatWentWrong(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	code, out, errs := runCLI("event", "create", "--db", db, "--game", "battle2048", "--games", "2", "--seed", "1",
		"--entry", "builtin:battle2048/greedy", "--entry", "crasher=sh -c 'exit 3'", "--entry", "liar=sh -c 'while read l; do echo nonsense; done'")
	if code != 0 {
		t.Fatalf("create: %d %s%s", code, out, errs)
	}
	if code, out, errs = runCLI("event", "run", "1", "--db", db); code != 0 {
		t.Fatalf("run: %d %s%s", code, out, errs)
	}
	for _, want := range []string{`problems:`, `crasher: [1-9][0-9]* crash`, `liar: [1-9][0-9]* invalid`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("standings lack %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI("event", "standings", "1", "--db", db, "--json")
	if code != 0 || !regexp.MustCompile(`"problems": \{\s+"crasher": \{[^}]*"crashed": [1-9]`).MatchString(out) {
		t.Errorf("json standings:\n%s", out)
	}
}
