package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// TestConsentOnWeakSandbox: with Landlock absent (pretended), a student's
// bot is refused by "play", "event run" and "compare" with what is
// missing and how to consent; built-in bots alone still play; after
// "ringside sandbox allow-partial" they run (and "play" warns); a
// consent given for another status does not count.
func TestConsentOnWeakSandbox(t *testing.T) {
	runnertest.NeedPython(t)
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "class.db")
	if code, _, errs := runCLI("ai", "new", "--db", db, "--game", "battle2048", "--lang", "python",
		"--dir", filepath.Join(dir, "alice"), "--name", "alice", "--no-watch"); code != 0 {
		t.Fatalf("ai new: %s", errs)
	}
	if code, _, errs := runCLI("sandbox", "allow-partial", "--db", db); code != 0 || strings.Contains(errs, "accepted") {
		t.Fatalf("allow-partial with a full sandbox: exit %d %s", code, errs)
	}
	t.Setenv("RINGSIDE_SANDBOX_PRETEND", "no-landlock")
	play := func() (int, string, string) {
		return runCLI("play", "--db", db, "--game", "battle2048", "--seed", "2", "--time-scale", "5", "--opt", "rounds=3",
			"--bot", "alice", "--bot", "builtin:battle2048/random")
	}
	refused := func(what string, code int, out, errs string) {
		t.Helper()
		if code == 0 || !strings.Contains(errs, "not started: this machine cannot stop bots from reading your files") ||
			!strings.Contains(errs, `"ringside sandbox allow-partial --db `+shellQuote(db)+`"`) {
			t.Errorf("%s with a partial sandbox and no consent: exit %d\n%s%s", what, code, out, errs)
		}
	}
	code, out, errs := play()
	refused("play", code, out, errs)
	if code, out, errs := runCLI("play", "--db", db, "--game", "battle2048", "--opt", "rounds=3", "--time-scale", "5",
		"--bot", "builtin:battle2048/greedy", "--bot", "builtin:battle2048/random"); code != 0 {
		t.Errorf("built-in bots alone: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI("event", "create", "--db", db, "--game", "battle2048", "--format", "league", "--games", "1",
		"--opt", "rounds=3", "--entry", "alice", "--entry", "builtin:battle2048/random"); code != 0 {
		t.Fatalf("event create: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI("event", "run", "1", "--db", db)
	refused("event run", code, out, errs)
	code, out, errs = runCLI("compare", "--db", db, "--game", "battle2048", "--games", "2", "--opt", "rounds=3",
		"--entry", "alice", "--entry", "builtin:battle2048/random")
	refused("compare", code, out, errs)

	if _, out, _ := runCLI("sandbox", "--db", db); !strings.Contains(out, "Sandbox: partial") || !strings.Contains(out, "not accepted") {
		t.Errorf("sandbox status before consent:\n%s", out)
	}
	if code, out, errs := runCLI("sandbox", "allow-partial", "--db", db); code != 0 || !strings.Contains(out, "accepted: bots that are not trusted will run here") {
		t.Fatalf("allow-partial: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := play(); code != 0 || !strings.Contains(errs, "ringside: warning: seat 0 (alice") {
		t.Errorf("play after consent: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCLI("event", "run", "1", "--db", db); code != 0 {
		t.Errorf("event run after consent: exit %d\n%s%s", code, out, errs)
	}

	// A consent given for another status (another kernel) asks again.
	if err := os.WriteFile(filepath.Join(dir, "class-data", "allow-partial-sandbox"), []byte("Sandbox: partial — something else\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = play()
	refused("play with a consent for another status", code, out, errs)
}
