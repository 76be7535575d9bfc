package runner

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"ringside/engine"
)

// TestCloudAcceptSurvivesFdExhaustion: one seat opens connections until
// Ringside runs out of file descriptors, then frees them; afterwards the
// other seat reconnects and plays on. The game runs in a child process
// whose descriptor limit is lowered, so no other test is starved.
func TestCloudAcceptSurvivesFdExhaustion(t *testing.T) {
	if os.Getenv("RINGSIDE_TEST_HELPER") == "emfile" {
		emfileGame(t)
		return
	}
	buildSeedBot(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCloudAcceptSurvivesFdExhaustion$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "RINGSIDE_TEST_HELPER=emfile", "RINGSIDE_TEST_BINS="+filepath.Dir(fakebot))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the game under a low descriptor limit failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

func emfileGame(t *testing.T) {
	seed := buildSeedBot(t) + " -plain"
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	// Room for the bots' pipes and a few connections, no more.
	const margin = 40
	low := old
	low.Cur = uint64(len(fds) + margin)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	// Seat 2 floods at once after logging in and frees its connections
	// 500 ms later; seat 1 reconnects at turn 40, some 2 s in. Trusted
	// bots: they reach Ringside's own listener (a sandboxed bot's
	// connections may go through its launcher, which holds few).
	game := playCloudWith(t, Match{Sandbox: Sandbox{Trusted: true}}, engine.Options{"turns": "60", "turn_ms": "300"},
		seed+" -relogin-at 40 -think 50ms", seed+" -flood 500ms")
	flooded := regexp.MustCompile(`flood: opened (\d+)`).FindStringSubmatch(game.out.Stderr[1])
	if flooded == nil {
		t.Fatalf("the flood did not run:\n%s", game.out.Stderr[1])
	}
	if n, _ := strconv.Atoi(flooded[1]); n <= margin {
		t.Fatalf("the flood opened %d connections, not enough to exhaust Ringside's %d spare descriptors", n, margin)
	}
	if errs := game.out.Stderr[0]; !strings.Contains(errs, "logged in: 2") {
		t.Fatalf("seat 1 did not log in again after the flood; verdicts %v:\n%s\nseat 2:\n%s", counts(game.out, 0), strings.Join(append(grepLines(errs, "login"), grepLines(errs, "connected")...), "\n"), strings.Join(grepLines(game.out.Stderr[1], "flood"), "\n"))
	}
	okAfter := 0
	for _, s := range game.steps[40:] {
		if s.Seats[0].Verdict == engine.OK {
			okAfter++
		}
	}
	if okAfter < 15 {
		t.Errorf("after reconnecting seat 1 answered %d of 20 turns; verdicts %v", okAfter, counts(game.out, 0))
	}
	b, _ := json.Marshal(counts(game.out, 0))
	t.Logf("seat 1 verdicts %s; %s", b, flooded[0])
}
