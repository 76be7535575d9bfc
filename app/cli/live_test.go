package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/games"
	"ringside/runner"
)

// TestReplayExportOfAGameInPlay runs a paced event in a real "ringside
// event run" and, from other processes, exports its first game while it
// is played: a valid replay of the turns so far, marked in progress and
// without a result, that reads back and re-simulates; once the game is
// over the same command exports the finished replay.
func TestReplayExportOfAGameInPlay(t *testing.T) {
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
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
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
	g, _ := games.Get("battle2048")
	again, err := engine.Expand(g, log)
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
