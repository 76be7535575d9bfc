package cli

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/runner"
	"ringside/storage"
)

// TestEventRunIsExclusive runs two real "ringside event run" of one event
// at once: the second says who runs it and exits non-zero without
// touching the first one's games. Then the first is killed with SIGKILL
// and a third run takes the event over and plays it to the end, every
// game exactly once.
func TestEventRunIsExclusive(t *testing.T) {
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
	// Wait until the first run holds the lock and has played a game.
	deadline := time.Now().Add(30 * time.Second)
	for count(`SELECT count(*) FROM event_locks`) == 0 || count(`SELECT count(*) FROM matches WHERE status = 'done'`) == 0 {
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
	// It reset nothing: the first run's game is still running, and the
	// first run goes on without a complaint.
	if n := count(`SELECT count(*) FROM matches WHERE status = 'running'`); n != 1 {
		t.Errorf("%d games running after the second run, want the first run's 1", n)
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
	if !strings.Contains(out, "RANK") {
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
