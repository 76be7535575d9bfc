package cli

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
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

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/runner/runnertest"
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
	t.Parallel()
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
	if !strings.Contains(out, "PLACE") && !strings.Contains(out, "already finished") {
		t.Errorf("resume printed no standings: %q", out)
	}
	got := results(t, killed)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after %d kills the results differ from an uninterrupted run:\n got %v\nwant %v", kills, got, want)
	}
	t.Logf("%d kills, %d games", kills, len(got))
}

func TestEventCommandsErrors(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestEventRefusesEntriesThatCannotStart: a misspelt interpreter is found
// when the event is created, not after it lost every game.
func TestEventRefusesEntriesThatCannotStart(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "e.db")
	runnertest.WriteFiles(t, root, map[string]string{"bot.py": fixture.PyBot(1)})
	tests := []struct {
		entry string
		want  []string
	}{
		{"zed=pyhton3 bot.py", []string{"entry zed cannot start", "pyhton3 is not installed"}},
		{"zed=./no-such-bot", []string{"entry zed cannot start", "./no-such-bot"}},
		{"zed=python3 " + filepath.Join(root, "missing.py"), []string{"entry zed cannot start", "missing.py"}},
	}
	for _, tt := range tests {
		code, out, errs := ringside(t, "event", "create", "--db", db, "--game", "grip", "--entry", tt.entry,
			"--entry", "builtin:grip/random", "--filler", "builtin:grip/random")
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q, want 2 and one line", tt.entry, code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", tt.entry, errs, w)
			}
		}
		if strings.Contains(out, "event ") {
			t.Errorf("%s: an event was created: %s", tt.entry, out)
		}
	}
	if out := mustRingside(t, "event", "list", "--db", db); !strings.Contains(out, "no events yet") {
		t.Errorf("events after refused creates:\n%s", out)
	}
}

// eventEntries creates a small gauntlet (four games) of the AI against built-in bots
// and returns the event's id and its entries line.
func eventEntries(t *testing.T, db string, extra ...string) (string, string) {
	t.Helper()
	args := append([]string{"event", "create", "--game", "grip", "--format", "gauntlet", "--games", "1", "--seed", "3",
		"--opt", "max_turns=8", "--time-scale", "4", "--entry", "pia", "--entry", "builtin:grip/greedy", "--candidate", "builtin:grip/greedy",
		"--entry", "builtin:grip/random", "--entry", "builtin:grip/random", "--db", db}, extra...)
	code, out, errs := ringside(t, args...)
	if code != 0 {
		return "", errs
	}
	id := regexp.MustCompile(`event (\d+):`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("event create: %s", out)
	}
	return id[1], entriesLine(t, db, id[1])
}

func entriesLine(t *testing.T, db, id string) string {
	t.Helper()
	show := mustRingside(t, "event", "show", id, "--db", db)
	line := regexp.MustCompile(`(?m)^entries: (.*)$`).FindStringSubmatch(show)
	if line == nil {
		t.Fatalf("event show has no entries line:\n%s", show)
	}
	return line[1]
}

// TestEventDeadline: revisions built after an event's deadline are not
// used by it; an event created before its deadline takes the revisions
// built until then when it first starts.
func TestEventDeadline(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db, src := filepath.Join(root, "class.db"), filepath.Join(root, "pia")
	addPyBot(t, src, "pia", db)
	before := time.Now().Add(-time.Hour).Format(time.RFC3339)
	// The deadline is stored to the second: r1 is built in an earlier
	// second than the deadline, r2 in a later one.
	deadline := runnertest.NextSecond().Format(time.RFC3339)
	runnertest.NextSecond()
	pyBuild(t, db, src, "pia", 2)

	if _, entries := eventEntries(t, db, "--deadline", deadline); !strings.HasPrefix(entries, "pia r1,") {
		t.Errorf("deadline between r1 and r2: event plays %q, want pia r1", entries)
	}
	if _, entries := eventEntries(t, db); !strings.HasPrefix(entries, "pia r2,") {
		t.Errorf("no deadline: event plays %q, want pia r2", entries)
	}
	if _, errs := eventEntries(t, db, "--deadline", before); !strings.Contains(errs, "AI pia has no revision built before the deadline") {
		t.Errorf("deadline before any revision: %q", errs)
	}
	if _, errs := eventEntries(t, db, "--deadline", "friday"); !strings.Contains(errs, `deadline "friday": write a date and time`) {
		t.Errorf("unreadable deadline: %q", errs)
	}

	// Created before its deadline: r2 now, r3 built before the deadline
	// when the event first runs.
	id, entries := eventEntries(t, db, "--deadline", time.Now().Add(time.Hour).Format("2006-01-02 15:04"))
	if !strings.HasPrefix(entries, "pia r2,") {
		t.Errorf("future deadline at creation: %q, want pia r2", entries)
	}
	pyBuild(t, db, src, "pia", 3)
	mustRingside(t, "event", "run", id, "--db", db)
	if entries := entriesLine(t, db, id); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("after its first run the event with a future deadline plays %q, want pia r3", entries)
	}
	// Started: frozen.
	pyBuild(t, db, src, "pia", 4)
	if entries := entriesLine(t, db, id); !strings.HasPrefix(entries, "pia r3,") {
		t.Errorf("a started event changed its entries: %q", entries)
	}

	// Exported into shards before its first run: the export is its first
	// start, so the bundle and the games played here later play r5.
	id2, _ := eventEntries(t, db, "--deadline", time.Now().Add(time.Hour).Format("2006-01-02 15:04"))
	pyBuild(t, db, src, "pia", 5)
	mustRingside(t, "event", "export", id2, "--shards", "1", "--out", filepath.Join(root, "shards"), "--db", db)
	if entries := entriesLine(t, db, id2); !strings.HasPrefix(entries, "pia r5,") {
		t.Errorf("after its export the event with a future deadline plays %q, want pia r5", entries)
	}
	pyBuild(t, db, src, "pia", 6)
	// Its games are out: taken back, they are played here.
	mustRingside(t, "event", "unexport", id2, "--db", db)
	mustRingside(t, "event", "run", id2, "--db", db)
	if entries := entriesLine(t, db, id2); !strings.HasPrefix(entries, "pia r5,") {
		t.Errorf("an exported event changed its entries when it first ran here: %q, want pia r5 as in its shards", entries)
	}
}

// TestReplayExportOfAGameInPlay runs a paced event in a real "ringside
// event run" and, from other processes, exports its first game while it
// is played: a valid replay of the turns so far, marked in progress and
// without a result, that reads back and re-simulates; once the game is
// over the same command exports the finished replay.
func TestReplayExportOfAGameInPlay(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "live.db")
	for _, bad := range []string{"-1", "NaN", "soon"} {
		if code, _, errs := ringside(t, "event", "create", "--db", db, "--game", "battle2048", "--pace", bad,
			"--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random"); code != 2 || !strings.Contains(errs, "pace") {
			t.Errorf("--pace %s: exit %d, %q; want a usage error about the pace", bad, code, errs)
		}
	}
	for _, args := range [][]string{
		{"play", "--game", "battle2048", "--bot", "builtin:battle2048/greedy", "--bot", "builtin:battle2048/random", "--pace", "-2"},
		{"event", "run", "1", "--db", db, "--pace", "-2"},
	} {
		if code, _, errs := ringside(t, args...); code != 2 || !strings.Contains(errs, "--pace") {
			t.Errorf("%v: exit %d, %q; want a usage error about --pace", args, code, errs)
		}
	}
	mustRingside(t, "event", "create", "--db", db, "--game", "battle2048", "--games", "1", "--seed", "3",
		"--pace", "8", "--concurrency", "1", "--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random")
	exe, _ := runner.Executable()
	run := exec.Command(exe, "event", "run", "1", "--db", db, "--quiet")
	run.Env = append(run.Environ(), "LANGUAGE=en")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited, waited := make(chan error, 1), make(chan struct{})
	go func() { exited <- run.Wait(); close(waited) }()
	defer func() {
		run.Process.Kill()
		<-waited
	}()

	var rp engine.Replay
	for end := time.Now().Add(runnertest.Patience(t)); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no export of the game in play within 30 s")
		}
		code, out, _ := ringside(t, "replay", "export", "1", "--db", db)
		if code != 0 {
			continue // not started, or no turn saved yet
		}
		rp = engine.Replay{}
		if err := json.Unmarshal([]byte(out), &rp); err != nil {
			t.Fatalf("export is not JSON: %v\n%.300s", err, out)
		}
		if !rp.InProgress {
			t.Fatal("the game ended before it could be exported in play: the pace did not slow it")
		}
		if !strings.Contains(out, `"in_progress": true`) {
			t.Errorf("export does not say in_progress: %.300s", out)
		}
		if len(rp.Steps) >= 2 {
			break
		}
	}
	if len(rp.Result.Ranks) != 0 {
		t.Errorf("a game in play exported with ranks %v", rp.Result.Ranks)
	}
	if rp.Steps[1].Seats[0].Input == "" {
		t.Errorf("turn input missing from the export: %+v", rp.Steps[1])
	}
	log, err := rp.Log()
	if err != nil {
		t.Fatal(err)
	}
	again, err := games.Expand(log)
	if err != nil {
		t.Fatalf("the export does not re-simulate: %v", err)
	}
	if a, b := mustJSON(t, again), mustJSON(t, &rp); a != b {
		t.Errorf("export read back and expanded differs from the export")
	}

	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("event run: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("event run did not finish in 60 s")
	}
	out := mustRingside(t, "replay", "export", "1", "--db", db)
	var done engine.Replay
	if err := json.Unmarshal([]byte(out), &done); err != nil {
		t.Fatal(err)
	}
	if done.InProgress || len(done.Result.Ranks) != 2 || len(done.Steps) < len(rp.Steps) {
		t.Errorf("finished export: in progress %v, ranks %v, %d steps (in play: %d)", done.InProgress, done.Result.Ranks,
			len(done.Steps), len(rp.Steps))
	}
	for i := range rp.Steps {
		if mustJSON(t, rp.Steps[i]) != mustJSON(t, done.Steps[i]) {
			t.Fatalf("step %d exported in play differs from the finished replay's", i)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEventRunIsExclusive runs two real "ringside event run" of one event
// at once: the second says who runs it and exits non-zero without
// touching the first one's games. Then the first is killed with SIGKILL
// and a third run takes the event over and plays it to the end, every
// game exactly once.
func TestEventRunIsExclusive(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "lock.db")
	createEvent(t, path, "--games", "10", "--concurrency", "1")
	exe, _ := runner.Executable()
	var errA bytes.Buffer
	a := exec.Command(exe, "event", "run", "1", "--db", path, "--quiet")
	a.Stderr = &errA
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- a.Wait() }()
	defer func() {
		a.Process.Kill()
		<-exited
	}()

	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	count := func(q string) int {
		t.Helper()
		var n int
		if err := raw.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	// Wait until the first run holds the lock, has played a game and is
	// playing another.
	deadline := time.Now().Add(runnertest.Patience(t))
	for count(`SELECT count(*) FROM event_locks`) == 0 || count(`SELECT count(*) FROM matches WHERE status = 'done'`) == 0 ||
		count(`SELECT count(*) FROM matches WHERE status = 'running'`) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the first run never got going: %s", errA.String())
		}
		select {
		case err := <-exited:
			t.Fatalf("the first run ended early (%v): %s", err, errA.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if pid := count(`SELECT pid FROM event_locks WHERE event_id = 1`); pid != a.Process.Pid {
		t.Fatalf("lock held by pid %d, want the first run's %d", pid, a.Process.Pid)
	}
	playing := count(`SELECT id FROM matches WHERE status = 'running' LIMIT 1`)

	// The second run refuses.
	b := exec.Command(exe, "event", "run", "1", "--db", path, "--quiet")
	var outB, errB bytes.Buffer
	b.Stdout, b.Stderr = &outB, &errB
	err = b.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("second run: %v, want exit 1; stderr %s", err, errB.String())
	}
	want := fmt.Sprintf("event 1 is being run by process %d on ", a.Process.Pid)
	if !strings.Contains(errB.String(), want) || !strings.Contains(errB.String(), "wait for it to finish or stop it") {
		t.Fatalf("second run said %q, want %q and what to do", errB.String(), want)
	}
	// It reset nothing: the game the first run was playing is still
	// running or has since finished (with one game at a time the first
	// run may be between games now), and the first run goes on without a
	// complaint.
	var status string
	if err := raw.QueryRow(`SELECT status FROM matches WHERE id = ?`, playing).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "running" && status != "done" {
		t.Errorf("the first run's game %d is %q after the second run, want running or done", playing, status)
	}
	if n := count(`SELECT count(*) FROM matches WHERE status = 'running'`); n > 1 {
		t.Errorf("%d games running after the second run, want at most the first run's 1", n)
	}
	time.Sleep(200 * time.Millisecond)
	select {
	case err := <-exited:
		t.Fatalf("the first run stopped (%v): %s", err, errA.String())
	default:
	}

	// SIGKILL leaves the lock row behind; the next run takes it over.
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	exited <- nil // for the deferred cleanup
	if count(`SELECT count(*) FROM event_locks`) != 1 {
		t.Fatal("the killed run's lock row is gone; the takeover is not tested")
	}
	code, out, errs := runCLI("event", "run", "1", "--db", path)
	if code != 0 {
		t.Fatalf("run after the kill: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, fmt.Sprintf("left running by process %d on ", a.Process.Pid)) || !strings.Contains(errs, "taking it over") {
		t.Errorf("no takeover note: %q", errs)
	}
	if !strings.Contains(out, "PLACE") {
		t.Errorf("no standings: %q", out)
	}
	// Every game played once: 4 entries, 6 pairings × 2 seats × 10 seeds.
	if n := count(`SELECT count(*) FROM matches WHERE status = 'done'`); n != 120 || count(`SELECT count(*) FROM matches`) != 120 {
		t.Errorf("%d of %d games done, want 120 of 120", n, count(`SELECT count(*) FROM matches`))
	}
	if n := count(`SELECT count(*) FROM event_locks`); n != 0 {
		t.Errorf("%d lock rows left after the run", n)
	}
	if n := count(`SELECT count(DISTINCT after_match) FROM ratings WHERE event_id = 1`); n != 120 {
		t.Errorf("rating points after %d games, want 120", n)
	}
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if s, err := db.IntegrityCheck(); err != nil || s != "ok" {
		t.Errorf("integrity: %q %v", s, err)
	}
}
